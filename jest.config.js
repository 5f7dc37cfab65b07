/** Unit and in-process tests: the nodes run through n8n-core against the sandbox over HTTP. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/', '/test/e2e-queue/', '/test/compat/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { isolatedModules: true, tsconfig: 'tsconfig.json' }],
	},
	globalSetup: '<rootDir>/test/support/harness/globalSetup.ts',
	globalTeardown: '<rootDir>/test/support/harness/globalTeardown.ts',
	testTimeout: 30000,
};
