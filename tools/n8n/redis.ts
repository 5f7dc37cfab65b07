/**
 * Redis for n8n's queue mode: Debian's `redis-server`, installed with apt-get the first time
 * (as root; the project's scripts never ask for a manual install), then started as a plain
 * child process on a free loopback port with nothing saved to disk.
 *
 *   .n8n-runtime/redis/redis.json   marker: the binary and version found or installed
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { APT_WAITS_FOR_ITS_LOCK } from './browser';
import { spawnGroup } from './processes';
import { ensureInstalled, fmt, installPaths, runStep, type Log } from './runtime';
import { waitFor } from '../shared/wait';

const REDIS_PATHS = installPaths('redis', 'redis.json');

export interface RedisInfo {
	bin: string;
	version: string;
	installedBy: 'apt-get' | 'already present';
	completedAt: string;
	installSeconds?: number;
}

function which(cmd: string): string | undefined {
	const res = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
	const found = res.stdout.trim();
	return res.status === 0 && found ? found : undefined;
}

function versionOf(bin: string): string | undefined {
	const res = spawnSync(bin, ['--version'], { encoding: 'utf8' });
	return res.status === 0 ? /v=(\S+)/.exec(res.stdout)?.[1] : undefined;
}

/**
 * apt-get install, with services kept from starting: Debian's policy-rc.d interface (exit 101
 * = "do not start") holds while the package is configured, so no daemon is left on 6379.
 */
async function aptInstall(log: Log): Promise<void> {
	if (process.getuid?.() !== 0 || !which('apt-get')) {
		throw new Error(
			'redis-server is missing and this is not a root shell with apt-get: install it ' +
				'(Debian/Ubuntu: `sudo apt-get install -y redis-server`) and run again.',
		);
	}
	const policy = '/usr/sbin/policy-rc.d';
	const ownPolicy = !fs.existsSync(policy);
	if (ownPolicy) fs.writeFileSync(policy, '#!/bin/sh\n# written by n8n-nodes-timeline-navigation while installing redis-server\nexit 101\n', { mode: 0o755 });
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const opts = { cwd: os.tmpdir(), env, log, logFile: REDIS_PATHS.log, lockFile: REDIS_PATHS.lock, prefix: '[redis]' };
	try {
		await runStep('apt-get update', 'apt-get', ['update', '-q', ...APT_WAITS_FOR_ITS_LOCK], opts);
		await runStep('apt-get install redis-server', 'apt-get', ['install', '-y', '-q', '--no-install-recommends', ...APT_WAITS_FOR_ITS_LOCK, 'redis-server'], opts);
	} finally {
		if (ownPolicy) fs.rmSync(policy, { force: true });
	}
}

/** Finds redis-server, installing Debian's package the first time; idempotent. */
export function ensureRedis(log: Log = console.log): Promise<RedisInfo> {
	const valid = (marker: RedisInfo) => fs.existsSync(marker.bin) && versionOf(marker.bin) === marker.version;
	return ensureInstalled(REDIS_PATHS, log, valid, async () => {
		const started = Date.now();
		let bin = which('redis-server');
		const installedBy = bin ? 'already present' : 'apt-get';
		if (!bin) {
			log('[redis] redis-server is missing: installing Debian\'s package (first time only, about 30 s)');
			await aptInstall(log);
			bin = which('redis-server');
			if (!bin) throw new Error(`apt-get installed redis-server but it is not on PATH; see ${REDIS_PATHS.log}`);
		}
		const version = versionOf(bin);
		if (!version) throw new Error(`${bin} --version failed`);
		log(`[redis] redis-server ${version} (${installedBy}) ready in ${fmt(Date.now() - started)}`);
		return { bin, version, installedBy, completedAt: new Date().toISOString(), installSeconds: Math.round((Date.now() - started) / 1000) };
	});
}

export interface RedisServer {
	host: string;
	port: number;
	pid: number;
	logFile: string;
	stop(): Promise<void>;
}

/** Starts redis-server on 127.0.0.1:`port`, in memory only (no RDB/AOF files). */
export async function startRedis(opts: { port: number; logFile: string; log?: Log; signal?: AbortSignal }): Promise<RedisServer> {
	const log = opts.log ?? console.log;
	const { bin } = await ensureRedis(log);
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-redis-'));
	fs.mkdirSync(path.dirname(opts.logFile), { recursive: true });
	const out = fs.openSync(opts.logFile, 'w'); // fresh: readiness is read from it
	const child: ChildProcess = spawnGroup(
		bin,
		['--port', String(opts.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--protected-mode', 'yes'],
		{ stdio: ['ignore', out, out] },
	);
	fs.closeSync(out);
	let exited = false;
	const exit = new Promise<void>((resolve) => child.on('exit', () => ((exited = true), resolve())));
	const stop = async () => {
		if (!exited) {
			child.kill('SIGTERM');
			await Promise.race([exit, sleep(5000, undefined, { ref: false })]);
			if (!exited) child.kill('SIGKILL');
			await exit;
		}
		fs.rmSync(dir, { recursive: true, force: true });
	};
	try {
		await waitFor(
			`redis on port ${opts.port}`,
			() => {
				if (exited) throw new Error(`redis-server exited; see ${opts.logFile}`);
				return fs.readFileSync(opts.logFile, 'utf8').includes('Ready to accept connections');
			},
			{ timeoutMs: 15000, signal: opts.signal },
		);
	} catch (err) {
		await stop();
		throw err;
	}
	log(`[redis] redis-server on 127.0.0.1:${opts.port} (pid ${child.pid})`);
	return { host: '127.0.0.1', port: opts.port, pid: child.pid!, logFile: opts.logFile, stop };
}

if (require.main === module) {
	ensureRedis().catch((err) => {
		console.error(err instanceof Error ? err.message : err);
		process.exit(1);
	});
}
