/**
 * End-to-end tests in a real n8n (Node + n8n installed by tools/n8n/runtime.ts), one jest project
 * per n8n version: every e2e file on n8n 2.41.1, and every file in CORE (all but the scanner,
 * release, stop, demo, local-install and human-review-agent files, which are not version-bound or need 2.x) on
 * n8n 1.123.x as well. `E2E_N8N=1.123 npm run test:e2e` runs one version only.
 */
const shared = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { isolatedModules: true, tsconfig: 'tsconfig.json' }],
	},
	globalSetup: '<rootDir>/test/e2e/globalSetup.ts',
	globalTeardown: '<rootDir>/test/e2e/globalTeardown.ts',
};

/** The files that also run on n8n 1.x. */
const CORE = ['smoke', 'custom-api-call', 'examples', 'webhooks', 'repeat-memory', 'registry-install', 'send-and-wait', 'service-errors', 'editor', 'secrets', 'polling', 'poll-editor', 'agent', 'sends', 'editor-credentials', 'two-packages', 'unverified-packages', 'editions', 'month-inbound-reply', 'month-timeline-session', 'month-refund-approval'];

const projects = [
	{ ...shared, displayName: 'n8n 2.41', testMatch: ['**/*.e2e.test.ts'], globals: { E2E_N8N: '2.41' } },
	{
		...shared,
		displayName: 'n8n 1.123',
		testMatch: CORE.map((name) => `**/${name}.e2e.test.ts`),
		globals: { E2E_N8N: '1.123' },
		// jest runs a global setup file once however many projects name it: one file each
		globalSetup: '<rootDir>/test/e2e/globalSetup.n8n-1.ts',
		globalTeardown: '<rootDir>/test/e2e/globalTeardown.n8n-1.ts',
	},
];

module.exports = {
	projects: process.env.E2E_N8N ? projects.filter((p) => p.globals.E2E_N8N === process.env.E2E_N8N) : projects,
	maxWorkers: 1,
	testTimeout: 120000,
};
