// Hosts a trigger node's webhook on a real HTTP server (127.0.0.1, free port), the way n8n's
// production webhook server does for an active workflow (n8n 2.41: live-webhooks.ts,
// webhook-helpers.ts executeWebhook, middlewares/body-parser.ts), reduced to what a
// community trigger can observe:
// - URL `/webhook/<webhookId>/<path>` for the declared method, anything else 404;
// - the body (webhook-helpers.ts parseRequestBody): for a typeVersion 1 node it is read into
//   `req.rawBody` and parsed before the node runs (application/json -> object, text/plain ->
//   string, form -> object, any other type -> `req.body` stays undefined); above version 1 only
//   a body n8n can parse (JSON, text, form, XML) is read, any other (no content type,
//   octet-stream...) is left unread (`req.rawBody` and `req.body` undefined) for the node's
//   `req.readRawBody()`; JSON that does not parse gets n8n's own 422 "Failed to parse request
//   body" and the node never runs;
// - a new Workflow per request, built from the saved static data; the node's webhook()
//   runs in n8n-core's WebhookContext (mode 'webhook') with the request and response in
//   additionalData; its changed static data is saved before the response goes out;
// - the response: what the node wrote itself (`noWebhookResponse`), else for no
//   workflowData its `webhookResponse` (or n8n's "Webhook call received") with the
//   webhook's responseCode, else for responseMode 'onReceived' the evaluated `responseData`
//   or the node's `webhookResponse` (n8n sends the literal string "firstEntryJson" when a
//   node declares no responseData; the harness does the same, so a mistake shows).
// Every call and every workflow start (the node's workflowData) is recorded.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';
import { HookContext, WebhookContext } from 'n8n-core';
import {
	Workflow,
	type IDataObject,
	type INode,
	type INodeCredentials,
	type INodeExecutionData,
	type INodeParameters,
	type IWebhookData,
	type IWebhookDescription,
	type IWebhookResponseData,
	type IWorkflowBase,
} from 'n8n-workflow';
import { buildAdditionalDataForTests } from '../../../tools/shared/additionalData';
import type { StoredCredential } from '../../../tools/shared/credentials';
import { createCredentialsHelper, getPackage } from './run';

export const TRIGGER_NODE_TYPE = 'n8n-nodes-timeline-navigation.chatAppMessagingTrigger';

export interface HostTriggerOptions {
	/** Full node type; default: this package's trigger. */
	type?: string;
	/** Default: the version new workflows get (the node's defaultVersion). */
	typeVersion?: number;
	name?: string;
	parameters?: INodeParameters;
	/** The node's credential references, e.g. `{ chatAppWebhookHeaderAuthApi: { id: 'h', name: 'Header' } }`. */
	nodeCredentials?: INodeCredentials;
	/** The stored credentials those references resolve to. */
	credentials?: StoredCredential[];
	/** Initial workflow static data (as saved in the database). */
	staticData?: IDataObject;
	webhookId?: string;
	/** The hosting workflow's id (the trigger's repeat memory is per workflow); default `hosted-workflow`. */
	workflowId?: string;
	/** n8n's webhook base URL, which the node's own URL is built from; default this harness's `<server>/webhook`. */
	webhookBaseUrl?: string;
}

export interface RecordedHttpResponse {
	status: number;
	headers: Record<string, string | string[] | number | undefined>;
	text: string;
	/** The body parsed as JSON, or undefined when it is not JSON. */
	json: unknown;
}

export interface WebhookCall {
	request: { method: string; path: string; headers: http.IncomingHttpHeaders; rawBody: string };
	response: RecordedHttpResponse;
	/** The workflow start this call caused, if any. */
	start?: WorkflowStart;
	/** An error thrown by the node's webhook() (n8n answers 500 then). */
	error?: Error;
}

export interface WorkflowStart {
	/** The node's workflowData: one array per output. */
	data: INodeExecutionData[][];
	/** The json of the items on the first output. */
	json: IDataObject[];
}

export interface HostedTrigger {
	/** The production URL, as n8n shows it under "Webhook URLs". */
	url: string;
	node: INode;
	calls: WebhookCall[];
	starts: WorkflowStart[];
	/** The saved workflow static data. */
	staticData(): IDataObject;
	/** Sends one real HTTP request to the hosted URL (a string body is sent as is). */
	post(
		body: unknown,
		options?: { headers?: Record<string, string>; contentType?: string | null },
	): Promise<RecordedHttpResponse>;
	/** Resolves once `count` calls have been answered. */
	waitForCalls(count: number, timeoutMs?: number): Promise<WebhookCall[]>;
	/** Forgets recorded calls and starts (static data stays, as in n8n). */
	clearRecords(): void;
	/** Publication (or n8n's start with the workflow published): n8n calls the webhook's `create` hook; with `testUrl`, a test listen's. */
	activate(options?: { testUrl?: boolean }): Promise<void>;
	/** Unpublication: n8n calls the webhook's `delete` hook; with `testUrl`, the end of a test listen. */
	deactivate(options?: { testUrl?: boolean }): Promise<void>;
	/** Unpublishes and stops the server. */
	close(): Promise<void>;
}

