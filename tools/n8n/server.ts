/**
 * One n8n process (`n8n start`, or in queue mode `n8n worker` or `n8n webhook`) on a runtime from
 * runtime.ts, with this package installed in its user folder: its environment, its start until
 * ready, its stop with the task runner it spawned, and a leftover from a killed run.
 * startN8n (instance.ts) adds the owner and the REST client for the main process.
 *
 * Everything runs on 127.0.0.1 with n8n's outbound features switched off
 * (see docs/development.md, "What the tools rely on in n8n").
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { PACKAGE_NAME, installPackage, packPackage } from './communityPackage';
import { freePort, groupAlive, portIsFree, releasePort, spawnGroup, unrefSleep } from './processes';
import { ARTIFACTS_DIR, N8N_2, PROJECT_ROOT, RUNTIMES, ensureRuntime, hasN8nModule, runtimeEnv, type Log, type N8nRuntime } from './runtime';
import { waitFor } from '../shared/wait';

/** Fixed so that a persistent user folder stays readable across starts. Test-only. */
export const DEFAULT_ENCRYPTION_KEY = 'timeline-navigation-local-test-key-not-a-secret';

/** n8n's process roles: `n8n start`, and in queue mode `n8n worker` and `n8n webhook`. */
export type N8nRole = 'main' | 'worker' | 'webhook';
/** How to start one n8n process (startN8n takes these, and the owner account to set up). */
export interface N8nProcessOptions {
	/** Which process (default main). */
	role?: N8nRole;
	/** Jobs a worker runs at the same time (`--concurrency`, default 10). */
	workerConcurrency?: number;
	/** Port of the editor, REST and webhooks; a worker's health-check port (default: one freePort() claims). */
	port?: number;
	/** Persistent user folder (n8n writes `<userFolder>/.n8n`); default: a fresh temp folder. */
	userFolder?: string;
	/** Remove a temp user folder on stop (default true; never removes a given folder). */
	cleanup?: boolean;
	encryptionKey?: string;
	/** Server log file (default .artifacts/n8n/n8n-<port>-<time>.log). */
	logFile?: string;
	/** Also echo the server output to this process's stderr. */
	echo?: boolean;
	/** Skip packing; install this tarball (already packed) instead. */
	packageTarball?: string;
	/** Install nothing into the user folder (n8n without this package). */
	withoutPackage?: boolean;
	/** Other packages (tarballs) installed next to this one, such as the bench's ceiling fixture. */
	extraPackages?: Array<{ name: string; tarball: string }>;
	/** Extra environment variables for the server and the CLI commands. */
	env?: Record<string, string | undefined>;
	log?: Log;
	/** Readiness timeout in ms (default 180 s). */
	readyTimeoutMs?: number;
	/** Which n8n (default 2.41.1 on Node 24; see runtime.ts). */
	runtime?: N8nRuntime;
	/** Aborting it while the process starts stops the process (Ctrl-C during a start). */
	signal?: AbortSignal;
}

/** One running n8n process of any role. */
export interface N8nProcess {
	role: N8nRole;
	/** http://127.0.0.1:<port>: the process's own HTTP server (a worker's is its health check). */
	url: string;
	port: number;
	pid: number;
	userFolder: string;
	logFile: string;
	env: NodeJS.ProcessEnv;
	/** Milliseconds from spawn to ready. */
	readyMs: number;
	/** Its log so far. */
	logs(): string;
	/** SIGTERM, wait, then clear its process group (task runner); removes a temp user folder. */
	stop(): Promise<void>;
}

const PID_FILE = 'n8n-server.pid';

/**
 * A persistent user folder remembers the pid of the n8n started in it. If that n8n is still
 * running (its starter was killed with SIGKILL), stop it and its task runner: it holds the
 * port and the database.
 */
function killLeftover(userFolder: string, log: Log): boolean {
	const file = path.join(userFolder, PID_FILE);
	if (!fs.existsSync(file)) return false;
	const pid = Number(fs.readFileSync(file, 'utf8').trim());
	fs.rmSync(file, { force: true });
	if (!pid) return false;
	let cmdline = '';
	try {
		cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
	} catch {
		return false; // gone
	}
	if (!RUNTIMES.some((r) => cmdline.includes(r.n8nBin))) return false; // the pid was reused by something else
	log(`[n8n] stopping a leftover n8n (pid ${pid}) from an earlier run in ${userFolder}`);
	try {
		process.kill(-pid, 'SIGTERM');
	} catch {
		// gone
	}
	const deadline = Date.now() + 15000;
	while (groupAlive(pid) && Date.now() < deadline) spawnSync('sleep', ['0.2']);
	if (groupAlive(pid)) {
		try {
			process.kill(-pid, 'SIGKILL');
		} catch {
			// gone
		}
	}
	log(`[n8n] leftover n8n stopped after ${Date.now() - deadline + 15000} ms`);
	return true;
}
// ---------------------------------------------------------------------------------------------

