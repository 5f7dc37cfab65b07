/**
 * A client for a running n8n (started by startN8n, or elsewhere and rebuilt from its connection
 * info): the public API with the API key, the editor's REST API with the owner's session,
 * credentials and workflows imported by name, the CLI against its database.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { parseCliJson, runCli, type CliResult, type ExecuteResult } from './cli';
import { N8N_2, runtimeById } from './runtime';
import { n8nEnv } from './server';

/** n8n binds the session cookie to this header's value. */
export const BROWSER_ID = 'timeline-navigation-tests-browser';

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
	/** Extra environment the server was started with (passed on to CLI commands), but for startN8n's `serverEnv`. */
	extraEnv?: Record<string, string | undefined>;
	/** Id of the runtime it runs on (runtime.ts; default `2.41`). */
	runtime?: string;
}

/** A client for a running instance: from startN8n, or rebuilt from its info by connectN8n. */
export interface N8nClient extends N8nConnectionInfo {
	/** Production webhook base: `${N8N_WEBHOOK_URL or url}/webhook` */
	webhookBaseUrl: string;
	/**
	 * Environment the server runs with, but for startN8n's `serverEnv` (the server's alone); CLI
	 * commands and helper processes on n8n's Node (queryN8nDatabase) run with it.
	 */
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
			const data = parseCliJson(res.stdout);
			// Ended by a signal after it printed the finished run (twice in CI, at load 6 to 17, the
			// sender not found; n8n signals no process of its own group): the run's outcome is what
			// it printed, as n8n's exit code would have said.
			if (res.code === null && data !== undefined) {
				return { ...res, code: res.stdout.includes('Execution was NOT successful') ? 1 : 0, endedBySignalAfterRun: true, data };
			}
			return { ...res, data };
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

export function restHeaders(cookie: string): Record<string, string> {
	return { cookie, 'browser-id': BROWSER_ID };
}

/**
 * `fetch`, sent again once when it went out on a kept-alive connection the server had closed.
 * n8n closes an idle connection after 5 s; when this process was too busy to notice in time (a
 * loaded machine, a blocking child process), the request meets the closed connection: "other
 * side closed" before it reached n8n (safe to send again, also a POST), or a reset (sent again
 * for a read only: a reset can also end a request n8n took). Any other failure is thrown with its
 * cause's code in the message.
 */
export async function fetchOnOpenConnection(url: string, init?: RequestInit): Promise<Response> {
	const codeOf = (err: unknown) => (err as { cause?: { code?: string } })?.cause?.code;
	const isRead = ['GET', 'HEAD'].includes((init?.method ?? 'GET').toUpperCase());
	try {
		return await fetch(url, init).catch((err) => {
			const code = codeOf(err);
			if (code !== 'UND_ERR_SOCKET' && !(code === 'ECONNRESET' && isRead)) throw err;
			return fetch(url, init);
		});
	} catch (err) {
		const code = codeOf(err);
		throw code ? new Error(`${init?.method ?? 'GET'} ${url}: ${(err as Error).message} (${code})`, { cause: err }) : err;
	}
}

export async function request(
	url: string,
	method: string,
	body: unknown,
	headers: Record<string, string>,
	allowError = false,
): Promise<HttpResult> {
	const send = () =>
		fetchOnOpenConnection(url, {
			method,
			headers: {
				accept: 'application/json',
				...(body !== undefined ? { 'content-type': 'application/json' } : {}),
				...headers,
			},
			body: body !== undefined ? JSON.stringify(body) : undefined,
		});
	let res = await send();
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
