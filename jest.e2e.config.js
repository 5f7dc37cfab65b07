/**
 * End-to-end tests in a real n8n (Node + n8n installed by tools/n8n/runtime.ts). Every file runs
 * on n8n 2.41, in one of three jest projects (`.ci/run` runs each in a jest process of its own,
 * side by side, so they are about as long); the files of ON_N8N_1 run on n8n 1.123 too.
 * docs/testing.md says which file proves what, where.
 *
 *   n8n 2.41                            every file not listed below (most on the suite's own n8n)
 *   n8n 2.41, installs                  INSTALLS
 *   n8n 2.41, restarts and npm scripts  RESTARTS_AND_NPM_SCRIPTS
 *   n8n 1.123                           ON_N8N_1
 *
 * `npm run test:e2e` runs the four one after another (the 2.41 ones on one sandbox and n8n);
 * `E2E_N8N=2.41` (or `1.123`) one version; `--selectProjects "<name>"` one project.
 */
const shared = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { isolatedModules: true, tsconfig: 'tsconfig.json' }],
	},
	globalSetup: '<rootDir>/test/e2e/globalSetup.ts',
	globalTeardown: '<rootDir>/test/e2e/globalTeardown.ts',
	globals: { E2E_N8N: '2.41' },
};

/** Files that install the packages as users do (Settings → Community Nodes, npm, a release), each into an n8n of its own. */
const INSTALLS = ['registry-install', 'two-packages', 'twin-package', 'editions', 'unverified-packages', 'release', 'scanner', 'below-floor'];

/**
 * Files that stop and start an n8n of their own, or run npm scripts and the documented install
 * commands in this checkout (`npm start` rebuilds dist/; local-install packs it by hand, so it
 * runs in the same jest process, never during a build). two-triggers and month-ai-agent start
 * n8n of their own too, but run in the first project, whose share of the time is shorter.
 */
const RESTARTS_AND_NPM_SCRIPTS = ['polling', 'bursts', 'repeat-memory', 'demo', 'stop', 'local-install', 'sandbox-page'];

/**
 * The files that run on n8n 1.123 too: each asserts what n8n 1.x does differently (the limits
 * the README names among them); 1.x's main paths are the compatibility smoke's, which CI runs on
 * 1.123.81 as well (`npm run test:compat -- --ci`).
 */
const ON_N8N_1 = [
	'smoke', // the credential tests: the Chat-App Messaging limit, n8n's words for a wrong timeline key
	'agent', // a tool's error ends the agent's execution
	'editor', // the node under Human in the loop; search results without descriptions
	'editor-credentials', // Resource kept; the credential 1.x fills in
	'service-errors', // the service's words in error items, through 1.x's NodeApiError
	'secrets', // no key in what 1.x saves of a failed request (its own NodeApiError) or logs
	'repeat-memory', // the trigger's memory in each saved execution's static data
	'unverified-packages', // neither N8N_UNVERIFIED_PACKAGES_ENABLED nor N8N_COMMUNITY_PACKAGES
	'twin-package', // 1.x's answer to a package with a node of an installed one's name
	'polling', // the polling trigger over 1.x's own polls, across restarts
	'two-triggers', // two polling triggers in one workflow, on 1.x's own polls
	'bursts', // a burst gathered into one run, across a restart (1.x's activation hook)
];

const files = (names) => names.map((name) => `**/${name}.e2e.test.ts`);
const notIn = (names) => ['/node_modules/', ...names.map((name) => `/${name}\\.e2e\\.test\\.ts$`)];

const projects = [
	{ ...shared, displayName: 'n8n 2.41', testMatch: ['**/*.e2e.test.ts'], testPathIgnorePatterns: notIn([...INSTALLS, ...RESTARTS_AND_NPM_SCRIPTS]) },
	{ ...shared, displayName: 'n8n 2.41, installs', testMatch: files(INSTALLS) },
	{ ...shared, displayName: 'n8n 2.41, restarts and npm scripts', testMatch: files(RESTARTS_AND_NPM_SCRIPTS) },
	{
		...shared,
		displayName: 'n8n 1.123',
		testMatch: files(ON_N8N_1),
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