/** Health-check URL per role: main and webhook processes serve it on their port, workers on their health port. */
function readinessUrl(port: number): string {
	return `http://127.0.0.1:${port}/healthz/readiness`;
}

const COMMANDS: Record<N8nRole, (o: N8nProcessOptions) => string[]> = {
	main: () => ['start'],
	worker: (o) => ['worker', `--concurrency=${o.workerConcurrency ?? 10}`],
	webhook: () => ['webhook'],
};

/**
 * Starts one n8n process of any role with the package installed in its user folder, and waits
 * until it is ready. The main process's owner and API key are set up by startN8n.
 */
export async function startN8nProcess(opts: N8nProcessOptions = {}): Promise<N8nProcess> {
	const log = opts.log ?? ((line: string) => console.log(line));
	const runtime = opts.runtime ?? N8N_2;
	await ensureRuntime({ log, runtime });

	const role = opts.role ?? 'main';
	const port = opts.port ?? (await freePort());
	const killed = opts.userFolder ? killLeftover(opts.userFolder, log) : false;
	for (let i = 0; killed && i < 40 && !(await portIsFree(port)); i++) await sleep(250);
	if (!(await portIsFree(port))) {
		throw new Error(`port ${port} on 127.0.0.1 is busy (another n8n or npm start running?)`);
	}
	// Pack first: if that fails (no dist), nothing has been created yet.
	const tarball = opts.withoutPackage
		? undefined
		: (opts.packageTarball ?? packPackage(path.join(ARTIFACTS_DIR, 'pack')));
	const tempFolder = !opts.userFolder;
	const userFolder = opts.userFolder ?? fs.mkdtempSync(path.join(os.tmpdir(), `n8n-e2e-${role}-`));
	fs.mkdirSync(userFolder, { recursive: true });
	const encryptionKey = opts.encryptionKey ?? DEFAULT_ENCRYPTION_KEY;
	const url = `http://127.0.0.1:${port}`;

	if (tarball) {
		try {
			for (const extra of [{ name: PACKAGE_NAME, tarball }, ...(opts.extraPackages ?? [])]) {
				const dir = installPackage(extra.tarball, userFolder, extra.name);
				log(`[n8n] installed ${path.basename(extra.tarball)} as a community package at ${dir}`);
			}
		} catch (err) {
			if (tempFolder) fs.rmSync(userFolder, { recursive: true, force: true });
			throw err;
		}
	}

	const brokerPort = await freePort();
	const env = n8nEnv({
		port,
		userFolder,
		encryptionKey,
		brokerPort,
		extra: {
			...(role === 'worker'
				? { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(port), N8N_WORKER_SERVER_ADDRESS: '127.0.0.1' }
				: {}),
			...opts.env,
		},
		runtime,
	});

	const logFile =
		opts.logFile ??
		path.join(ARTIFACTS_DIR, 'n8n', `n8n-${role}-${port}-${new Date().toISOString().replace(/[:.]/g, '-')}.log`);
	fs.mkdirSync(path.dirname(logFile), { recursive: true });
	// n8n writes straight into the file: it keeps logging (and shuts down normally) even if
	// this process dies and nobody reads a pipe any more.
	const logFd = fs.openSync(logFile, 'a');
	const logStart = fs.fstatSync(logFd).size;

	const started = Date.now();
	const label = role === 'main' ? 'n8n' : `n8n ${role}`;
	log(`[n8n] starting ${label} ${runtime.n8nVersion} on ${url} (user folder ${userFolder}, log ${path.relative(PROJECT_ROOT, logFile)})`);
	// Its own process group: stop() reaches the task runner child too.
	const child: ChildProcess = spawnGroup(runtime.nodeBin, [runtime.n8nBin, ...COMMANDS[role](opts)], {
		cwd: userFolder,
		env,
		stdio: ['ignore', logFd, logFd],
	});
	fs.closeSync(logFd);
	const pid = child.pid!;
	const pidFile = path.join(userFolder, PID_FILE);
	fs.writeFileSync(pidFile, String(pid));
	let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
	const exitPromise = new Promise<void>((resolve) => {
		child.on('exit', (code, signal) => {
			exited = { code, signal };
			resolve();
		});
	});
	let echoTimer: NodeJS.Timeout | undefined;
	if (opts.echo) {
		let offset = logStart;
		echoTimer = setInterval(() => {
			const size = fs.statSync(logFile).size;
			if (size <= offset) return;
			const fd = fs.openSync(logFile, 'r');
			const buf = Buffer.alloc(size - offset);
			fs.readSync(fd, buf, 0, buf.length, offset);
			fs.closeSync(fd);
			offset = size;
			process.stderr.write(buf);
		}, 250);
		echoTimer.unref();
	}

	let stopped = false;
	const stop = async (): Promise<void> => {
		if (stopped) return;
		stopped = true;
		if (!exited) {
			try {
				process.kill(pid, 'SIGTERM');
			} catch {
				// already gone
			}
			await Promise.race([exitPromise, unrefSleep(40000)]);
		}
		// Whatever is left in its process group (the task runner): TERM, then KILL.
		if (groupAlive(pid)) {
			try {
				process.kill(-pid, 'SIGTERM');
			} catch {
				// gone
			}
			for (let i = 0; i < 50 && groupAlive(pid); i++) await sleep(100);
			if (groupAlive(pid)) {
				try {
					process.kill(-pid, 'SIGKILL');
				} catch {
					// gone
				}
			}
		}
		if (!exited) await Promise.race([exitPromise, unrefSleep(2000)]);
		releasePort(brokerPort);
		fs.rmSync(pidFile, { force: true });
		if (echoTimer) clearInterval(echoTimer);
		if (tempFolder && opts.cleanup !== false) {
			fs.rmSync(userFolder, { recursive: true, force: true });
		}
	};
	const readTail = (n = 40) => {
		try {
			return fs.readFileSync(logFile, 'utf8').split('\n').slice(-n).join('\n');
		} catch {
			return '';
		}
	};

	try {
		// Ready: migrations done, server (or a worker's health server) listening.
		await waitFor(
			() => `${label} to start; log tail:\n${readTail()}`,
			async () => {
				if (exited) {
					throw new Error(`${label} exited during start (${JSON.stringify(exited)}); log tail:\n${readTail()}`);
				}
				try {
					const res = await fetch(readinessUrl(port), { signal: AbortSignal.timeout(2000) });
					// n8n 1.x reports ready before its REST API is mounted
					return res.ok && (role !== 'main' || (await restApiServed(url)));
				} catch {
					return false; // not listening yet
				}
			},
			{ timeoutMs: opts.readyTimeoutMs ?? 180000, intervalMs: 250, signal: opts.signal },
		);
		const readyMs = Date.now() - started;
		log(`[n8n] ${label} ready in ${(readyMs / 1000).toFixed(1)} s (pid ${pid})`);
		return {
			role,
			url,
			port,
			pid,
			userFolder,
			logFile,
			env,
			readyMs,
			logs: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : ''),
			stop,
		};
	} catch (err) {
		await stop();
		throw err;
	}
}

