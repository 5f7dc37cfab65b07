/**
 * The n8n versions the compatibility matrix runs (`npm run test:compat`; the table in
 * docs/compatibility.md): the one list. Each is the newest patch of its minor that installs from
 * the npm registry; runtime.ts turns each into a runtime (the Node it runs on, the overrides its
 * install needs), reusing the e2e suite's two pinned runtimes for 2.41.1 and 1.123.81.
 *
 * To add a version: one entry, in order. The smoke (test/compat/) then installs it and runs every
 * check on it; `npm run test:compat -- --versions <n8n>` runs it alone.
 */
export interface MatrixVersion {
	/** The exact n8n version. */
	n8n: string;
	/**
	 * What it stands for: the newest release below the floor (the package refuses, in words), the
	 * floor (the oldest n8n the package runs on), or the newest that installs here. `.ci/run` runs
	 * these three and the e2e suite's 1.x (`--ci`); the scheduled workflow runs them all.
	 */
	role?: 'below the floor' | 'floor' | 'newest';
	/** Why it is in the list, when it is not for its role alone. */
	why?: string;
}

export const MATRIX: readonly MatrixVersion[] = [
	{ n8n: '1.82.3', role: 'below the floor', why: 'n8n-workflow 1.80 has no NodeConnectionTypes' },
	{ n8n: '1.85.4', role: 'floor', why: 'n8n-workflow 1.83 exports NodeConnectionTypes; community nodes are AI tools without a setting' },
	{ n8n: '1.105.4', why: 'the newest release here without signed Send and Wait links' },
	{ n8n: '1.110.1', why: 'the oldest release here with them (1.107 added them; 1.106 to 1.109.0 do not install here)' },
	{ n8n: '1.123.81', why: 'the maintained 1.x line, the e2e suite\'s second version' },
	{ n8n: '2.0.3', why: 'n8n 2.0: task runners and new defaults' },
	{ n8n: '2.11.4' },
	{ n8n: '2.20.12' },
	{ n8n: '2.30.8' },
	{ n8n: '2.41.1', role: 'newest', why: 'the newest that installs here (2.41.3 pins packages this registry lacks)' },
];
