/** Helpers shared by the e2e test files (not a test file itself). */
import { SandboxClient } from '../sandbox/client';
import { loadE2eEnv } from '../n8n/e2e';
import type { N8nClient, StoredCredential } from '../n8n/instance';

export const env = loadE2eEnv();
export const n8n: N8nClient = env.client;
export const sandbox = new SandboxClient(env.sandbox.url);
export const creds: StoredCredential[] = Object.values(env.credentials);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);

/**
 * Waits until the workflow has `count` finished executions (newest first), then a little longer
 * to be sure no further one starts. Fails if more appear than expected.
 */
export async function waitForExecutions(workflowId: string, count: number, timeoutMs = 20000): Promise<any[]> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const list = await n8n.executions(workflowId);
		const done = list.filter((e) => FINISHED.has(e.status));
		if (done.length >= count && done.length === list.length) return list;
		if (Date.now() > deadline) {
			throw new Error(
				`expected ${count} finished executions of workflow ${workflowId}, found ${list.length} ` +
					`(${list.map((e) => e.status).join(', ')}) after ${timeoutMs} ms`,
			);
		}
		await sleep(250);
	}
}

export { nodeOutput } from '../n8n/runData';

/** The same, from the run data `n8n execute --rawOutput` printed. */
export function cliNodeOutput(data: any, nodeName: string): any[] {
	const runs = data?.resultData?.runData?.[nodeName] ?? data?.data?.resultData?.runData?.[nodeName];
	if (!runs) return [];
	return (runs[0]?.data?.main?.[0] ?? []).map((i: any) => i.json);
}

export { sleep };
