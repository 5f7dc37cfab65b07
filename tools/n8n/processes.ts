/**
 * Ports and process groups on this machine, for the processes the tools start (n8n and its task
 * runner, PostgreSQL, Redis, verdaccio, n8n's CLI): a port no other start can get, whether a
 * port is taken, whether anything of a process group still runs, and process groups that end
 * with the process that started them, however it ends.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

// --- Ports ------------------------------------------------------------------------------------
//
// A port found free is free only until something binds it, and the kernel hands the same range
// to every `listen(0)` and every outgoing connection (n8n's own connections to PostgreSQL and
// Redis among them). So freePort() takes ports from below the kernel's ephemeral range, where
// nothing lands by chance, and claims each with a file named after the port and its claimant in
// a folder every checkout of this project shares: two starts of one run, or of two runs side by
// side, never get the same port. A claim lasts until releasePort() or the claimant's end; claims
// of ended processes are ignored and swept.

const CLAIMS_DIR = path.join(os.tmpdir(), 'n8n-nodes-timeline-navigation-ports');

/** `/proc/<pid>/stat` after the command name: state, ppid, pgrp, … (undefined without the process). */
function statOf(pid: number): string[] | undefined {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		// "pid (comm) state ppid pgrp ...": comm may contain spaces and parentheses
		return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	} catch {
		return undefined;
	}
}

/** When the process started (clock ticks since boot): with the pid, it names one process, as pids are reused. */
const startTimeOf = (pid: number): string | undefined => statOf(pid)?.[19];

/** This module's claimant name: pid, start time, and a nonce (jest loads a module once per test file, in one process). */
const CLAIMANT = `${process.pid}-${startTimeOf(process.pid) ?? '0'}-${randomBytes(4).toString('hex')}`;
/** Ports this module claimed, or is claiming. */
const claimed = new Set<number>();

function claimantAlive(claim: string): boolean {
	const [, pid, start] = claim.split('-');
	const now = startTimeOf(Number(pid));
	return now === undefined ? start === '0' && processAlive(Number(pid)) : now === start;
}

/** The ports freePort() gives: below the kernel's ephemeral range (`ip_local_port_range`), or above it. */
export function claimablePorts(): [number, number] {
	let [low, high] = [32768, 60999];
	try {
		[low, high] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
	} catch {
		// not Linux: its usual range
	}
	return low - 1 >= 10000 ? [Math.max(10000, low - 12000), low - 1] : [high + 1, 65535];
}

let swept = false;
/** Removes the claims of processes that have ended (once per module). */
function sweepClaims(): void {
	if (swept) return;
	swept = true;
	for (const claim of fs.readdirSync(CLAIMS_DIR)) {
		if (!claimantAlive(claim)) fs.rmSync(path.join(CLAIMS_DIR, claim), { force: true });
	}
}

/**
 * Claims `port` if no live claimant has it and nothing listens on it. Every claimant writes its
 * own file first and looks for others' after, so of two claiming at once at least one sees the
 * other and gives way.
 */
async function claim(port: number): Promise<boolean> {
	if (claimed.has(port)) return false;
	claimed.add(port);
	const own = `${port}-${CLAIMANT}`;
	fs.writeFileSync(path.join(CLAIMS_DIR, own), '');
	const rivals = fs.readdirSync(CLAIMS_DIR).filter((name) => name.startsWith(`${port}-`) && name !== own && claimantAlive(name));
	if (rivals.length === 0 && (await portIsFree(port))) return true;
	releasePort(port);
	return false;
}

/**
 * A loopback port claimed for this process until releasePort() or its end: free now, and given
 * to no other freePort() call of any process meanwhile. `range` is for tests.
 */
export async function freePort({ range = claimablePorts() }: { range?: [number, number] } = {}): Promise<number> {
	fs.mkdirSync(CLAIMS_DIR, { recursive: true });
	sweepClaims();
	const [low, high] = range;
	const count = high - low + 1;
	const first = randomInt(count);
	for (let i = 0; i < count; i++) {
		const port = low + ((first + i) % count);
		if (await claim(port)) return port;
	}
	throw new Error(`no free port in ${low}-${high}: each is in use or claimed (claims: ${CLAIMS_DIR})`);
}

/** Gives a claimed port back (its process has stopped). */
export function releasePort(port: number): void {
	claimed.delete(port);
	fs.rmSync(path.join(CLAIMS_DIR, `${port}-${CLAIMANT}`), { force: true });
}

// An ordinary exit gives every claim back; a killed process's claims are swept by the next claimant.
process.on('exit', () => {
	for (const port of claimed) releasePort(port);
});

export async function portIsFree(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const srv = net.createServer();
		srv.unref();
		srv.once('error', () => resolve(false));
		srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
	});
}

