/**
 * Ports and process groups on this machine, for the n8n processes the tools start: a free port,
 * whether a port is taken, whether anything of a process group still runs.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export async function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address() as net.AddressInfo;
			srv.close(() => resolve(port));
		});
	});
}

export async function portIsFree(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const srv = net.createServer();
		srv.unref();
		srv.once('error', () => resolve(false));
		srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
	});
}

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
		let stat: string;
		try {
			stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
		} catch {
			continue;
		}
		// pid (comm) state ppid pgrp ...; comm may contain spaces and parentheses
		const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		const matches = group ? Number(rest[2]) === id : Number(e) === id;
		if (matches && rest[0] !== 'Z') return true;
	}
	return false;
}

/** Whether any live (non-zombie) process is in the process group. */
export const groupAlive = (pgid: number): boolean => processAlive(pgid, { group: true });
