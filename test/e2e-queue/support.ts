/** Helpers of the queue-mode suite (not a test file itself). */
import { randomUUID } from 'node:crypto';

import { STORED_MEMORY_KEY, type StoredMemory } from '../../nodes/shared/chatAppMessaging/trigger/deliveryMemory';
import { DIGEST_LENGTH } from '../../nodes/shared/digest';
import { executionsOf, queryN8nDatabase, type N8nDatabaseUser } from '../../tools/n8n/database';
import type { N8nClient, WorkflowJson } from '../../tools/n8n/client';
import { NODE_TYPES } from '../../tools/n8n/communityPackage';
import type { N8nProcess } from '../../tools/n8n/server';
import { waitFor } from '../../tools/shared/wait';
import { BACKEND_HEADER } from '../../tools/n8n/proxy';
import { webhookUrlsOf } from '../../tools/n8n/webhooks';

export interface Answer {
	/** The HTTP status; 0 when no answer came (the connection failed or was reset). */
	status: number;
	/** The parsed JSON body, else its text; for status 0, what failed. */
	body: any;
	/** The answer's headers that explain it (content type, Retry-After, connection, which webhook process). */
	headers: Record<string, string>;
	/** When the call was sent (ISO time) and how long the answer took. */
	sentAt: string;
	ms: number;
}

/** Headers worth printing with an unexpected answer. */
const TELLING_HEADERS = ['content-type', 'retry-after', 'connection', 'keep-alive', BACKEND_HEADER];

/**
 * POSTs one JSON delivery; the answer's status, parsed body, telling headers and timing. A call
 * that gets no HTTP answer at all is an answer of status 0 (a sender sees it as a failure too).
 */
export async function post(url: string, payload: unknown, headers: Record<string, string> = {}): Promise<Answer> {
	const sentAt = new Date();
	const timing = () => ({ sentAt: sentAt.toISOString(), ms: Date.now() - sentAt.getTime() });
	let res: Response;
	let text: string;
	try {
		res = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...headers },
			body: JSON.stringify(payload),
		});
		text = await res.text();
	} catch (error) {
		const cause = (error as Error & { cause?: Error & { code?: string } }).cause;
		const reason = [(error as Error).message, cause?.code ?? cause?.message].filter(Boolean).join(': ');
		return { status: 0, body: `no answer: ${reason}`, headers: {}, ...timing() };
	}
	let body: any = text;
	try {
		body = JSON.parse(text);
	} catch {
		// keep the text
	}
	const telling = Object.fromEntries(TELLING_HEADERS.filter((h) => res.headers.has(h)).map((h) => [h, res.headers.get(h)!]));
	return { status: res.status, body, headers: telling, ...timing() };
}

/** One line for a report: status, body, the headers that matter, timing. */
export function describeAnswer(answer: Answer): string {
	const body = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
	const process = answer.headers[BACKEND_HEADER] ? ` from ${answer.headers[BACKEND_HEADER]}` : '';
	const others = Object.entries(answer.headers).filter(([h]) => h !== BACKEND_HEADER);
	return (
		`${answer.status || 'no answer'} ${body.slice(0, 500)}${process}, sent ${answer.sentAt}, answered after ${answer.ms} ms` +
		(others.length ? ` (${others.map(([h, v]) => `${h}: ${v}`).join(', ')})` : '')
	);
}

/**
 * How the messaging service delivers (at least once): an event whose call is not answered 2xx
 * is sent again, up to `attempts` calls in all, after a short backoff that doubles.
 */
export interface ResendPolicy {
	attempts: number;
	firstBackoffMs: number;
}

/** Up to 5 calls per event, 0.5, 1, 2 and 4 s apart. */
export const SERVICE_RESENDS: ResendPolicy = { attempts: 5, firstBackoffMs: 500 };

/** Delivers one event the way the service does; every answer it got, in order (the last one is final). */
export async function deliverAtLeastOnce(
	url: string,
	payload: unknown,
	headers: Record<string, string> = {},
	policy: ResendPolicy = SERVICE_RESENDS,
): Promise<Answer[]> {
	const answers: Answer[] = [];
	for (let attempt = 1; ; attempt++) {
		const answer = await post(url, payload, headers);
		answers.push(answer);
		if ((answer.status >= 200 && answer.status < 300) || attempt >= policy.attempts) return answers;
		// The backoff is the behaviour under test (the service's resend delay), not a wait for a state.
		await new Promise((resolve) => setTimeout(resolve, policy.firstBackoffMs * 2 ** (attempt - 1)));
	}
}

/** Runs `task` over `items` with at most `concurrency` in flight; results in item order. */
export async function pool<T, R>(items: T[], concurrency: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
	const results: R[] = new Array(items.length);
	let next = 0;
	const lanes = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
		while (next < items.length) {
			const i = next++;
			results[i] = await task(items[i], i);
		}
	});
	await Promise.all(lanes);
	return results;
}

/** An inbound-message delivery as the messaging service sends it. */
export function inboundEvent(messageId: string, text = 'Hello'): Record<string, string> {
	return {
		event_type: 'message.inbound',
		message_id: messageId,
		conversation_id: `conv_${messageId}`,
		channel: 'chatapp',
		from: '+14155550123',
		text,
		timestamp: new Date().toISOString(),
	};
}