// --- Process groups ---------------------------------------------------------------------------

/** A timer that does not keep the process alive (for races against a process exit). */
export const unrefSleep = (ms: number) => sleep(ms, undefined, { ref: false });

/** Whether a process (or, with `group`, any process of that group) is alive and not a zombie. */
export function processAlive(id: number, { group = false } = {}): boolean {
	try {
		process.kill(group ? -id : id, 0);
	} catch (err) {
		if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
	}
	// kill(0) also succeeds for zombies (an orphan's parent may never reap it): ask /proc.
	let entries: string[];
	try {
		entries = fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e));
	} catch {
		return true; // no /proc: trust kill(0)
	}
	for (const e of entries) {
		const stat = statOf(Number(e));
		if (!stat) continue;
		const matches = group ? Number(stat[2]) === id : Number(e) === id;
		if (matches && stat[0] !== 'Z') return true;
	}
	return false;
}

/** Whether any live (non-zombie) process is in the process group. */
export const groupAlive = (pgid: number): boolean => processAlive(pgid, { group: true });

/**
 * The watchdog, run as `node -e`: it reads `+ <pgid> <start time>` and `- <pgid>` lines from
 * its stdin, and when stdin closes (its parent ended, however) sends SIGTERM to every group
 * still listed, then SIGKILL to what is left after 15 s. A group whose leader's pid now names
 * another process (another start time) has ended already: its number is reused, and left alone.
 */
const WATCHDOG = `
const fs = require('node:fs');
const groups = new Map();
let input = '';
const startOf = (pid) => {
	try {
		const stat = fs.readFileSync('/proc/' + pid + '/stat', 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
	} catch {
		return undefined;
	}
};
const signal = (pgid, sig) => {
	try {
		process.kill(-pgid, sig);
		return true;
	} catch {
		return false;
	}
};
process.on('SIGINT', () => {});
process.on('SIGHUP', () => {});
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
	input += chunk;
	for (let end = input.indexOf('\\n'); end >= 0; end = input.indexOf('\\n')) {
		const [op, pgid, start] = input.slice(0, end).split(' ');
		input = input.slice(end + 1);
		if (op === '+') groups.set(Number(pgid), start);
		else groups.delete(Number(pgid));
	}
});
process.stdin.on('end', () => {
	const ours = [...groups].filter(([pgid, start]) => [undefined, start].includes(startOf(pgid))).map(([pgid]) => pgid);
	let left = ours.filter((pgid) => signal(pgid, 'SIGTERM'));
	const deadline = Date.now() + 15000;
	const check = setInterval(() => {
		left = left.filter((pgid) => signal(pgid, 0));
		if (left.length > 0 && Date.now() < deadline) return;
		for (const pgid of left) signal(pgid, 'SIGKILL');
		clearInterval(check);
	}, 200);
});
`;

let watchdog: ChildProcess | undefined;
const watched = new Set<number>();

function tellWatchdog(line: string): void {
	if (!watchdog) {
		// Its own process group: a Ctrl-C to the terminal's group ends us, not it.
		watchdog = spawn(process.execPath, ['-e', WATCHDOG], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
		watchdog.unref();
		(watchdog.stdin as unknown as net.Socket).unref();
		watchdog.stdin!.on('error', () => undefined);
	}
	watchdog.stdin!.write(line + '\n');
}

/** Ends the process group `pgid` (whose leader we started) if this process ends first. */
function endWithThisProcess(pgid: number): void {
	watched.add(pgid);
	tellWatchdog(`+ ${pgid} ${startTimeOf(pgid) ?? ''}`);
}

function forget(pgid: number): void {
	if (!watched.delete(pgid)) return;
	tellWatchdog(`- ${pgid}`);
	// Nothing left to watch: the watchdog ends (with nothing to stop) until the next group.
	if (watched.size === 0) {
		watchdog?.stdin!.end();
		watchdog = undefined;
	}
}

/**
 * Spawns a command as the leader of a process group of its own (so that it and the children it
 * starts, such as n8n's task runner, can be stopped as one), which ends with this process if this
 * process ends first: a suite stopped by SIGINT or SIGTERM, or killed, leaves nothing running.
 */
export function spawnGroup(command: string, args: string[], options: SpawnOptions): ChildProcess {
	const child = spawn(command, args, { ...options, detached: true });
	const pgid = child.pid;
	if (pgid === undefined) return child; // it failed to start: its 'error' event says why
	endWithThisProcess(pgid);
	child.once('exit', () => {
		// The leader is gone; its group (a task runner) may linger until its stop clears it.
		const check = setInterval(() => {
			if (groupAlive(pgid)) return;
			clearInterval(check);
			forget(pgid);
		}, 500);
		check.unref();
	});
	return child;
}
