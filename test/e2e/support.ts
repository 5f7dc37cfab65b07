/** Helpers shared by the e2e test files (not a test file itself). */
import { SandboxClient } from '../../tools/sandbox/client';
import { loadE2eEnv } from '../../tools/n8n/e2e';
import type { N8nClient, StoredCredential } from '../../tools/n8n/instance';

export const env = loadE2eEnv();
export const n8n: N8nClient = env.client;
export const sandbox = new SandboxClient(env.sandbox.url);
export const creds: StoredCredential[] = Object.values(env.credentials);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);

/** Polls the workflow's executions (newest first) until `done(list)` holds. */
export async function waitForExecutionsWhere(
	workflowId: string,
	what: string,
	done: (list: any[]) => boolean,
	timeoutMs = 30000,
): Promise<any[]> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const list = await n8n.executions(workflowId);
		if (done(list)) return list;
		if (Date.now() > deadline) {
			const counts: Record<string, number> = {};
			for (const e of list) counts[`${e.mode} ${e.status}`] = (counts[`${e.mode} ${e.status}`] ?? 0) + 1;
			throw new Error(`workflow ${workflowId}: no ${what} after ${timeoutMs} ms; executions (mode status: count): ${JSON.stringify(counts)}`);
		}
		await sleep(250);
	}
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

export { nodeOutput } from '../../tools/n8n/runData';

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
