/**
 * A real n8n server (from tools/n8n/runtime.ts) with this package installed the way a user's
 * n8n has it: as a community package under `$N8N_USER_FOLDER/.n8n/nodes/node_modules/`.
 *
 *   const n8n = await startN8n({ port: 5679 });
 *   const [cred] = await n8n.importCredentials([{ name, type, data }]);
 *   const id = await n8n.importWorkflow(json);
 *   await n8n.activate(id);
 *   await n8n.stop();
 *
 * Everything runs on 127.0.0.1 with n8n's outbound features switched off
 * (see docs/development.md, "What the tools rely on in n8n").
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import {
	ARTIFACTS_DIR,
	N8N_2,
	PROJECT_ROOT,
	RUNTIMES,
	ensureRuntime,
	runtimeById,
	runtimeEnv,
	type Log,
	type N8nRuntime,
} from './runtime';
import { waitFor } from '../shared/wait';

export const PACKAGE_NAME: string = JSON.parse(
	fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8'),
).name;
export const NODE_TYPES = {
	action: `${PACKAGE_NAME}.timelineNavigation`,
	trigger: `${PACKAGE_NAME}.chatAppMessagingTrigger`,
	pollingTrigger: `${PACKAGE_NAME}.timelineNavigationEventsTrigger`,
} as const;
export const CREDENTIAL_TYPES = {
	timeline: 'timelineNavigationApi',
	messaging: 'chatAppMessagingApi',
	webhookHeader: 'chatAppWebhookHeaderAuthApi',
	webhookBasic: 'chatAppWebhookBasicAuthApi',
} as const;

/** Fixed so that a persistent user folder stays readable across starts. Test-only. */
export const DEFAULT_ENCRYPTION_KEY = 'timeline-navigation-local-test-key-not-a-secret';
export const DEFAULT_OWNER = {
	email: 'owner@example.com',
	firstName: 'Sandbox',
	lastName: 'Owner',
	password: 'Sandbox-Owner-1',
} as const;
const API_KEY_LABEL = 'timeline-navigation-tests';
/** n8n binds the session cookie to this header's value. */
const BROWSER_ID = 'timeline-navigation-tests-browser';

/** n8n's process roles: `n8n start`, and in queue mode `n8n worker` and `n8n webhook`. */
export type N8nRole = 'main' | 'worker' | 'webhook';

export interface StartN8nOptions {
	/** Which process (default main). */
	role?: N8nRole;
	/** Jobs a worker runs at the same time (`--concurrency`, default 10). */
	workerConcurrency?: number;
	/** Port of the editor, REST and webhooks; a worker's health-check port (default 5678). */
	port?: number;
	/** Persistent user folder (n8n writes `<userFolder>/.n8n`); default: a fresh temp folder. */
	userFolder?: string;
	/** Remove a temp user folder on stop (default true; never removes a given folder). */
	cleanup?: boolean;
	encryptionKey?: string;
	owner?: { email: string; firstName: string; lastName: string; password: string };
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
	/** Create a public API key (default true; n8n 1.x in its test mode has no public API). */
	publicApiKey?: boolean;
	/** Aborting it while the process starts stops the process (Ctrl-C during a start). */
	signal?: AbortSignal;
}

export interface CredentialInput {
	name: string;
	type: string;
	data: Record<string, unknown>;
}
export interface StoredCredential {
	id: string;
	name: string;
	type: string;
}

export interface WorkflowJson {
	id?: string;
	name: string;
	nodes: Array<Record<string, any>>;
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	staticData?: unknown;
	pinData?: unknown;
	[key: string]: unknown;
}

export interface HttpResult<T = any> {
	status: number;
	body: T;
	headers: Headers;
}

/** What a test needs to reach a running instance; JSON-serialisable (see connectN8n). */
export interface N8nConnectionInfo {
	/** http://127.0.0.1:<port> */
	url: string;
	port: number;
	userFolder: string;
	owner: { email: string; firstName: string; lastName: string; password: string };
	apiKey: string;
	/** The session cookie header value (`n8n-auth=...`); n8n binds it to the `browser-id` header. */
	cookie: string;
	browserId: string;
	encryptionKey: string;
	logFile: string;
	pid: number;
	/** Extra environment the server was started with (passed on to CLI commands). */
	extraEnv?: Record<string, string | undefined>;
	/** Id of the runtime it runs on (runtime.ts; default `2.41`). */
	runtime?: string;
}

