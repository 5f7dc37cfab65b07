/**
 * The compatibility smoke (test/compat/) on one n8n version of tools/n8n/versions.ts, named by
 * E2E_N8N: `npm run test:compat` (tools/compat/run.ts) runs it once per version. The e2e suite's
 * global setup starts the sandbox (and an n8n of that version the smoke's helpers connect to).
 */
/** Without E2E_N8N: the e2e suite's default n8n (2.41). */
const version = process.env.E2E_N8N ?? '2.41';

module.exports = {
	displayName: `n8n ${version}`,
	testEnvironment: 'node',
	roots: ['<rootDir>/test/compat'],
	testMatch: ['**/*.compat.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { isolatedModules: true, tsconfig: 'tsconfig.json' }],
	},
	globalSetup: '<rootDir>/test/e2e/globalSetup.ts',
	globalTeardown: '<rootDir>/test/e2e/globalTeardown.ts',
	// its own env files and logs (.artifacts/compat/), so it runs beside the e2e suite
	globals: { E2E_N8N: version, E2E_SUITE: 'compat' },
	maxWorkers: 1,
	testTimeout: 600000,
};
