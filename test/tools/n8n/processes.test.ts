// Ports no two starts can share, and process groups that end with the process that started them
// (tools/n8n/processes.ts), tried across real processes.
import { spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';

import { claimablePorts, freePort, groupAlive, portIsFree, releasePort } from '../../../tools/n8n/processes';
import { PROJECT_ROOT } from '../../../tools/n8n/runtime';
import { waitFor } from '../../../tools/shared/wait';

jest.setTimeout(60_000);

/** Another node process running `code` with the tools loaded (`processes` is tools/n8n/processes.ts); its first line of output. */
async function otherProcess(code: string): Promise<{ child: ChildProcess; firstLine: string }> {
	const child = spawn(process.execPath, ['--require', 'tsx/cjs', '-e', `const processes = require('./tools/n8n/processes');\n${code}`], {
		cwd: PROJECT_ROOT,
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	let output = '';
	child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const firstLine = await waitFor('the other process to print its line', () => output.includes('\n') && output.split('\n')[0], { timeoutMs: 30_000 });
	return { child, firstLine };
}

const ended = (child: ChildProcess) => new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));

/** Three ports below the range freePort() gives, so no other run claims them while this test runs. */
async function quietRange(): Promise<[number, number]> {
	for (let low = claimablePorts()[0] - 3; low > 10_000; low -= 3) {
		const free = await Promise.all([low, low + 1, low + 2].map(portIsFree));
		if (free.every(Boolean)) return [low, low + 2];
	}
	throw new Error('no three free ports below the claimable range');
}

describe('freePort', () => {
	test('gives distinct ports outside the kernel\'s ephemeral range, each free, however many are asked for at once', async () => {
		const ports = await Promise.all(Array.from({ length: 100 }, () => freePort()));
		try {
			const [low, high] = claimablePorts();
			expect(new Set(ports).size).toBe(100);
			for (const port of ports) expect(port >= low && port <= high).toBe(true);
			expect((await Promise.all(ports.map(portIsFree))).every(Boolean)).toBe(true);
		} finally {
			ports.forEach(releasePort);
		}
	});

	test('never gives a port another live process has claimed; gives it once that process has ended', async () => {
		const range = await quietRange();
		const other = await otherProcess(
			`Promise.all([processes.freePort({ range: ${JSON.stringify(range)} }), processes.freePort({ range: ${JSON.stringify(range)} })])` +
				`.then((ports) => { console.log(ports.join(',')); setInterval(() => {}, 1000); });`,
		);
		const theirs = other.firstLine.split(',').map(Number);
		try {
			const mine = await freePort({ range });
			expect(theirs).not.toContain(mine);
			expect([...theirs, mine].sort()).toEqual([range[0], range[0] + 1, range[1]]);
			await expect(freePort({ range })).rejects.toThrow(`no free port in ${range[0]}-${range[1]}`);
			releasePort(mine);
		} finally {
			other.child.kill('SIGKILL');
			await ended(other.child);
		}
		// Killed: its claims are left behind, and ignored.
		const after = await Promise.all([freePort({ range }), freePort({ range }), freePort({ range })]);
		after.forEach(releasePort);
		expect(after.sort()).toEqual([range[0], range[0] + 1, range[1]]);
	});

	test('never gives a port something listens on', async () => {
		const range = await quietRange();
		const listener = net.createServer();
		await new Promise<void>((resolve) => listener.listen(range[0] + 1, '127.0.0.1', resolve));
		try {
			const ports = [await freePort({ range }), await freePort({ range })];
			ports.forEach(releasePort);
			expect(ports.sort()).toEqual([range[0], range[1]]);
		} finally {
			await new Promise((resolve) => listener.close(resolve));
		}
	});
});

describe('spawnGroup', () => {
	/** A process that starts a group of two `sleep`s with spawnGroup, prints the group's id, and waits. */
	const starter = () =>
		otherProcess(`const child = processes.spawnGroup('sh', ['-c', 'sleep 300 & exec sleep 300'], { stdio: 'ignore' });
			console.log(child.pid);
			setInterval(() => {}, 1000);`);

	test.each(['SIGTERM', 'SIGINT', 'SIGKILL'] as const)('the group ends when the process that started it is ended by %s', async (signal) => {
		const { child, firstLine } = await starter();
		const group = Number(firstLine);
		try {
			await waitFor('the group to run its two sleeps', () => groupAlive(group), { timeoutMs: 10_000 });
			child.kill(signal);
			await ended(child);
			await waitFor(`the group ${group} to end after ${signal} to its starter`, () => !groupAlive(group), { timeoutMs: 10_000 });
		} finally {
			try {
				process.kill(-group, 'SIGKILL');
			} catch {
				// ended, as it should
			}
		}
	});

	test('a group still runs while the process that started it does', async () => {
		const { child, firstLine } = await starter();
		const group = Number(firstLine);
		try {
			await new Promise((resolve) => setTimeout(resolve, 1500));
			expect(groupAlive(group)).toBe(true);
		} finally {
			child.kill('SIGKILL');
			await ended(child);
		}
		await waitFor('the group to end with its starter', () => !groupAlive(group), { timeoutMs: 10_000 });
	});
});
