/**
 * `npm start` and `npm run start:queue` (or a suite) as the e2e files run them (not a test file
 * itself): as a process manager would (the same process group as jest), until their banner (or
 * another line), with the processes and ports they started, so a test can stop them or clean up
 * after them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';

import { fetchOnOpenConnection } from '../../tools/n8n/client';
import { portIsFree } from '../../tools/n8n/processes';
import { PROJECT_ROOT } from '../../tools/n8n/runtime';
import { waitFor } from '../../tools/shared/wait';

/** The banner's last line (n8n's own "[n8n] n8n ready in" comes earlier). */
const BANNER_END = /ready in [\d.]+ s\. Ctrl-C stops/;

export type Proc = { pid: number; ppid: number; state: string; command: string };

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
export function processTree(rootPid: number): Proc[] {
	const table = processTable();
	const tree = table.filter((p) => p.pid === rootPid);
	for (let i = 0; i < tree.length; i++) tree.push(...table.filter((p) => p.ppid === tree[i].pid));
	return tree;
}

/** Those of `procs` still running (a zombie has exited). */
export function stillRunning(procs: Proc[]): Proc[] {
	const now = new Map(processTable().map((p) => [p.pid, p]));
	return procs.filter((p) => {
		const current = now.get(p.pid);
		return current && current.state !== 'Z' && current.command === p.command;
	});
}

export async function busyPorts(ports: number[]): Promise<number[]> {
	const busy: number[] = [];
	for (const port of ports) if (!(await portIsFree(port))) busy.push(port);
	return busy;
}

export interface Started {
	npm: ChildProcess;
	output: () => string;
	tree: Proc[];
	ports: number[];
}

/**
 * Runs `npm <args>` as a process manager would (same process group as us) until its banner, or
 * until its output matches `ready`; the ports are those its banner names, or with `ready` every
 * 127.0.0.1 port its output names.
 */
export async function startUntilReady(args: string[], env: Record<string, string>, readyWithinMs: number, ready?: RegExp): Promise<Started> {
	const childEnv: Record<string, string> = {};
	for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^npm_/i.test(k)) childEnv[k] = v;
	const npm = spawn('npm', args, { cwd: PROJECT_ROOT, env: { ...childEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: false });
	let output = '';
	npm.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	npm.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	let exited = false;
	npm.once('exit', () => (exited = true));
	await waitFor(
		() => `${ready ?? 'the banner'} in the output of npm ${args.join(' ')}; its output so far:\n${output.slice(-3000)}`,
		() => {
			if (exited) throw new Error(`npm ${args.join(' ')} exited before it was ready:\n${output.slice(-3000)}`);
			return (ready ?? BANNER_END).test(output);
		},
		{ timeoutMs: readyWithinMs, intervalMs: 250 },
	).catch((error: unknown) => {
		killLeftovers(processTree(npm.pid!));
		throw error;
	});
	const named = ready ? output : output.slice(output.indexOf('=====', output.search(BANNER_END) - 5000));
	const ports = [...new Set([...named.matchAll(/127\.0\.0\.1:(\d+)/g)].map((m) => Number(m[1])))];
	return { npm, output: () => output, tree: processTree(npm.pid!), ports };
}

/** Whatever a failure left behind is ours: stopped by its pid, so the next test starts clean. */
export function killLeftovers(tree: Proc[]): void {
	for (const p of stillRunning(tree)) {
		try {
			process.kill(p.pid, 'SIGKILL');
		} catch {
			// gone
		}
	}
}

/** Runs `check` on what was started, then always leaves nothing of it running. */
export async function withStarted(started: Started, check: (started: Started) => Promise<void>): Promise<void> {
	try {
		await check(started);
	} finally {
		killLeftovers([...started.tree, ...processTree(started.npm.pid!)]);
	}
}

export interface DemoPorts {
	n8n: number;
	sandbox: number;
}

/** `npm start` on these ports and user folder (the demo and sandbox-page files), until its banner. */
export function startDemo(ports: DemoPorts, userFolder: string): Promise<Started> {
	return startUntilReady(['start'], { N8N_PORT_START: String(ports.n8n), SANDBOX_PORT: String(ports.sandbox), N8N_USER_FOLDER: userFolder }, 600_000);
}

/** Stops it as Ctrl-C does (SIGINT to npm), waits for its ports, and leaves nothing of it running. */
export async function stopDemo(started: Started, ports: DemoPorts): Promise<void> {
	const { npm, tree } = started;
	process.kill(npm.pid!, 'SIGINT');
	await waitFor('npm start to stop', async () => (await portIsFree(ports.n8n)) && (await portIsFree(ports.sandbox)), { timeoutMs: 60_000 });
	killLeftovers([...tree, ...processTree(npm.pid!)]);
}

/** n8n's public API of a started demo, with the key its banner (or output) prints; throws on an error status. */
export async function demoApi(banner: string, ports: DemoPorts, method: string, apiPath: string, body?: object): Promise<any> {
	const key = /X-N8N-API-KEY: ([^)\s]+)/.exec(banner)![1];
	const res = await fetchOnOpenConnection(`http://127.0.0.1:${ports.n8n}/api/v1${apiPath}`, {
		method,
		headers: { 'X-N8N-API-KEY': key, ...(body ? { 'content-type': 'application/json' } : {}) },
		body: body ? JSON.stringify(body) : undefined,
	});
	if (!res.ok) throw new Error(`${method} ${apiPath} -> ${res.status}: ${await res.text()}`);
	return res.json();
}