type HarnessRequest = http.IncomingMessage & {
	body?: unknown;
	rawBody?: Buffer;
	contentType?: string;
	encoding: BufferEncoding;
	params: Record<string, string>;
	query: Record<string, unknown>;
	readRawBody(): Promise<void>;
};

/** 422 from n8n's body parser: the node never sees the request. */
class UnprocessableBody extends Error {}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

/** Sets what n8n's parseIncomingMessage sets: the bare content type and its charset. */
function parseContentType(req: HarnessRequest): void {
	const header = req.headers['content-type'];
	if (!header) return;
	const [type, ...parameters] = header.split(';').map((part) => part.trim());
	req.contentType = type.toLowerCase();
	const charset = parameters.find((p) => p.toLowerCase().startsWith('charset='));
	req.encoding = (charset ? charset.slice('charset='.length).replace(/"/g, '').toLowerCase() : 'utf-8') as BufferEncoding;
}

/** The content types n8n reads and parses for a webhook node above version 1. */
function isParsableContentType(contentType: string | undefined): boolean {
	if (!contentType) return false;
	return (
		contentType.startsWith('application/json') ||
		contentType.startsWith('text/plain') ||
		contentType.startsWith('application/x-www-form-urlencoded') ||
		contentType.endsWith('/xml') ||
		contentType.endsWith('+xml')
	);
}

/** n8n's parseBody (typeVersion 1 nodes always get it), without XML and multipart. */
function parseBody(req: HarnessRequest): void {
	const { rawBody, contentType, encoding } = req;
	if (!rawBody?.length) return;
	const text = rawBody.toString(encoding).replace(/^\uFEFF/, '');
	try {
		if (contentType === 'application/json') req.body = JSON.parse(text);
		else if (contentType === 'application/x-www-form-urlencoded') req.body = parseQueryString(text);
		else if (contentType === 'text/plain') req.body = text;
	} catch (error) {
		throw new UnprocessableBody((error as Error).message);
	}
}

/** The express methods a node may call on its response object. */
function expressLike(res: http.ServerResponse) {
	const extended = res as http.ServerResponse & {
		status(code: number): typeof extended;
		json(body: unknown): typeof extended;
		send(body: unknown): typeof extended;
		header(name: string, value: string): typeof extended;
		set(name: string, value: string): typeof extended;
	};
	extended.status = (code) => {
		res.statusCode = code;
		return extended;
	};
	extended.header = extended.set = (name, value) => {
		res.setHeader(name, value);
		return extended;
	};
	extended.json = (body) => {
		if (!res.hasHeader('content-type')) res.setHeader('content-type', 'application/json; charset=utf-8');
		res.end(JSON.stringify(body));
		return extended;
	};
	extended.send = (body) => {
		if (typeof body === 'string') {
			if (!res.hasHeader('content-type')) res.setHeader('content-type', 'text/html; charset=utf-8');
			res.end(body);
		} else extended.json(body);
		return extended;
	};
	return extended;
}

function toRecorded(status: number, headers: RecordedHttpResponse['headers'], text: string): RecordedHttpResponse {
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status, headers, text, json };
}

function withoutChangeFlag(data: IDataObject): IDataObject {
	return JSON.parse(JSON.stringify(data)) as IDataObject;
}

export async function hostTrigger(options: HostTriggerOptions = {}): Promise<HostedTrigger> {
	const pkg = await getPackage();
	const credentialsHelper = await createCredentialsHelper(options.credentials);
	const type = options.type ?? TRIGGER_NODE_TYPE;
	// As a user adding the node today gets it: its default version, else its newest.
	const { defaultVersion, version } = pkg.nodeTypes.getByNameAndVersion(type).description;
	const typeVersion = options.typeVersion ?? defaultVersion ?? Math.max(...[version].flat());
	const nodeType = pkg.nodeTypes.getByNameAndVersion(type, typeVersion);
	const declared = nodeType.description.webhooks?.[0];
	if (!declared || !nodeType.webhook) throw new Error(`${type} has no webhook to host`);
	const description: IWebhookDescription = declared;

	const webhookId = options.webhookId ?? 'a1b2c3d4-0000-4000-8000-000000000001';
	const node: INode = {
		id: 'trigger',
		name: options.name ?? 'Chat-App Messaging Trigger',
		type,
		typeVersion,
		position: [0, 0],
		webhookId,
		parameters: options.parameters ?? {},
		credentials: options.nodeCredentials,
	};
	const webhookPath = `${webhookId}/${description.path}`;
	const httpMethod = String(description.httpMethod);
	let savedStaticData: IDataObject = withoutChangeFlag(options.staticData ?? {});
	const calls: WebhookCall[] = [];
	const starts: WorkflowStart[] = [];
	const waiters: Array<() => void> = [];
	let executionCounter = 0;
	/** Set once the server listens: n8n's webhook base, which the node's own Production URL is built from. */
	let webhookBaseUrl = options.webhookBaseUrl ?? '';

	/** A fresh Workflow, as n8n builds one per request from the static data saved in the database, and its additional data. */
	function loadWorkflow() {
		const workflow = new Workflow({
			id: options.workflowId ?? 'hosted-workflow',
			name: 'Hosted trigger',
			nodes: [node],
			connections: {},
			active: true,
			nodeTypes: pkg.nodeTypes,
			staticData: withoutChangeFlag(savedStaticData),
		});
		const workflowData = { id: workflow.id, name: workflow.name, nodes: [node], connections: {}, active: true } as unknown as IWorkflowBase;
		const additionalData = buildAdditionalDataForTests(credentialsHelper, workflowData, `webhook-${++executionCounter}`);
		additionalData.webhookBaseUrl = webhookBaseUrl;
		const webhookData: IWebhookData = {
			httpMethod: description.httpMethod as IWebhookData['httpMethod'],
			node: node.name,
			path: webhookPath,
			webhookDescription: description,
			workflowId: workflow.id!,
			workflowExecuteAdditionalData: additionalData,
			webhookId,
		};
		return { workflow, additionalData, webhookData };
	}

	async function handle(req: HarnessRequest, res: http.ServerResponse, call: WebhookCall): Promise<void> {
		const response = expressLike(res);
		const [pathname, search = ''] = (req.url ?? '/').split('?');
		if (req.method !== httpMethod || pathname !== `/webhook/${webhookPath}`) {
			response.status(404).json({
				code: 404,
				message: `The requested webhook "${req.method} ${pathname.replace(/^\/webhook\//, '')}" is not registered.`,
			});
			return;
		}
		req.params = {};
		req.query = parseQueryString(search);
		parseContentType(req);
		req.readRawBody = async () => {
			req.rawBody ??= await readBody(req);
		};
		if (typeVersion === 1 || isParsableContentType(req.contentType)) {
			await req.readRawBody();
			try {
				parseBody(req);
			} catch (error) {
				response.status(422).json({ code: 422, message: 'Failed to parse request body', hint: (error as Error).message });
				return;
			}
		}

		// As n8n: a fresh Workflow per request, from the static data saved in the database.
		const { workflow, additionalData, webhookData } = loadWorkflow();
		additionalData.httpRequest = req as never;
		additionalData.httpResponse = response as never;
		const workflowNode = workflow.getNode(node.name) as INode;
		const context = new WebhookContext(workflow, workflowNode, additionalData, 'webhook', webhookData, [], null);

		let result: IWebhookResponseData;
		try {
			result = await nodeType.webhook!.call(context);
		} catch (error) {
			call.error = error as Error;
			response.status(500).json({ code: 0, message: 'Workflow Webhook Error: Workflow could not be started!' });
			return;
		}
		// live-webhooks.ts saves the static data when the response callback fires.
		if ((workflow.staticData as IDataObject & { __dataChanged?: boolean }).__dataChanged) {
			savedStaticData = withoutChangeFlag(workflow.staticData);
		}
		if (result.workflowData !== undefined) {
			const start = { data: result.workflowData, json: (result.workflowData[0] ?? []).map((item) => item.json) };
			starts.push(start);
			call.start = start;
		}
		if (result.noWebhookResponse) {
			if (!res.writableEnded) throw new Error('The node returned noWebhookResponse but did not answer the request');
			return;
		}
		const responseCode = Number(description.responseCode ?? 200);
		if (result.workflowData === undefined) {
			response.status(responseCode).json(result.webhookResponse ?? { message: 'Webhook call received' });
			return;
		}
		const responseMode = description.responseMode ?? 'onReceived';
		if (responseMode !== 'onReceived') throw new Error(`The harness hosts responseMode 'onReceived' only, not '${String(responseMode)}'`);
		const responseData = description.responseData ?? 'firstEntryJson';
		const body =
			responseData === 'noData'
				? undefined
				: responseData
					? responseData
					: (result.webhookResponse ?? { message: 'Workflow was started' });
		response.status(responseCode);
		if (body === undefined) res.end();
		else response.send(body);
	}

	const server = http.createServer((incoming, res) => {
		const req = incoming as HarnessRequest;
		const chunks: Buffer[] = [];
		const write = res.write.bind(res) as (...args: unknown[]) => boolean;
		const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
		res.write = ((chunk: unknown, ...rest: unknown[]) => {
			if (chunk) chunks.push(Buffer.from(chunk as string));
			return write(chunk, ...rest);
		}) as typeof res.write;
		res.end = ((chunk?: unknown, ...rest: unknown[]) => {
			if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk as string));
			return end(chunk, ...rest);
		}) as typeof res.end;
		// Headers given to writeHead are not kept by getHeaders(): record them here.
		const written: RecordedHttpResponse['headers'] = {};
		const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => http.ServerResponse;
		res.writeHead = ((status: number, ...rest: unknown[]) => {
			const headers = rest.find((arg) => typeof arg === 'object' && arg !== null);
			for (const [name, value] of Object.entries((headers ?? {}) as Record<string, string>)) written[name.toLowerCase()] = value;
			return writeHead(status, ...rest);
		}) as typeof res.writeHead;
		const call: WebhookCall = {
			request: { method: req.method ?? '', path: req.url ?? '', headers: req.headers, rawBody: '' },
			response: toRecorded(0, {}, ''),
		};
		handle(req, res, call)
			.catch((error: Error) => {
				call.error = error;
				if (!res.headersSent) expressLike(res).status(500).json({ code: 500, message: error.message });
				else if (!res.writableEnded) res.end();
			})
			.finally(() => {
				call.request.rawBody = req.rawBody?.toString() ?? '';
				call.response = toRecorded(res.statusCode, { ...res.getHeaders(), ...written }, Buffer.concat(chunks).toString());
				calls.push(call);
				waiters.splice(0).forEach((wake) => wake());
			});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	webhookBaseUrl ||= `http://127.0.0.1:${port}/webhook`;
	const url = `http://127.0.0.1:${port}/webhook/${webhookPath}`;

	const hosted: HostedTrigger = {
		url,
		node,
		calls,
		starts,
		staticData: () => withoutChangeFlag(savedStaticData),
		async post(body, postOptions = {}) {
			const contentType = postOptions.contentType === undefined ? 'application/json' : postOptions.contentType;
			const payload = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
			// node:http rather than fetch: fetch adds a text/plain content type to string bodies.
			const headers: Record<string, string> = {
				...(contentType ? { 'Content-Type': contentType } : {}),
				'Content-Length': String(payload.length),
				...postOptions.headers,
			};
			return new Promise<RecordedHttpResponse>((resolve, reject) => {
				const req = http.request(url, { method: 'POST', headers, agent: false }, (res) => {
					const chunks: Buffer[] = [];
					res.on('data', (chunk: Buffer) => chunks.push(chunk));
					res.on('end', () =>
						resolve(toRecorded(res.statusCode ?? 0, res.headers, Buffer.concat(chunks).toString())),
					);
					res.on('error', reject);
				});
				req.on('error', reject);
				req.end(payload);
			});
		},
		async waitForCalls(count, timeoutMs = 5000) {
			const deadline = Date.now() + timeoutMs;
			while (calls.length < count) {
				const left = deadline - Date.now();
				if (left <= 0) throw new Error(`Expected ${count} webhook calls, got ${calls.length} within ${timeoutMs} ms`);
				await new Promise<void>((resolve) => {
					const timer = setTimeout(resolve, left);
					waiters.push(() => {
						clearTimeout(timer);
						resolve();
					});
				});
			}
			return calls.slice(0, count);
		},
		async activate({ testUrl = false } = {}) {
			// As n8n's active-workflow-manager.ts, or test-webhooks.ts ('manual', 'manual') for a test listen.
			const { workflow, additionalData, webhookData } = loadWorkflow();
			const context = testUrl
				? new HookContext(workflow, workflow.getNode(node.name) as INode, additionalData, 'manual', 'manual', { ...webhookData, isTest: true })
				: new HookContext(workflow, workflow.getNode(node.name) as INode, additionalData, 'webhook', 'activate', webhookData);
			await nodeType.webhookMethods?.default?.create?.call(context);
		},
		async deactivate({ testUrl = false } = {}) {
			// n8n deletes both kinds as ('internal', 'update'); only the webhook data tells a test listen.
			const { workflow, additionalData, webhookData } = loadWorkflow();
			const context = new HookContext(workflow, workflow.getNode(node.name) as INode, additionalData, 'internal', 'update', testUrl ? { ...webhookData, isTest: true } : webhookData);
			await nodeType.webhookMethods?.default?.delete?.call(context);
		},
		clearRecords() {
			calls.splice(0);
			starts.splice(0);
		},
		close: async () => {
			await hosted.deactivate();
			await new Promise<void>((resolve, reject) => {
				server.closeAllConnections();
				server.close((error) => (error ? reject(error) : resolve()));
			});
		},
	};
	return hosted;
}