/**
 * Whether the REST API answers. n8n 1.x reports ready once migrations are done, a moment before
 * its REST controllers are registered (2.x waits for them); until then `/rest/*` is a 404 page.
 */
async function restApiServed(url: string): Promise<boolean> {
	const res = await fetch(`${url}/rest/settings`, { signal: AbortSignal.timeout(2000) });
	return res.ok && (res.headers.get('content-type') ?? '').includes('json');
}

/** The environment of a quiet, loopback-only n8n (see docs/development.md, "What the tools rely on in n8n"). */
export function n8nEnv(o: {
	port: number;
	userFolder: string;
	encryptionKey: string;
	brokerPort: number;
	extra?: Record<string, string | undefined>;
	runtime?: N8nRuntime;
}): NodeJS.ProcessEnv {
	const url = `http://127.0.0.1:${o.port}`;
	const runtime = o.runtime ?? N8N_2;
	return runtimeEnv({
		N8N_USER_FOLDER: o.userFolder,
		N8N_ENCRYPTION_KEY: o.encryptionKey,
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PORT: String(o.port),
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `${url}/`,
		N8N_WEBHOOK_URL: `${url}/`,
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		N8N_RUNNERS_MODE: 'internal',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_RUNNERS_BROKER_PORT: String(o.brokerPort),
		// it would reach a remote host; n8n before 2.30 has no such module and refuses to start when told to disable it
		N8N_DISABLED_MODULES: hasN8nModule(runtime, 'mcp-registry') ? 'mcp-registry' : undefined,
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_LOG_OUTPUT: 'console',
		N8N_LOG_LEVEL: 'info',
		...(o.extra ?? {}),
	}, runtime);
}
