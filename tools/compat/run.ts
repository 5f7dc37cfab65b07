/**
 * `npm run test:compat`: the compatibility smoke (test/compat/) on each n8n version of
 * tools/n8n/versions.ts, one after another: the version's runtime installed by runtime.ts if
 * missing, then jest on it (jest.compat.config.js). Then the results go into
 * docs/compatibility.json and the tables of README.md and docs/compatibility.md (results.ts).
 * Exits 1 when a version's smoke failed (after writing what it gave).
 *
 *   npm run test:compat                          every version
 *   npm run test:compat -- --ci                  the ones with a role (below the floor, the floor, the newest)
 *                                                and the e2e suite's 1.x, 1.123.81 (what CI runs)
 *   npm run test:compat -- --versions 1.85.4,2.41.1
 *   tsx tools/compat/run.ts --merge                 no run: the results already in .artifacts/compat/ (the scheduled workflow's jobs)
 *   tsx tools/compat/run.ts --ci --list             no run: the versions it would run, as JSON (ci.yml's jobs)
 *
 * Run `npm run build` first (npm run test:compat does): the smoke installs the built packages.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { ensureRuntime, fmt, N8N_1, runtimeById, type N8nRuntime } from '../n8n/runtime';
import { MATRIX } from '../n8n/versions';
import { compatResultFile, mergeResults, readResults, resultsTable, writeResults, type VersionResults } from './results';

const log = (line: string) => console.log(line);

function chosenVersions(args: string[]): N8nRuntime[] {
	const at = args.indexOf('--versions');
	if (at !== -1) return (args[at + 1] ?? '').split(',').filter(Boolean).map((id) => runtimeById(id));
	// --ci: the e2e suite's 1.x too; its smoke stands for the e2e files that run on 2.41 only
	const entries = args.includes('--ci') ? MATRIX.filter((entry) => entry.role || entry.n8n === N8N_1.n8nVersion) : MATRIX;
	return entries.map((entry) => runtimeById(entry.n8n));
}

/**
 * Runs jest as our child, and ends it with the signal that ends us (SIGINT, SIGTERM): it then
 * ends what it started. Resolves to its exit code.
 */
function jest(args: string[], env: NodeJS.ProcessEnv): Promise<number | null> {
	const child = spawn(process.execPath, [require.resolve('jest/bin/jest'), ...args], { stdio: 'inherit', env });
	let received: NodeJS.Signals | undefined;
	const relay = (signal: NodeJS.Signals) => child.kill((received = signal));
	for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, relay);
	return new Promise((resolve) =>
		child.on('exit', (code) => {
			for (const signal of ['SIGINT', 'SIGTERM'] as const) process.off(signal, relay);
			if (received) process.kill(process.pid, received); // stopped: the other versions too
			resolve(code);
		}),
	);
}

/** The smoke on one version; its results with whether jest passed. */
async function runVersion(runtime: N8nRuntime): Promise<VersionResults> {
	const started = Date.now();
	await ensureRuntime({ runtime, log });
	const file = compatResultFile(runtime.n8nVersion);
	fs.rmSync(file, { force: true });
	log(`[compat] n8n ${runtime.n8nVersion} on Node ${runtime.nodeVersion}: the smoke`);
	const passed = (await jest(['-c', 'jest.compat.config.js'], { ...process.env, E2E_N8N: runtime.id })) === 0;
	log(`[compat] n8n ${runtime.n8nVersion}: ${passed ? 'passed' : 'FAILED'} in ${fmt(Date.now() - started)}`);
	const results: VersionResults = fs.existsSync(file)
		? { ...(JSON.parse(fs.readFileSync(file, 'utf8')) as Omit<VersionResults, 'passed'>), passed }
		: { n8n: runtime.n8nVersion, node: runtime.nodeVersion, ranAt: new Date(started).toISOString(), passed: false, checks: [] };
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
	return results;
}

/** The results of earlier runs in .artifacts/compat/ (each job of the scheduled workflow runs one version). */
function savedRuns(): VersionResults[] {
	const dir = path.dirname(compatResultFile('x'));
	if (!fs.existsSync(dir)) return [];
	return fs
		.readdirSync(dir)
		.filter((name) => name.endsWith('.json'))
		.map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as VersionResults)
		.filter((results) => typeof results.passed === 'boolean');
}

(async () => {
	const started = Date.now();
	const args = process.argv.slice(2);
	if (args.includes('--list')) {
		console.log(JSON.stringify(chosenVersions(args).map((runtime) => runtime.n8nVersion)));
		return;
	}
	const latest: VersionResults[] = [];
	if (args.includes('--merge')) latest.push(...savedRuns());
	else for (const runtime of chosenVersions(args)) latest.push(await runVersion(runtime));
	if (latest.length === 0) throw new Error('no results to merge: .artifacts/compat/ holds none');
	const results = mergeResults(readResults(), latest);
	writeResults(results);
	log(`\n${resultsTable(mergeResults([], latest))}\n`);
	const failed = latest.filter((version) => !version.passed).map((version) => version.n8n);
	log(`[compat] ${latest.length} version(s) in ${fmt(Date.now() - started)}; docs/compatibility.json and the tables written${failed.length ? `; FAILED on ${failed.join(', ')}` : ''}`);
	process.exit(failed.length > 0 ? 1 : 0);
})().catch((err) => {
	console.error(err instanceof Error ? err.message : err);
	process.exit(1);
});
