/** n8n's queue mode end to end (PostgreSQL, Redis, main, workers, webhook processes): `npm run test:e2e:queue`. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e-queue'],
	testMatch: ['**/*.e2e.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { isolatedModules: true, tsconfig: 'tsconfig.json' }],
	},
	// One file: its tests restart processes of the cluster it started, so they run in this process.
	maxWorkers: 1,
	testTimeout: 600000,
};
