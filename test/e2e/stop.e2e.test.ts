/**
 * `npm start` and `npm run start:queue` stopped the way a process manager, a script or
 * `docker stop` stops them: one signal to the npm process only (not to its process group, as a
 * Ctrl-C in a terminal would). Everything they started (the start script, the sandbox, n8n and
 * its task runner, the queue's workers, webhook processes, balancer, PostgreSQL and Redis) must be
 * gone within seconds, and every port they listened on free again. The same for a suite stopped
 * by a CI's timeout: `npm run test:e2e:queue`, SIGTERM while its tests run.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { ARTIFACTS_DIR } from '../../tools/n8n/runtime';
import { freePort } from '../../tools/n8n/processes';
import { waitFor } from '../../tools/shared/wait';
import { busyPorts, killLeftovers, processTree, startUntilReady, stillRunning, withStarted, type Proc, type Started } from './npmStart';

/**
 * How long a stop may take: n8n's own shutdown is most of it. The queue stops in layers (webhook
 * processes and workers, each given n8n's 5 s graceful shutdown, then the main process, then
 * PostgreSQL and Redis), so it takes longer by design.
 */
const STOP_WITHIN_MS = { start: 10_000, queue: 20_000, suite: 30_000 };
/** How long we watch before calling a stop hung (the measured time is reported either way). */
const WATCH_MS = 60_000;
jest.setTimeout(480_000);

/** Sends `signal` to the npm process only; expects every process and port of the tree gone. */
async function expectSignalStopsAll(started: Started, signal: NodeJS.Signals, withinMs: number): Promise<void> {
	const { npm, tree, ports } = started;
	expect(await busyPorts(ports)).toEqual(ports);
	const t0 = Date.now();
	process.kill(npm.pid!, signal);
	let left: Proc[] = [];
	let busy: number[] = [];
	try {
		await waitFor(
			() =>
				`every process and port of npm ${npm.spawnargs.slice(1).join(' ')} gone within ${WATCH_MS / 1000} s of ${signal}; ` +
				`still running:\n${left.map((p) => `  ${p.pid} (parent ${p.ppid}) ${p.command}`).join('\n')}\nports still taken: ${busy.join(', ')}`,
			async () => {
				left = stillRunning(tree);
				busy = await busyPorts(ports);
				return left.length === 0 && busy.length === 0;
			},
			{ timeoutMs: WATCH_MS, intervalMs: 200 },
		);
	} finally {
		killLeftovers(tree);
	}
	const tookMs = Date.now() - t0;
	console.log(`${signal} to npm (${npm.spawnargs.slice(1).join(' ')}): ${tree.length} processes and ports ${ports.join(', ')} gone in ${(tookMs / 1000).toFixed(1)} s`);
	expect(tookMs).toBeLessThan(withinMs);
}

function tempUserFolder(): string {
	return fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-stop-e2e-'));
}

describe('a signal to the npm process stops everything it started', () => {
	const folders: string[] = [];
	afterAll(() => {
		for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
	});

	async function startDemo(): Promise<Started> {
		const userFolder = tempUserFolder();
		folders.push(userFolder);
		const started = await startUntilReady(
			['start'],
			{ N8N_PORT_START: String(await freePort()), SANDBOX_PORT: String(await freePort()), N8N_USER_FOLDER: userFolder },
			300_000,
		);
		return started;
	}

	/** The tree the signal must take down: npm, the start script, n8n (and its task runner). */
	function expectDemoTree(started: Started): void {
		const commands = started.tree.map((p) => p.command);
		expect(commands).toEqual(expect.arrayContaining([expect.stringMatching(/start\.ts/), expect.stringMatching(/n8n start/)]));
	}

	test('npm start, SIGINT', async () => {
		await withStarted(await startDemo(), async (started) => {
			expectDemoTree(started);
			await expectSignalStopsAll(started, 'SIGINT', STOP_WITHIN_MS.start);
		});
	});

	test('npm start, SIGTERM', async () => {
		await withStarted(await startDemo(), async (started) => {
			expectDemoTree(started);
			await expectSignalStopsAll(started, 'SIGTERM', STOP_WITHIN_MS.start);
		});
	});

	test('npm run start:queue, SIGTERM', async () => {
		const started = await startUntilReady(
			['run', 'start:queue'],
			{
				QUEUE_EDITOR_PORT: String(await freePort()),
				QUEUE_WEBHOOK_PORT: String(await freePort()),
				SANDBOX_PORT: String(await freePort()),
			},
			300_000,
		);
		await withStarted(started, async () => {
			const commands = started.tree.map((p) => p.command).join('\n');
			for (const role of [/start-queue\.ts/, /n8n start/, /n8n worker/, /n8n webhook/, /postgres -D/, /redis-server/]) {
				expect(commands).toMatch(role);
			}
			await expectSignalStopsAll(started, 'SIGTERM', STOP_WITHIN_MS.queue);
		});
	});

	test('npm run test:e2e:queue, SIGTERM while its tests run', async () => {
		const artifacts = path.join(ARTIFACTS_DIR, 'e2e', 'stopped-queue-suite');
		const started = await startUntilReady(['run', 'test:e2e:queue'], { E2E_QUEUE_ARTIFACTS: artifacts }, 600_000, /\[e2e-queue\] cluster ready/);
		await withStarted(started, async () => {
			// Everything started by now (jest, its watchdog, the cluster and n8n's task runners).
			const now = { ...started, tree: processTree(started.npm.pid!) };
			const commands = now.tree.map((p) => p.command).join('\n');
			for (const role of [/jest/, /n8n start/, /n8n worker/, /n8n webhook/, /postgres -D/, /redis-server/]) {
				expect(commands).toMatch(role);
			}
			await expectSignalStopsAll(now, 'SIGTERM', STOP_WITHIN_MS.suite);
		});
	});
});
