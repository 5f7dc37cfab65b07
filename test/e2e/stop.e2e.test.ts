/**
 * `npm start` and `npm run start:queue` stopped the way a process manager, a script or
 * `docker stop` stops them: one signal to the npm process only (not to its process group, as a
 * Ctrl-C in a terminal would). Everything they started (the start script, the sandbox, n8n and
 * its task runner, the queue's workers, webhook processes, balancer, PostgreSQL and Redis) must be
 * gone within seconds, and every port they listened on free again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { freePort, portIsFree } from '../../tools/n8n/processes';
import { PROJECT_ROOT } from '../../tools/n8n/runtime';
import { waitFor } from '../../tools/shared/wait';

/**
 * How long a stop may take: n8n's own shutdown is most of it. The queue stops in layers (webhook
 * processes and workers, each given n8n's 5 s graceful shutdown, then the main process, then
 * PostgreSQL and Redis), so it takes longer by design.
 */
const STOP_WITHIN_MS = { start: 10_000, queue: 20_000 };
/** How long we watch before calling a stop hung (the measured time is reported either way). */
const WATCH_MS = 60_000;
/** The banner's last line (n8n's own "[n8n] n8n ready in" comes earlier). */
const BANNER_END = /ready in [\d.]+ s\. Ctrl-C stops/;

jest.setTimeout(480_000);

type Proc = { pid: number; ppid: number; state: string; command: string };

/** Every process on the machine, from /proc. */
function processTable(): Proc[] {
	const table: Proc[] = [];
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
			// "pid (comm) state ppid ...": comm may hold spaces and parentheses
			const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			const command = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
			table.push({ pid: Number(entry), ppid: Number(ppid), state, command });
		} catch {
			// it exited while we read
		}
	}
	return table;
}

/** The process and all its descendants (n8n, PostgreSQL and Redis run in groups of their own). */
function processTree(rootPid: number): Proc[] {
	const table = processTable();
	const tree = table.filter((p) => p.pid === rootPid);
	for (let i = 0; i < tree.length; i++) tree.push(...table.filter((p) => p.ppid === tree[i].pid));
	return tree;
}

/** Those of `procs` still running (a zombie has exited). */
function stillRunning(procs: Proc[]): Proc[] {
	const now = new Map(processTable().map((p) => [p.pid, p]));
	return procs.filter((p) => {
		const current = now.get(p.pid);
		return current && current.state !== 'Z' && current.command === p.command;
	});
}

async function busyPorts(ports: number[]): Promise<number[]> {
	const busy: number[] = [];
	for (const port of ports) if (!(await portIsFree(port))) busy.push(port);
	return busy;
}

interface Started {
	npm: ChildProcess;
	output: () => string;
	tree: Proc[];
	ports: number[];
}

/** Runs `npm <args>` as a process manager would (same process group as us) until its banner. */
async function startUntilReady(args: string[], env: Record<string, string>, readyWithinMs: number): Promise<Started> {
	const childEnv: Record<string, string> = {};
	for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^npm_/i.test(k)) childEnv[k] = v;
	const npm = spawn('npm', args, { cwd: PROJECT_ROOT, env: { ...childEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: false });
	let output = '';
	npm.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	npm.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	let exited = false;
	npm.once('exit', () => (exited = true));
	await waitFor(
		() => `the banner of npm ${args.join(' ')} ("ready in"); its output so far:\n${output.slice(-3000)}`,
		() => {
			if (exited) throw new Error(`npm ${args.join(' ')} exited before its banner:\n${output.slice(-3000)}`);
			return BANNER_END.test(output);
		},
		{ timeoutMs: readyWithinMs, intervalMs: 250 },
	).catch((error: unknown) => {
		killLeftovers(processTree(npm.pid!));
		throw error;
	});
	const banner = output.slice(output.indexOf('=====', output.search(BANNER_END) - 5000));
	const ports = [...new Set([...banner.matchAll(/127\.0\.0\.1:(\d+)/g)].map((m) => Number(m[1])))];
	return { npm, output: () => output, tree: processTree(npm.pid!), ports };
}

/** Whatever a failure left behind is ours: stopped by its pid, so the next test starts clean. */
function killLeftovers(tree: Proc[]): void {
	for (const p of stillRunning(tree)) {
		try {
			process.kill(p.pid, 'SIGKILL');
		} catch {
			// gone
		}
	}
}

/** Runs `check` on what was started, then always leaves nothing of it running. */
async function withStarted(started: Started, check: (started: Started) => Promise<void>): Promise<void> {
	try {
		await check(started);
	} finally {
		killLeftovers([...started.tree, ...processTree(started.npm.pid!)]);
	}
}

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
});