/** A client for a running instance: from startN8n, or rebuilt from its info by connectN8n. */
export interface N8nClient extends N8nConnectionInfo {
	/** Production webhook base: `${N8N_WEBHOOK_URL or url}/webhook` */
	webhookBaseUrl: string;
	/** Environment the server runs with (also used for CLI commands). */
	env: NodeJS.ProcessEnv;
	/** Public API (`/api/v1`), with X-N8N-API-KEY. Throws on status >= 400 unless `allowError`. */
	api<T = any>(method: string, apiPath: string, body?: unknown, opts?: { allowError?: boolean }): Promise<HttpResult<T>>;
	/** Internal REST API (`/rest`), with the owner's session cookie. Unwraps n8n's `{ data }` envelope. */
	rest<T = any>(method: string, restPath: string, body?: unknown, opts?: { allowError?: boolean }): Promise<HttpResult<T>>;
	/** Creates or updates (matched by name and type) credentials; returns them in order. */
	importCredentials(list: CredentialInput[]): Promise<StoredCredential[]>;
	/** Creates or updates (matched by id, else by name) a workflow; returns its id. */
	importWorkflow(json: WorkflowJson): Promise<string>;
	activate(id: string): Promise<void>;
	deactivate(id: string): Promise<void>;
	/** `n8n execute --id --rawOutput` in a separate process; returns the parsed run data. */
	executeWorkflow(id: string): Promise<ExecuteResult>;
	/** Executions of a workflow (newest first) with their data, through the public API. */
	executions(workflowId: string): Promise<any[]>;
	/** Runs an n8n CLI command against this instance's database (another broker port). */
	cli(args: string[], opts?: { timeoutMs?: number }): Promise<CliResult>;
	/** The node types n8n loads (`n8n export:nodes`). */
	exportNodes(): Promise<Array<{ name: string; displayName: string; [k: string]: unknown }>>;
	/** The server's captured stdout and stderr so far. */
	logs(): string;
	/** The JSON-serialisable part, for connectN8n in another process. */
	info(): N8nConnectionInfo;
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

export interface N8nInstance extends N8nClient {
	/** SIGTERM, wait, then clear its process group (task runner); removes a temp user folder. */
	stop(): Promise<void>;
}

export interface CliResult {
	code: number | null;
	/** The signal that ended it, if one did. */
	signal?: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

export interface ExecuteResult extends CliResult {
	/** The parsed JSON n8n printed (the run data), or undefined if none could be parsed. */
	data: any;
}

// ---------------------------------------------------------------------------------------------
// Small helpers

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
const unrefSleep = (ms: number) => sleep(ms, undefined, { ref: false });

/** Whether any live (non-zombie) process is in the process group (Linux /proc). */
function groupAlive(pgid: number): boolean {
	let entries: string[];
	try {
		entries = fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e));
	} catch {
		try {
			process.kill(-pgid, 0);
			return true;
		} catch {
			return false;
		}
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
		if (Number(rest[2]) === pgid && rest[0] !== 'Z') return true;
	}
	return false;
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

/**
 * Packs one of the packages the build assembled (the combined one by default) of this project, or
 * of another checkout of it (`root`), into `destDir`; returns the tarball path.
 */
export function packPackage(destDir: string, root = PROJECT_ROOT, name = PACKAGE_NAME): string {
	const folder = path.join(root, 'dist-packages', name);
	if (!fs.existsSync(path.join(folder, 'package.json'))) {
		throw new Error(`${path.relative(root, folder)} is missing: run \`npm run build\` first`);
	}
	fs.mkdirSync(destDir, { recursive: true });
	const res = spawnSync('npm', ['pack', '--json', '--pack-destination', destDir, '--loglevel=error'], {
		cwd: folder,
		encoding: 'utf8',
		env: runtimeEnvForProjectNpm(),
	});
	if (res.status !== 0) throw new Error(`npm pack failed: ${res.stderr || res.stdout}`);
	const json = JSON.parse(res.stdout.slice(res.stdout.indexOf('[')));
	return path.join(destDir, json[0].filename);
}

/** The project's own npm (Node 20 is fine for packing), without an outer npm run's variables. */
function runtimeEnvForProjectNpm(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
	return env;
}

/**
 * Installs the packed package into `<userFolder>/.n8n/nodes/node_modules/<name>` as n8n's
 * community-package installer leaves it (replacing any previous copy).
 */
export function installPackage(tarball: string, userFolder: string, name = PACKAGE_NAME): string {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const target = path.join(nodesDir, 'node_modules', name);
	fs.rmSync(target, { recursive: true, force: true });
	fs.mkdirSync(target, { recursive: true });
	const res = spawnSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1'], {
		encoding: 'utf8',
	});
	if (res.status !== 0) throw new Error(`extracting ${tarball} failed: ${res.stderr}`);
	const manifest = JSON.parse(fs.readFileSync(path.join(target, 'package.json'), 'utf8'));
	const version = manifest.version;
	const listed: string[] = [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])];
	const missing = listed.filter((f) => !fs.existsSync(path.join(target, f)));
	if (missing.length) {
		throw new Error(
			`the packed package lacks files its package.json lists (dist built incompletely, or a ` +
				`concurrent \`npm run build\` emptied it): ${missing.join(', ')}. Run \`npm run build\` and retry.`,
		);
	}
	const nodesPkg = path.join(nodesDir, 'package.json');
	const pkg = fs.existsSync(nodesPkg)
		? JSON.parse(fs.readFileSync(nodesPkg, 'utf8'))
		: { name: 'installed-nodes', private: true, dependencies: {} };
	pkg.dependencies = { ...(pkg.dependencies ?? {}), [name]: version };
	fs.writeFileSync(nodesPkg, JSON.stringify(pkg, null, 2) + '\n');
	return target;
}

