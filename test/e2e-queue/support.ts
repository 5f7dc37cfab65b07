/** Helpers of the queue-mode suite (not a test file itself). */
import { randomUUID } from 'node:crypto';

import { DIGEST_LENGTH, ENTRY_LENGTH, STORED_MEMORY_KEY, type StoredMemory } from '../../nodes/ChatAppMessagingTrigger/deliveryMemory';
import { executionsOf, queryN8nDatabase, type N8nDatabaseUser } from '../../tools/n8n/database';
import { NODE_TYPES, type N8nClient, type N8nProcess, type WorkflowJson } from '../../tools/n8n/instance';
import { waitFor } from '../../tools/shared/wait';
import { webhookUrlsOf } from '../../tools/n8n/webhooks';

export interface Answer {
	status: number;
	body: any;
}

/** POSTs one JSON delivery; the answer's status and parsed body. */
export async function post(url: string, payload: unknown, headers: Record<string, string> = {}): Promise<Answer> {
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: JSON.stringify(payload),
	});
	const text = await res.text();
	let body: any = text;
	try {
		body = JSON.parse(text);
	} catch {
		// keep the text
	}
	return { status: res.status, body };
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
			for (let i = 0; i < keys.length; i += ENTRY_LENGTH) digests.add(keys.slice(i, i + DIGEST_LENGTH));
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

export { nodeOutput } from '../../tools/n8n/runData';
