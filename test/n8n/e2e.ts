/**
 * The e2e environment: one sandbox and one real n8n (own temp user folder, own free ports, so it
 * runs next to `npm start`), started by jest's globalSetup and described in a JSON file that
 * every test file reads back with `loadE2eEnv()`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import {
	connectN8n,
	freePort,
	startN8n,
	type N8nClient,
	type N8nConnectionInfo,
	type N8nInstance,
	type StoredCredential,
} from './instance';
import { ARTIFACTS_DIR, ensureRuntime } from './runtime';
import { SANDBOX_WEBHOOK_AUTH, byRole, sandboxCredentials } from './sandboxCredentials';

export const E2E_ENV_FILE = path.join(ARTIFACTS_DIR, 'e2e', 'env.json');

export interface E2eEnv {
	n8n: N8nConnectionInfo;
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

function running(): Running {
	const g = globalThis as any;
	g[KEY] ??= {};
	return g[KEY];
}

const log = (line: string) => process.stderr.write(line + '\n');

/** For jest's globalSetup. */
export async function setupE2e(): Promise<E2eEnv> {
	const state = running();
	try {
		const t0 = Date.now();
		await ensureRuntime({ log });
		const runtimeMs = Date.now() - t0;

		const { startSandbox } = await import('../sandbox/server');
		const sandbox = await startSandbox({ port: 0 });
		state.sandbox = sandbox;

		const t1 = Date.now();
		const n8n = await startN8n({
			port: Number(process.env.E2E_N8N_PORT ?? (await freePort())),
			logFile: path.join(ARTIFACTS_DIR, 'e2e', 'n8n.log'),
			log,
		});
		state.n8n = n8n;
		const n8nStartMs = Date.now() - t1;

		const credentials = byRole(await n8n.importCredentials(sandboxCredentials(sandbox)));

		const env: E2eEnv = {
			n8n: n8n.info(),
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
		fs.mkdirSync(path.dirname(E2E_ENV_FILE), { recursive: true });
		fs.writeFileSync(E2E_ENV_FILE, JSON.stringify(env, null, 2) + '\n');
		log(`[e2e] n8n ${n8n.url} (ready after ${n8nStartMs} ms), sandbox ${sandbox.url}; env in ${E2E_ENV_FILE}`);
		return env;
	} catch (err) {
		await teardownE2e();
		throw err;
	}
}

/** For jest's globalTeardown. */
export async function teardownE2e(): Promise<void> {
	const state = running();
	const n8n = state.n8n;
	const sandbox = state.sandbox;
	state.n8n = undefined;
	state.sandbox = undefined;
	try {
		await n8n?.stop();
	} finally {
		await sandbox?.close();
	}
}

/** In a test file: the environment globalSetup started, with a client for n8n. */
export function loadE2eEnv(): E2eEnv & { client: N8nClient } {
	if (!fs.existsSync(E2E_ENV_FILE)) {
		throw new Error(`${E2E_ENV_FILE} is missing: run the e2e tests with jest -c jest.e2e.config.js`);
	}
	const env: E2eEnv = JSON.parse(fs.readFileSync(E2E_ENV_FILE, 'utf8'));
	return { ...env, client: connectN8n(env.n8n) };
}