/** Rewrites every node's credential references to the given credentials, matched by type. */
export function wireCredentials(workflow: WorkflowJson, creds: StoredCredential[]): WorkflowJson {
	const byType = new Map(creds.map((c) => [c.type, c]));
	const copy: WorkflowJson = JSON.parse(JSON.stringify(workflow));
	for (const node of copy.nodes) {
		if (!node.credentials) continue;
		for (const type of Object.keys(node.credentials)) {
			const c = byType.get(type);
			if (c) node.credentials[type] = { id: c.id, name: c.name };
		}
	}
	return copy;
}

/**
 * Finds the JSON document n8n printed among its log lines. Its task runner can log a line after
 * the document ("Registered runner ..."), so the document ends at a closing bracket line, not
 * necessarily at the end of the output.
 */
export function parseCliJson(stdout: string): any {
	const lines = stdout.split('\n');
	for (let i = 0; i < lines.length; i++) {
		const t = lines[i].trimStart();
		if (!(t.startsWith('{') || t.startsWith('['))) continue;
		for (let end = lines.length - 1; end >= i; end--) {
			if (end !== lines.length - 1 && !/^[}\]]\s*$/.test(lines[end])) continue;
			try {
				return JSON.parse(lines.slice(i, end + 1).join('\n').trim());
			} catch {
				// not the whole document; try a shorter one, then the next start
			}
		}
	}
	return undefined;
}

// ---------------------------------------------------------------------------------------------

/** Health-check URL per role: main and webhook processes serve it on their port, workers on their health port. */
function readinessUrl(port: number): string {
	return `http://127.0.0.1:${port}/healthz/readiness`;
}

const COMMANDS: Record<N8nRole, (o: StartN8nOptions) => string[]> = {
	main: () => ['start'],
	worker: (o) => ['worker', `--concurrency=${o.workerConcurrency ?? 10}`],
	webhook: () => ['webhook'],
};

/**
 * Starts one n8n process of any role with the package installed in its user folder, and waits
 * until it is ready. The main process's owner and API key are set up by startN8n.
 */
