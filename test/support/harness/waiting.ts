// Waiting executions in-process, the way n8n 2.41 runs them (packages/cli: waiting-webhooks.ts,
// webhook-helpers.ts executeWebhook, wait-tracker.ts), reduced to what a community node can
// observe:
// - a workflow runs through n8n-core's WorkflowExecute until a node calls putExecutionToWait;
//   the execution is then "saved" (its run data copied as JSON, as the database stores it) with
//   status waiting and its waitTill;
// - a real HTTP server answers `/webhook-waiting/<execution id>/<suffix>` (the base URL the
//   node's getSignedResumeUrl signs): for a node whose operation is sendAndWait the link's
//   signature is checked with n8n-core's own helper and the instance's HMAC secret (401 and
//   n8n's "invalid token" page otherwise); a finished execution gets n8n's "no action
//   required" page, a running one 409; else the waiting node's webhook with that method and
//   path (`restartWebhook`) runs in n8n-core's WebhookContext with the saved run data, so its
//   expressions see the waiting node's input item; bodies are parsed as n8n does (a multipart
//   form becomes `{ data, files }`), and a custom form that is not multipart gets n8n's 415;
// - a webhook that returns workflowData resumes the execution: the waiting node is disabled,
//   its waiting run is dropped, the stack's input becomes the webhook's data, and WorkflowExecute
//   goes on from there (after the response, as n8n does);
// - `timeOut()` is n8n's wait tracker: once waitTill has passed, the execution resumes without an
//   answer (n8n-core disables the waiting node, which passes its input items on).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';
import { Container } from '@n8n/di';
import { InstanceSettings, validateUrlSignature, WAITING_TOKEN_QUERY_PARAM, WebhookContext, WorkflowExecute } from 'n8n-core';
import {
	SEND_AND_WAIT_OPERATION,
	Workflow,
	type IDataObject,
	type INode,
	type IRun,
	type IRunExecutionData,
	type IWebhookData,
	type IWorkflowBase,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { buildAdditionalDataForTests } from '../../../tools/shared/additionalData';
import type { StoredCredential } from '../../../tools/shared/credentials';
import { createCredentialsHelper, getPackage, type WorkflowJson } from './run';

export type ExecutionStatus = 'running' | 'waiting' | 'success' | 'error';

export interface HttpAnswer {
	status: number;
	headers: http.IncomingHttpHeaders;
	text: string;
}

export interface WaitingCall {
	method: string;
	path: string;
	status: number;
	/** Whether this call resumed the execution. */
	resumed: boolean;
}

export interface HarnessExecution {
	id: string;
	status(): ExecutionStatus;
	/** When the waiting execution goes on by itself (n8n's WAIT_INDEFINITELY: year 3000). */
	waitTill(): Date | undefined;
	/** The latest IRun (the first run, or the resumed one). */
	run(): IRun;
	/** The json of the items a node output in the latest run data. */
	json(nodeName: string): IDataObject[];
	/** Every call to the execution's waiting webhooks. */
	calls: WaitingCall[];
	/** How often the execution went on from waiting. */
	resumes(): number;
	/** Resolves once no resumed run is in progress. */
	settled(): Promise<void>;
	/** n8n's wait tracker: waits until waitTill has passed, then resumes without an answer. */
	timeOut(): Promise<void>;
}

export interface WaitingServer {
	/** As n8n's `webhookWaitingBaseUrl`: `http://127.0.0.1:<port>/webhook-waiting`. */
	baseUrl: string;
	start(workflowJson: WorkflowJson, options?: { credentials?: StoredCredential[]; startNode?: string }): Promise<HarnessExecution>;
	/** One real HTTP request; a form is sent as a browser submits it: multipart unless `encoding` says url-encoded. */
	request(
		url: string,
		options?: {
			method?: string;
			headers?: Record<string, string>;
			form?: Record<string, string | string[]>;
			encoding?: 'multipart' | 'urlencoded';
		},
	): Promise<HttpAnswer>;
	close(): Promise<void>;
}

// n8n's own pages for these cases (its templates say more; their gist is kept).
const INVALID_TOKEN_PAGE = '<!DOCTYPE html><html><body><h1>Invalid Form Link</h1><p>This form link is invalid or has expired.</p></body></html>';
const NO_ACTION_PAGE = '<!DOCTYPE html><html><body><h1>No action required</h1><p>This form was already answered.</p></body></html>';

interface Saved {
	workflowJson: WorkflowJson;
	workflowData: IWorkflowBase;
	mode: 'manual';
	status: ExecutionStatus;
	/** The run data as the database holds it: JSON, copied in and out. */
	data: string;
	run: IRun;
	resumes: number;
	active?: Promise<void>;
	/** A resumed run that threw (n8n-core records node errors in the run data instead). */
	failure?: Error;
	credentials: StoredCredential[];
}

const copyOf = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function statusOf(run: IRun): ExecutionStatus {
	if (run.waitTill) return 'waiting';
	return run.data.resultData.error ? 'error' : 'success';
}

export async function startWaitingServer(): Promise<WaitingServer> {
	const pkg = await getPackage();
	const executions = new Map<string, Saved>();
	const handles = new Map<string, HarnessExecution>();
	let counter = 0;
	let baseUrl = '';

	async function additionalDataFor(saved: Saved, id: string): Promise<IWorkflowExecuteAdditionalData> {
		const helper = await createCredentialsHelper(saved.credentials);
		const additionalData = buildAdditionalDataForTests(helper, saved.workflowData, id);
		additionalData.webhookWaitingBaseUrl = baseUrl;
		return additionalData;
	}

	function workflowOf(saved: Saved): Workflow {
		const { workflowJson } = saved;
		return new Workflow({
			id: saved.workflowData.id,
			name: saved.workflowData.name,
			nodes: copyOf(workflowJson.nodes),
			connections: workflowJson.connections,
			active: false,
			nodeTypes: pkg.nodeTypes,
			staticData: {},
			settings: workflowJson.settings,
		});
	}

	function store(saved: Saved, run: IRun): void {
		saved.run = run;
		saved.status = statusOf(run);
		saved.data = JSON.stringify(run.data);
	}

	/** Goes on from the saved run data (prepared by `prepare`), as n8n's WorkflowRunner does. */
	function resume(saved: Saved, id: string, prepare: (data: IRunExecutionData) => void): Promise<void> {
		saved.status = 'running';
		saved.resumes++;
		const active = (async () => {
			const data = JSON.parse(saved.data) as IRunExecutionData;
			prepare(data);
			const additionalData = await additionalDataFor(saved, id);
			const run = await new WorkflowExecute(additionalData, saved.mode, data).processRunExecutionData(workflowOf(saved));
			store(saved, run);
		})();
		saved.active = active
			.catch((error: Error) => {
				saved.status = 'error';
				saved.failure = error;
			})
			.finally(() => {
				saved.active = undefined;
			});
		return saved.active;
	}

	function isSendAndWaitNode(saved: Saved, suffix: string): boolean {
		return saved.workflowJson.nodes.some((node) => node.id === suffix && node.parameters.operation === SEND_AND_WAIT_OPERATION);
	}

	function answer(res: http.ServerResponse, status: number, body: string, type = 'text/html; charset=utf-8'): void {
		res.statusCode = status;
		res.setHeader('Content-Type', type);
		res.end(body);
	}

	async function handle(req: http.IncomingMessage, res: http.ServerResponse, rawBody: Buffer, call: WaitingCall): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const [, prefix, executionId, suffix = ''] = url.pathname.split('/');
		const saved = prefix === 'webhook-waiting' ? executions.get(executionId) : undefined;
		if (!saved) return answer(res, 404, JSON.stringify({ code: 404, message: `The execution "${executionId}" does not exist.` }), 'application/json');
		const sendAndWait = isSendAndWaitNode(saved, suffix);

		// n8n 2.41 checks the signature of a send-and-wait link before anything else.
		if (sendAndWait) {
			const signature = url.searchParams.get(WAITING_TOKEN_QUERY_PARAM);
			if (!signature || !validateUrlSignature(signature, url, Container.get(InstanceSettings).hmacSignatureSecret)) {
				return answer(res, 401, INVALID_TOKEN_PAGE);
			}
		}
		if (saved.status === 'running') return answer(res, 409, JSON.stringify({ code: 409, message: `The execution "${executionId}" is running already.` }), 'application/json');
		if (saved.status === 'error') return answer(res, 409, JSON.stringify({ code: 409, message: `The execution "${executionId}" has finished with error.` }), 'application/json');
		if (saved.status === 'success') {
			if (sendAndWait) return answer(res, 200, NO_ACTION_PAGE);
			return answer(res, 409, JSON.stringify({ code: 409, message: `The execution "${executionId} has finished already.` }), 'application/json');
		}

		const data = JSON.parse(saved.data) as IRunExecutionData;
		const workflow = workflowOf(saved);
		const node = workflow.getNode(data.resultData.lastNodeExecuted as string) as INode;
		const nodeType = pkg.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		const description = nodeType.description.webhooks?.find(
			(webhook) => webhook.httpMethod === req.method && webhook.restartWebhook === true,
		);
		const path = description ? workflow.expression.getSimpleParameterValue(node, description.path, 'internal', {}) : undefined;
		if (!description || path !== suffix || !nodeType.webhook) {
			if (sendAndWait) return answer(res, 200, NO_ACTION_PAGE);
			return answer(res, 404, JSON.stringify({ code: 404, message: 'No waiting webhook with a matching path/method.' }), 'application/json');
		}

		// What n8n's body parsers give a node of version 1: a multipart form as { data, files }
		// (one value as text, several as a list), a url-encoded form or JSON as such. n8n 2.41
		// accepts a Send and Wait custom form as multipart only.
		const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
		if (req.method === 'POST' && sendAndWait && node.parameters.responseType === 'customForm' && contentType !== 'multipart/form-data') {
			return answer(res, 415, JSON.stringify({ code: 415, message: 'Expected multipart/form-data' }), 'application/json');
		}
		const text = rawBody.toString('utf8');
		let body: unknown = {};
		if (contentType === 'multipart/form-data') {
			const form = await new Response(rawBody, { headers: { 'content-type': String(req.headers['content-type']) } }).formData();
			const data: Record<string, string | string[]> = {};
			for (const name of new Set(form.keys())) {
				const values = form.getAll(name).map(String);
				data[name] = values.length === 1 ? values[0] : values;
			}
			body = { data, files: {} };
		} else if (contentType === 'application/x-www-form-urlencoded') {
			body = parseQueryString(text);
		} else if (contentType === 'application/json' && text) {
			body = JSON.parse(text);
		}
		const request = Object.assign(req, { query: Object.fromEntries(url.searchParams), params: {}, body });
		const response = Object.assign(res, {
			status(code: number) {
				res.statusCode = code;
				return response;
			},
		});
		const additionalData = await additionalDataFor(saved, executionId);
		additionalData.httpRequest = request as never;
		additionalData.httpResponse = response as never;
		const webhookData: IWebhookData = {
			httpMethod: description.httpMethod as IWebhookData['httpMethod'],
			node: node.name,
			path: suffix,
			webhookDescription: description,
			workflowId: workflow.id,
			workflowExecuteAdditionalData: additionalData,
		};
		const context = new WebhookContext(workflow, node, additionalData, saved.mode, webhookData, [], data);
		const result = await nodeType.webhook.call(context);
		if (!result.noWebhookResponse) answer(res, 200, String(result.webhookResponse ?? ''));
		if (result.workflowData === undefined) return;
		call.resumed = true;
		// After the response, as n8n: the waiting node passes the webhook's data on.
		void resume(saved, executionId, (resumed) => {
			const entry = resumed.executionData!.nodeExecutionStack[0];
			entry.node.disabled = true;
			entry.data.main = result.workflowData!;
			entry.metadata = { ...entry.metadata, forwardAllOutputs: true };
			resumed.waitTill = undefined;
			resumed.resultData.runData[resumed.resultData.lastNodeExecuted as string].pop();
		});
	}

	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const call: WaitingCall = { method: req.method ?? '', path: req.url ?? '', status: 0, resumed: false };
			const executionId = new URL(req.url ?? '/', 'http://127.0.0.1').pathname.split('/')[2];
			handle(req, res, Buffer.concat(chunks), call)
				.catch((error: Error) => answer(res, 500, JSON.stringify({ code: 500, message: error.message }), 'application/json'))
				.finally(() => {
					call.status = res.statusCode;
					handles.get(executionId)?.calls.push(call);
				});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook-waiting`;

	return {
		baseUrl,
		async start(workflowJson, options = {}) {
			const id = `waiting-${++counter}`;
			const workflowData = {
				id: 'harness-waiting-workflow',
				name: workflowJson.name ?? 'Harness workflow',
				nodes: workflowJson.nodes,
				connections: workflowJson.connections,
				active: false,
				settings: workflowJson.settings ?? {},
			} as unknown as IWorkflowBase;
			const saved: Saved = {
				workflowJson,
				workflowData,
				mode: 'manual',
				status: 'running',
				data: '',
				run: undefined as unknown as IRun,
				resumes: 0,
				credentials: options.credentials ?? [],
			};
			executions.set(id, saved);
			const workflow = workflowOf(saved);
			const startNode = workflow.getNode(options.startNode ?? workflowJson.nodes[0].name) as INode;
			const additionalData = await additionalDataFor(saved, id);
			store(saved, await new WorkflowExecute(additionalData, saved.mode).run({ workflow, startNode }));
			const handle: HarnessExecution = {
				id,
				status: () => saved.status,
				waitTill: () => (saved.run.waitTill ? new Date(saved.run.waitTill) : undefined),
				run: () => saved.run,
				json: (nodeName) => {
					const runs = saved.run.data.resultData.runData[nodeName];
					if (!runs) throw new Error(`Node "${nodeName}" did not run (ran: ${Object.keys(saved.run.data.resultData.runData).join(', ')})`);
					return (runs[runs.length - 1].data?.main?.[0] ?? []).map((item) => item.json);
				},
				calls: [],
				resumes: () => saved.resumes,
				settled: async () => {
					while (saved.active) await saved.active;
					if (saved.failure) throw saved.failure;
				},
				async timeOut() {
					const until = saved.run.waitTill ? new Date(saved.run.waitTill).getTime() : undefined;
					if (saved.status !== 'waiting' || until === undefined) throw new Error(`execution ${id} is ${saved.status}, not waiting`);
					// The wait tracker's timer: it fires when the time has come, not before.
					if (until > Date.now()) await new Promise((resolve) => setTimeout(resolve, until - Date.now()));
					await resume(saved, id, () => undefined);
				},
			};
			handles.set(id, handle);
			return handle;
		},
		async request(url, options = {}) {
			let body: Buffer | undefined;
			const headers: Record<string, string> = {};
			if (options.form) {
				const entries = Object.entries(options.form).flatMap(([name, value]) =>
					(Array.isArray(value) ? value : [value]).map((v): [string, string] => [name, v]),
				);
				if (options.encoding === 'urlencoded') {
					body = Buffer.from(new URLSearchParams(entries).toString());
					headers['Content-Type'] = 'application/x-www-form-urlencoded';
				} else {
					// As a browser submits a form with enctype="multipart/form-data".
					const form = new FormData();
					for (const [name, value] of entries) form.append(name, value);
					const encoded = new Request('http://form.invalid/', { method: 'POST', body: form });
					body = Buffer.from(await encoded.arrayBuffer());
					headers['Content-Type'] = encoded.headers.get('content-type') as string;
				}
				headers['Content-Length'] = String(body.length);
			}
			Object.assign(headers, options.headers);
			return new Promise<HttpAnswer>((resolve, reject) => {
				const req = http.request(url, { method: options.method ?? (body !== undefined ? 'POST' : 'GET'), headers, agent: false }, (res) => {
					const chunks: Buffer[] = [];
					res.on('data', (chunk: Buffer) => chunks.push(chunk));
					res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }));
					res.on('error', reject);
				});
				req.on('error', reject);
				req.end(body);
			});
		},
		close: () =>
			new Promise<void>((resolve, reject) => {
				server.closeAllConnections();
				server.close((error) => (error ? reject(error) : resolve()));
			}),
	};
}
