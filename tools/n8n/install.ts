/**
 * `tsx tools/n8n/install.ts`: installs what the real-n8n suites of `.ci/run` need, ahead of them
 * and in the order they need it. Each suite would install what it misses on first use (under the
 * same locks, so a suite that gets there first waits for this install instead of starting its
 * own); `.ci/run` runs this in the background while `npm test` runs. With everything installed
 * it takes about a second.
 *
 *   Chromium and Redis (apt-get), n8n 2.41.1 on Node 24, PostgreSQL, verdaccio, n8n 1.123.81,
 *   then the smoke's versions below the floor and at the floor (tools/n8n/versions.ts)
 */
import { ensureChromium } from './browser';
import { ensurePostgres } from './postgres';
import { ensureRedis } from './redis';
import { ensureNpmTool, ensureRuntime, fmt, N8N_1, N8N_2, runtimeById, VERDACCIO } from './runtime';
import { MATRIX } from './versions';

const log = (line: string) => console.log(line);

const STEPS: Array<[what: string, install: () => Promise<unknown>]> = [
	['Chromium', () => ensureChromium(log)],
	['Redis', () => ensureRedis(log)],
	[`n8n ${N8N_2.n8nVersion}`, () => ensureRuntime({ runtime: N8N_2, log })],
	['PostgreSQL', () => ensurePostgres(log)],
	['verdaccio', () => ensureNpmTool(VERDACCIO, { log })],
	[`n8n ${N8N_1.n8nVersion}`, () => ensureRuntime({ runtime: N8N_1, log })],
	...MATRIX.filter((entry) => entry.role && ![N8N_1, N8N_2].some((pinned) => pinned.n8nVersion === entry.n8n)).map(
		(entry): [string, () => Promise<unknown>] => [`n8n ${entry.n8n}`, () => ensureRuntime({ runtime: runtimeById(entry.n8n), log })],
	),
];

(async () => {
	const started = Date.now();
	for (const [what, install] of STEPS) {
		const t0 = Date.now();
		await install();
		log(`[install] ${what}: ready after ${fmt(Date.now() - t0)}`);
	}
	log(`[install] everything the suites need, in ${fmt(Date.now() - started)}`);
})().catch((err) => {
	console.error(err instanceof Error ? err.message : err);
	process.exit(1);
});