export async function startN8nProcess(opts: StartN8nOptions = {}): Promise<N8nProcess> {
	const log = opts.log ?? ((line: string) => console.log(line));
	const runtime = opts.runtime ?? N8N_2;
	await ensureRuntime({ log, runtime });

	const role = opts.role ?? 'main';
	const port = opts.port ?? 5678;
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

	const env = n8nEnv({
		port,
		userFolder,
		encryptionKey,
		brokerPort: await freePort(),
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
	const child: ChildProcess = spawn(runtime.nodeBin, [runtime.n8nBin, ...COMMANDS[role](opts)], {
		cwd: userFolder,
		env,
		detached: true, // own process group: stop() can reach the task runner child too
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

export async function startN8n(opts: StartN8nOptions = {}): Promise<N8nInstance> {
	const server = await startN8nProcess({ ...opts, role: 'main' });
	try {
		const owner = { ...(opts.owner ?? DEFAULT_OWNER) };
		// Owner account and session, then a public API key (one per label: earlier ones from a
		// persistent folder are replaced).
		const session = await ownerSession(server.url, owner);
		const apiKey = opts.publicApiKey === false ? '' : await createApiKey(server.url, session);
		const info: N8nConnectionInfo = {
			url: server.url,
			port: server.port,
			userFolder: server.userFolder,
			owner,
			apiKey,
			cookie: session,
			browserId: BROWSER_ID,
			encryptionKey: opts.encryptionKey ?? DEFAULT_ENCRYPTION_KEY,
			logFile: server.logFile,
			pid: server.pid,
			extraEnv: opts.env,
			runtime: (opts.runtime ?? N8N_2).id,
		};
		return { ...connectN8n(info), stop: server.stop };
	} catch (err) {
		await server.stop();
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
		N8N_DISABLED_MODULES: 'mcp-registry',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_LOG_OUTPUT: 'console',
		N8N_LOG_LEVEL: 'info',
		...(o.runtime ?? N8N_2).serverEnv,
		...(o.extra ?? {}),
	}, o.runtime);
}

/** A client for an instance started elsewhere (for example by the e2e globalSetup). */
export function connectN8n(info: N8nConnectionInfo): N8nClient {
	const { url, apiKey, cookie } = info;
	const runtime = runtimeById(info.runtime ?? N8N_2.id);
	// CLI commands get their own broker port (runCli), so this one is never listened on twice.
	const env = n8nEnv({
		port: info.port,
		userFolder: info.userFolder,
		encryptionKey: info.encryptionKey,
		brokerPort: 0,
		extra: info.extraEnv,
		runtime,
	});
	const client: N8nClient = {
		...info,
		// Where callers send production webhooks: N8N_WEBHOOK_URL (a load balancer in queue mode).
		webhookBaseUrl: `${(info.extraEnv?.N8N_WEBHOOK_URL ?? `${url}/`).replace(/\/$/, '')}/webhook`,
		env,
		api: (method, apiPath, body, o) =>
			request(`${url}/api/v1${apiPath}`, method, body, { 'X-N8N-API-KEY': apiKey }, o?.allowError),
		rest: async (method, restPath, body, o) => {
			const res = await request(`${url}/rest${restPath}`, method, body, restHeaders(cookie), o?.allowError);
			if (res.body && typeof res.body === 'object' && 'data' in res.body) res.body = res.body.data;
			return res;
		},
		importCredentials: (list) => importCredentials(client, list),
		importWorkflow: (json) => importWorkflow(client, json),
		activate: async (id) => {
			await activateWithRetry(client, id);
		},
		deactivate: async (id) => {
			await client.api('POST', `/workflows/${id}/deactivate`);
		},
		cli: (args, o) => runCli(runtime, env, args, o?.timeoutMs),
		executeWorkflow: async (id) => {
			const res = await runCli(runtime, env, ['execute', `--id=${id}`, '--rawOutput']);
			return { ...res, data: parseCliJson(res.stdout) };
		},
		executions: async (workflowId) => {
			const all: any[] = [];
			let cursor: string | undefined;
			do {
				const q = new URLSearchParams({ workflowId, includeData: 'true', limit: '100' });
				if (cursor) q.set('cursor', cursor);
				const res = await client.api('GET', `/executions?${q}`);
				all.push(...(res.body.data ?? []));
				cursor = res.body.nextCursor ?? undefined;
			} while (cursor);
			return all;
		},
		exportNodes: async () => {
			const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-nodes-'));
			const out = path.join(dir, 'nodes.json');
			try {
				const res = await runCli(runtime, env, ['export:nodes', `--output=${out}`]);
				if (res.code !== 0) throw new Error(`n8n export:nodes failed:\n${res.stdout}\n${res.stderr}`);
				return JSON.parse(fs.readFileSync(out, 'utf8'));
			} finally {
				fs.rmSync(dir, { recursive: true, force: true });
			}
		},
		logs: () => (fs.existsSync(info.logFile) ? fs.readFileSync(info.logFile, 'utf8') : ''),
		info: () => ({ ...info }),
	};
	return client;
}

async function activateWithRetry(client: N8nClient, id: string): Promise<void> {
	const res = await client.api('POST', `/workflows/${id}/activate`);
	if (!res.body?.active) throw new Error(`workflow ${id} did not become active: ${JSON.stringify(res.body).slice(0, 300)}`);
}

// ---------------------------------------------------------------------------------------------

function restHeaders(cookie: string): Record<string, string> {
	return { cookie, 'browser-id': BROWSER_ID };
}

async function request(
	url: string,
	method: string,
	body: unknown,
	headers: Record<string, string>,
	allowError = false,
): Promise<HttpResult> {
	const send = () =>
		fetch(url, {
			method,
			headers: {
				accept: 'application/json',
				...(body !== undefined ? { 'content-type': 'application/json' } : {}),
				...headers,
			},
			body: body !== undefined ? JSON.stringify(body) : undefined,
		});
	let res = await send().catch(async (err) => {
		// n8n closes an idle kept-alive connection after 5 s; when this process was too busy to
		// notice in time (a loaded machine, a blocking child process), the request goes out on the
		// closed connection and never reaches n8n: it is safe to send again, once.
		if ((err as { cause?: { code?: string } })?.cause?.code !== 'UND_ERR_SOCKET') throw err;
		return send();
	});
	// On a saturated machine n8n's database ping can time out and n8n then answers 503
	// ("Database is not ready!") for a while: a read is safe to repeat.
	for (let attempt = 1; res.status === 503 && method === 'GET' && attempt <= 30; attempt++) {
		await res.text();
		await sleep(1000);
		res = await send();
	}
	const text = await res.text();
	let parsed: any = text;
	try {
		parsed = text ? JSON.parse(text) : undefined;
	} catch {
		// keep text
	}
	if (res.status >= 400 && !allowError) {
		throw new Error(`${method} ${url} -> ${res.status}: ${text.slice(0, 500)}`);
	}
	return { status: res.status, body: parsed, headers: res.headers };
}

async function login(url: string, email: string, password: string): Promise<string | undefined> {
	const res = await fetch(`${url}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'browser-id': BROWSER_ID },
		body: JSON.stringify({ emailOrLdapLoginId: email, password }),
	});
	if (!res.ok) return undefined;
	const cookie = res.headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.find((c) => c.startsWith('n8n-auth='));
	return cookie;
}

/** Sets the owner up on a fresh instance, or logs in on an existing one. Returns the cookie. */
async function ownerSession(
	url: string,
	owner: { email: string; firstName: string; lastName: string; password: string },
): Promise<string> {
	const existing = await login(url, owner.email, owner.password);
	if (existing) return existing;
	const res = await request(`${url}/rest/owner/setup`, 'POST', owner, { 'browser-id': BROWSER_ID }, true);
	if (res.status >= 400) {
		throw new Error(
			`owner setup failed (${res.status}: ${JSON.stringify(res.body)}); if this user folder has ` +
				`another owner, remove it or pass its owner`,
		);
	}
	const cookie = await login(url, owner.email, owner.password);
	if (!cookie) throw new Error('login after owner setup failed');
	return cookie;
}

async function createApiKey(url: string, cookie: string): Promise<string> {
	const headers = restHeaders(cookie);
	const list = await request(`${url}/rest/api-keys`, 'GET', undefined, headers);
	const data = list.body?.data;
	const keys: any[] = Array.isArray(data) ? data : (data?.items ?? []);
	for (const key of keys) {
		if (key.label === API_KEY_LABEL) {
			await request(`${url}/rest/api-keys/${key.id}`, 'DELETE', undefined, headers, true);
		}
	}
	const scopesRes = await request(`${url}/rest/api-keys/scopes`, 'GET', undefined, headers, true);
	const scopes: string[] = Array.isArray(scopesRes.body?.data) ? scopesRes.body.data : [];
	const res = await request(`${url}/rest/api-keys`, 'POST', { label: API_KEY_LABEL, scopes, expiresAt: null }, headers);
	const raw = res.body?.data?.rawApiKey ?? res.body?.data?.apiKey;
	if (!raw) throw new Error(`no rawApiKey in ${JSON.stringify(res.body).slice(0, 300)}`);
	return raw;
}

async function importCredentials(n8n: N8nClient, list: CredentialInput[]): Promise<StoredCredential[]> {
	const existing: any[] = (await n8n.rest('GET', '/credentials')).body ?? [];
	const out: StoredCredential[] = [];
	for (const cred of list) {
		const match = existing.find((c) => c.name === cred.name && c.type === cred.type);
		if (match) {
			await n8n.rest('PATCH', `/credentials/${match.id}`, { name: cred.name, type: cred.type, data: cred.data });
			out.push({ id: match.id, name: cred.name, type: cred.type });
		} else {
			const res = await n8n.rest('POST', '/credentials', { name: cred.name, type: cred.type, data: cred.data });
			out.push({ id: res.body.id, name: cred.name, type: cred.type });
		}
	}
	return out;
}

/** The settings keys n8n's public API accepts on a workflow. */
const PUBLIC_API_SETTINGS = [
	'saveExecutionProgress',
	'saveManualExecutions',
	'saveDataErrorExecution',
	'saveDataSuccessExecution',
	'executionTimeout',
	'errorWorkflow',
	'timezone',
	'executionOrder',
	'callerPolicy',
	'callerIds',
	'timeSavedMode',
	'timeSavedPerExecution',
	'redactionPolicy',
	'availableInMCP',
];

async function importWorkflow(n8n: N8nClient, json: WorkflowJson): Promise<string> {
	const settings: Record<string, unknown> = {};
	for (const [k, v] of Object.entries(json.settings ?? {})) {
		if (PUBLIC_API_SETTINGS.includes(k)) settings[k] = v;
	}
	const body: Record<string, unknown> = {
		name: json.name,
		nodes: json.nodes,
		connections: json.connections,
		settings,
	};
	if (json.staticData) body.staticData = json.staticData;

	let id: string | undefined;
	if (json.id) {
		const res = await n8n.api('GET', `/workflows/${json.id}`, undefined, { allowError: true });
		if (res.status === 200) id = json.id;
	}
	if (!id) {
		const q = new URLSearchParams({ name: json.name, limit: '250' });
		const res = await n8n.api('GET', `/workflows?${q}`);
		const match = (res.body.data ?? []).find((w: any) => w.name === json.name);
		if (match) id = match.id;
	}
	if (id) {
		await n8n.api('PUT', `/workflows/${id}`, body);
	} else {
		id = String((await n8n.api('POST', '/workflows', body)).body.id);
	}
	await pinDataOf(n8n, id, json.pinData);
	return id;
}

/**
 * A workflow's pinned data, which the public API does not take: set through the REST API the
 * editor uses (a trigger with pinned data runs with it when "Execute workflow" is clicked).
 */
async function pinDataOf(n8n: N8nClient, id: string, pinData: unknown): Promise<void> {
	const hasPins = (data: unknown) => Boolean(data) && typeof data === 'object' && Object.keys(data as object).length > 0;
	const pinned = hasPins(pinData) ? pinData : undefined;
	const current = (await n8n.rest('GET', `/workflows/${id}`)).body;
	if (!pinned && !hasPins(current.pinData)) return;
	await n8n.rest('PATCH', `/workflows/${id}`, { pinData: pinned ?? {}, versionId: current.versionId });
}

/** Runs `n8n <args>` against the same database, with its own task-runner broker port. */
async function runCli(
	runtime: N8nRuntime,
	baseEnv: NodeJS.ProcessEnv,
	args: string[],
	timeoutMs = 120000,
): Promise<CliResult> {
	const env = { ...baseEnv, ...runtime.cliEnv, N8N_RUNNERS_BROKER_PORT: String(await freePort()) };
	return new Promise((resolve, reject) => {
		const child = spawn(runtime.nodeBin, [runtime.n8nBin, ...args], {
			cwd: runtime.n8nDir,
			env,
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => (stdout += d));
		child.stderr.on('data', (d) => (stderr += d));
		const timer = setTimeout(() => {
			try {
				process.kill(-child.pid!, 'SIGKILL');
			} catch {
				// gone
			}
			reject(new Error(`n8n ${args.join(' ')} timed out after ${timeoutMs} ms\n${stdout}\n${stderr}`));
		}, timeoutMs);
		child.on('error', (err) => {
			clearTimeout(timer);
			reject(err);
		});
		child.on('exit', (code, signal) => {
			clearTimeout(timer);
			// the CLI's task runner, if it left one behind
			if (groupAlive(child.pid!)) {
				try {
					process.kill(-child.pid!, 'SIGKILL');
				} catch {
					// gone
				}
			}
			resolve({ code, signal, stdout, stderr });
		});
	});
}
