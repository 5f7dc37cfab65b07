/** Helpers shared by the e2e test files (not a test file itself). */
import { SandboxClient } from '../../tools/sandbox/client';
import { loadE2eEnv } from './environment';
import { fetchOnOpenConnection, type N8nClient, type StoredCredential } from '../../tools/n8n/client';
import { waitFor } from '../../tools/shared/wait';

export const env = loadE2eEnv();
export const n8n: N8nClient = env.client;
export const sandbox = new SandboxClient(env.sandbox.url);
export const creds: StoredCredential[] = Object.values(env.credentials);

/** A call to a production webhook, repeated while n8n answers 404 (for a moment after an activation). */
export function onceRegistered(call: () => Promise<Response>, timeoutMs = 10_000): Promise<Response> {
	return waitFor(
		'the webhook to be registered (n8n answered 404)',
		async () => {
			const response = await call();
			return response.status !== 404 && response;
		},
		{ timeoutMs, intervalMs: 250 },
	);
}

const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);

/**
 * The workflow's executions, newest first, each with its data, waiting ones included: listed
 * through the REST API the editor uses, as n8n 1.123's public API leaves waiting executions out
 * of its list (it returns them by id).
 */
export async function executionsWithWaiting(workflowId: string): Promise<any[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const listed = (await n8n.rest('GET', `/executions?filter=${filter}`)).body.results as Array<{ id: string }>;
	const executions = [];
	// One at a time: a loaded n8n resets connections under a burst of requests.
	for (const { id } of listed) executions.push((await n8n.api('GET', `/executions/${id}?includeData=true`)).body);
	return executions;
}

/** Polls the workflow's executions (newest first, as `list` gives them) until `done(list)` holds. */
export async function waitForExecutionsWhere(
	workflowId: string,
	what: string,
	done: (list: any[]) => boolean,
	timeoutMs = 30000,
	list: (workflowId: string) => Promise<any[]> = n8n.executions,
): Promise<any[]> {
	let executions: any[] = [];
	const counts = () => {
		const byModeAndStatus: Record<string, number> = {};
		for (const e of executions) byModeAndStatus[`${e.mode} ${e.status}`] = (byModeAndStatus[`${e.mode} ${e.status}`] ?? 0) + 1;
		return JSON.stringify(byModeAndStatus);
	};
	return waitFor(
		() => `${what} of workflow ${workflowId}; executions (mode status: count): ${counts()}`,
		async () => {
			executions = await list(workflowId);
			return done(executions) && executions;
		},
		{ timeoutMs, intervalMs: 250 },
	);
}

/** Waits until the workflow has at least `count` executions, all finished (newest first). */
export async function waitForExecutions(workflowId: string, count: number, timeoutMs = 20000): Promise<any[]> {
	return waitForExecutionsWhere(
		workflowId,
		`${count} finished executions`,
		(list) => list.length >= count && list.every((e) => FINISHED.has(e.status)),
		timeoutMs,
	);
}

/**
 * The workflow's executions once nothing more starts: all finished and their number unchanged
 * for `settleMs` (longer than whatever would start another one, such as a schedule's interval).
 */
export async function waitForSettledExecutions(workflowId: string, settleMs: number): Promise<any[]> {
	let count = -1;
	let stableSince = Date.now();
	return waitForExecutionsWhere(
		workflowId,
		`${settleMs} ms without a new execution`,
		(list) => {
			if (list.length !== count || !list.every((e) => FINISHED.has(e.status))) {
				count = list.length;
				stableSince = Date.now();
				return false;
			}
			return Date.now() - stableSince >= settleMs;
		},
		settleMs + 30000,
	);
}

export { nodeOutput } from '../support/runData';

/** POSTs JSON to a published workflow's Webhook path, once n8n has registered it. */
export function postToWebhook(path: string, body: object): Promise<Response> {
	return onceRegistered(() =>
		fetchOnOpenConnection(`${n8n.webhookBaseUrl}/${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		}),
	);
}

/** The same, from the run data `n8n execute --rawOutput` printed. */
export function cliNodeOutput(data: any, nodeName: string): any[] {
	const runs = data?.resultData?.runData?.[nodeName] ?? data?.data?.resultData?.runData?.[nodeName];
	if (!runs) return [];
	return (runs[0]?.data?.main?.[0] ?? []).map((i: any) => i.json);
}

/**
 * How many executions a workflow has once things are quiet: every webhook the sandbox owes has
 * been delivered and no execution started or ran for `quietMs`. Use it where a test asserts that
 * nothing more started.
 */
export async function settledCount(workflowId: string, quietMs = 1500): Promise<number> {
	await sandbox.flushWebhooks();
	return (await waitForSettledExecutions(workflowId, quietMs)).length;
}

/**
 * Runs a saved workflow as "Execute workflow" in the editor does (mode `manual`), from the named
 * trigger, and returns the execution's id. n8n 1.x runs the workflow the editor sends with the
 * request, not the saved one, so it is sent too.
 */
export async function runFromEditor(workflowId: string, trigger: string): Promise<string> {
	const run: Record<string, unknown> = { triggerToStartFrom: { name: trigger } };
	if (env.versions.n8n.startsWith('1.')) run.workflowData = (await n8n.rest('GET', `/workflows/${workflowId}`)).body;
	const started = await n8n.rest('POST', `/workflows/${workflowId}/run`, run);
	return String(started.body.executionId);
}

/**
 * The execution once it has ended, with its run data: n8n 1.x saves the status and the run data
 * one after the other, so an ended execution counts once its `lastNode` has run data.
 */
export async function endedExecution(workflowId: string, executionId: string, timeoutMs = 60_000): Promise<any> {
	const ended = (e: any) => {
		if (!e || !FINISHED.has(e.status)) return false;
		const last = e.data?.resultData?.lastNodeExecuted;
		return !last || Boolean(e.data?.resultData?.runData?.[last]);
	};
	return waitFor(
		() => `execution ${executionId} of workflow ${workflowId} to end`,
		async () => {
			const execution = (await n8n.api('GET', `/executions/${executionId}?includeData=true`, undefined, { allowError: true })).body;
			return ended(execution) && execution;
		},
		{ timeoutMs, intervalMs: 250 },
	);
}
