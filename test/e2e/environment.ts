/**
 * The e2e environment: one sandbox and one real n8n (own temp user folder, own free ports, so it
 * runs next to `npm start`), started by jest's globalSetup and described in a JSON file that
 * every test file reads back with `loadE2eEnv()`.
 *
 * One such environment per n8n runtime: jest.e2e.config.js has a project per n8n version, and
 * each project's `globals.E2E_N8N` (a runtime id from runtime.ts) says which n8n it runs on.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { connectN8n, type N8nClient, type N8nConnectionInfo, type StoredCredential } from '../../tools/n8n/client';
import { startN8n, type N8nInstance } from '../../tools/n8n/instance';
import { freePort } from '../../tools/n8n/processes';
import { ARTIFACTS_DIR, N8N_2, ensureRuntime, runtimeById, type N8nRuntime } from '../../tools/n8n/runtime';
import { SANDBOX_WEBHOOK_AUTH, byRole, sandboxCredentials } from '../../tools/n8n/sandboxCredentials';

/**
 * The env file (and n8n log) of one runtime, in the folder of its run: `$E2E_SUITE`, else the jest
 * config's `globals.E2E_SUITE`, else `e2e` (the compatibility smoke keeps its own, and `.ci/run`
 * names one per jest process, so they run side by side); the default runtime keeps the plain names.
 */
function e2eFile(runtime: N8nRuntime, base: string, ext: string, suite: unknown = (globalThis as any).E2E_SUITE): string {
	const suffix = runtime === N8N_2 ? '' : `-${runtime.id}`;
	const folder = process.env.E2E_SUITE ?? (typeof suite === 'string' ? suite : 'e2e');
	return path.join(ARTIFACTS_DIR, folder, `${base}${suffix}.${ext}`);
}

/** n8n 2.41's durable scheduler with durable poll cursors: all four settings, as n8n 2.45 will default them. */
export const DURABLE_SCHEDULER: Record<string, string> = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
};

/** The runtime of the running jest project (its `globals.E2E_N8N`), or the default. */
export function e2eRuntime(id: unknown = (globalThis as any).E2E_N8N): N8nRuntime {
	return typeof id === 'string' ? runtimeById(id) : N8N_2;
}

export interface E2eEnv {
	n8n: N8nConnectionInfo;
	/** The n8n and Node versions it runs on. */
	versions: { n8n: string; node: string };
	/** Imported credentials pointing at the sandbox (see sandboxCredentials.ts). */
	credentials: {
		timeline: StoredCredential;
		messaging: StoredCredential;
		webhookHeader: StoredCredential;
		webhookBasic: StoredCredential;
	};
	/** What the webhook credentials hold (the sandbox must send it). */
	webhookAuth: typeof SANDBOX_WEBHOOK_AUTH;
	sandbox: { url: string; port: number; timelineKey: string; messagingKey: string };
	startedAt: string;
	timings: { runtimeMs: number; n8nStartMs: number };
}

interface Running {
	n8n?: N8nInstance;
	sandbox?: { close(): Promise<void> | void };
}

const KEY = Symbol.for('n8n-nodes-timeline-navigation.e2e');

/** What globalSetup started for one runtime (jest calls setup and teardown once per project). */
function running(runtime: N8nRuntime): Running {
	const g = globalThis as any;
	g[KEY] ??= {};
	g[KEY][runtime.id] ??= {};
	return g[KEY][runtime.id];
}

/** A progress line of an end-to-end suite, on stderr, where jest shows it as it happens. */
export const log = (line: string) => process.stderr.write(line + '\n');

/** For jest's globalSetup (`suite`: the project's `globals.E2E_SUITE`). */
export async function setupE2e(runtime: N8nRuntime = N8N_2, suite?: unknown): Promise<E2eEnv> {
	const state = running(runtime);
	try {
		const t0 = Date.now();
		await ensureRuntime({ log, runtime });
		const runtimeMs = Date.now() - t0;

		const { startSandbox } = await import('../../tools/sandbox/server');
		const sandbox = await startSandbox({ port: 0 });
		state.sandbox = sandbox;

		const t1 = Date.now();
		const n8n = await startN8n({
			port: Number(process.env.E2E_N8N_PORT ?? (await freePort())),
			logFile: e2eFile(runtime, 'n8n', 'log', suite),
			log,
			runtime,
		});
		state.n8n = n8n;
		const n8nStartMs = Date.now() - t1;

		const credentials = byRole(await n8n.importCredentials(sandboxCredentials(sandbox)));

		const env: E2eEnv = {
			n8n: n8n.info(),
			versions: { n8n: runtime.n8nVersion, node: runtime.nodeVersion },
			credentials,
			webhookAuth: SANDBOX_WEBHOOK_AUTH,
			sandbox: {
				url: sandbox.url,
				port: sandbox.port,
				timelineKey: sandbox.timelineKey,
				messagingKey: sandbox.messagingKey,
			},
			startedAt: new Date().toISOString(),
			timings: { runtimeMs, n8nStartMs },
		};
		const envFile = e2eFile(runtime, 'env', 'json', suite);
		fs.mkdirSync(path.dirname(envFile), { recursive: true });
		fs.writeFileSync(envFile, JSON.stringify(env, null, 2) + '\n');
		log(
			`[e2e] n8n ${runtime.n8nVersion} ${n8n.url} (ready after ${n8nStartMs} ms), sandbox ${sandbox.url}; env in ${envFile}`,
		);
		return env;
	} catch (err) {
		await teardownE2e(runtime, suite);
		throw err;
	}
}

/** For jest's globalTeardown. */
export async function teardownE2e(runtime: N8nRuntime = N8N_2, suite?: unknown): Promise<void> {
	const state = running(runtime);
	const n8n = state.n8n;
	const sandbox = state.sandbox;
	state.n8n = undefined;
	state.sandbox = undefined;
	// a later run that skipped its setup must not find this run's (stopped) instance
	fs.rmSync(e2eFile(runtime, 'env', 'json', suite), { force: true });
	try {
		await n8n?.stop();
	} finally {
		await sandbox?.close();
	}
}

/** In a test file: the environment globalSetup started (for this jest project's n8n), with a client. */
export function loadE2eEnv(runtime: N8nRuntime = e2eRuntime()): E2eEnv & { client: N8nClient } {
	const envFile = e2eFile(runtime, 'env', 'json');
	if (!fs.existsSync(envFile)) {
		throw new Error(`${envFile} is missing: run the e2e tests with jest -c jest.e2e.config.js`);
	}
	const env: E2eEnv = JSON.parse(fs.readFileSync(envFile, 'utf8'));
	return { ...env, client: connectN8n(env.n8n) };
}