/** A workflow that is only the trigger (no authentication, repeats ignored): one execution per start. */
export function triggerOnlyWorkflow(name: string): WorkflowJson {
	return {
		name,
		nodes: [
			{
				id: randomUUID(),
				name: 'Chat-App Messaging Trigger',
				type: NODE_TYPES.trigger,
				typeVersion: 1,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: {},
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/** Imports and publishes a workflow; returns its id and its trigger's production path (after /webhook/). */
export async function publish(n8n: N8nClient, json: WorkflowJson): Promise<{ id: string; path: string; url: string }> {
	const id = await n8n.importWorkflow(json);
	await n8n.activate(id);
	const hook = (await webhookUrlsOf(n8n, id)).find((u) => u.nodeType === NODE_TYPES.trigger);
	if (!hook) throw new Error(`workflow ${json.name} registered no production webhook`);
	return { id, path: hook.webhookPath.replace(/^\//, ''), url: hook.url };
}

/** The production URL of a webhook path on one webhook process, bypassing the balancer. */
export function directUrl(process: Pick<N8nProcess, 'url'>, path: string): string {
	return `${process.url}/webhook/${path}`;
}

/** The key digests the trigger's stored repeat memory holds, as n8n saved its static data. */
export async function storedDigests(n8n: N8nDatabaseUser, workflowId: string): Promise<Set<string>> {
	const [row] = await queryN8nDatabase<{ staticData: unknown }>(n8n, 'SELECT "staticData" FROM workflow_entity WHERE id = $1', [workflowId]);
	const staticData = (typeof row?.staticData === 'string' ? JSON.parse(row.staticData) : row?.staticData) ?? {};
	const digests = new Set<string>();
	for (const nodeData of Object.values(staticData as Record<string, any>)) {
		const memory = nodeData?.[STORED_MEMORY_KEY] as StoredMemory | undefined;
		for (const { keys } of memory?.gens ?? []) {
			for (let i = 0; i < keys.length; i += DIGEST_LENGTH) digests.add(keys.slice(i, i + DIGEST_LENGTH));
		}
	}
	return digests;
}

/** Which worker finished an execution, by its log ("Worker finished execution <id> (job <n>)"). */
export function workerOf(workers: N8nProcess[], executionId: string): number | undefined {
	const line = new RegExp(`Worker finished execution ${executionId} \\(`);
	const index = workers.findIndex((w) => line.test(w.logs()));
	return index >= 0 ? index : undefined;
}

/** Starts a manual run through the editor's REST API (offloaded to a worker in queue mode); waits for it. */
export async function runManually(n8n: N8nClient & N8nDatabaseUser, workflowId: string, triggerName: string): Promise<any> {
	const res = await n8n.rest('POST', `/workflows/${workflowId}/run`, { triggerToStartFrom: { name: triggerName } });
	const executionId = String(res.body?.executionId ?? '');
	if (!executionId) throw new Error(`no execution started: ${JSON.stringify(res.body).slice(0, 300)}`);
	await waitFor(
		`execution ${executionId} to finish`,
		async () => {
			const row = (await executionsOf(n8n, workflowId)).find((r) => r.id === executionId);
			return row && ['success', 'error', 'crashed', 'canceled'].includes(row.status);
		},
		{ timeoutMs: 120000 },
	);
	// The public API has the run data once the execution is saved.
	return waitFor(
		`execution ${executionId} in the public API`,
		async () => {
			const got = await n8n.api('GET', `/executions/${executionId}?includeData=true`, undefined, { allowError: true });
			return got.status === 200 && got.body?.data ? got.body : undefined;
		},
		{ timeoutMs: 30000 },
	);
}

export { nodeOutput } from '../support/runData';

/**
 * The calls of a delivery that were not answered `200 {started: true}`, one line each with the
 * event's name and the call's number (`expected` tells which answers are expected otherwise).
 */
export function unexpectedAnswers(
	deliveries: Array<{ name: string; answers: Answer[] }>,
	expected: (answer: Answer) => boolean = (a) => a.status === 200 && a.body?.started === true,
): string[] {
	return deliveries.flatMap(({ name, answers }) =>
		answers.flatMap((a, i) => (expected(a) ? [] : [`${name}, call ${i + 1} of ${answers.length}: ${describeAnswer(a)}`])),
	);
}

/**
 * For each execution, the distinct strings matching `pattern` in its saved run data (for
 * example the message ids it started with), read from PostgreSQL.
 */
export async function matchesInExecutionData(n8n: N8nDatabaseUser, executionIds: string[], pattern: RegExp): Promise<Map<string, string[]>> {
	const rows = await queryN8nDatabase<{ executionId: string | number; data: string }>(
		n8n,
		'SELECT "executionId", data FROM execution_data WHERE "executionId" = ANY($1::int[])',
		[executionIds.map(Number)],
	);
	const global = new RegExp(pattern.source, 'g');
	return new Map(rows.map((r) => [String(r.executionId), [...new Set(String(r.data).match(global) ?? [])]]));
}
