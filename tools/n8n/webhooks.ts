/**
 * Production webhook URLs of an active workflow, read from n8n's own table (`webhook_entity`)
 * (SQLite or PostgreSQL, see database.ts), so tests use exactly the path n8n registered.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { queryN8nDatabase, type N8nDatabaseUser } from './database';
import type { N8nClient } from './client';

export interface WebhookRow {
	workflowId: string;
	webhookPath: string;
	method: string;
	node: string;
	webhookId: string | null;
}

export interface WebhookUrl extends WebhookRow {
	nodeType?: string;
	url: string;
}

export async function webhookRows(n8n: N8nDatabaseUser): Promise<WebhookRow[]> {
	const rows = await queryN8nDatabase<WebhookRow>(
		n8n,
		'SELECT "workflowId", "webhookPath", "method", "node", "webhookId" FROM webhook_entity',
	);
	return rows.map((r) => ({ ...r, workflowId: String(r.workflowId) }));
}

/**
 * The production webhook URLs of one workflow. n8n registers them when the workflow is
 * activated (and re-registers them after an update), so this waits up to `waitMs` for them.
 */
export async function webhookUrlsOf(n8n: N8nClient, workflowId: string, waitMs = 5000): Promise<WebhookUrl[]> {
	const wf = (await n8n.api('GET', `/workflows/${workflowId}`)).body;
	const typeOf = new Map<string, string>((wf.nodes ?? []).map((n: any) => [n.name, n.type]));
	const deadline = Date.now() + waitMs;
	let rows = (await webhookRows(n8n)).filter((r) => r.workflowId === String(workflowId));
	while (rows.length === 0 && Date.now() < deadline) {
		await sleep(200);
		rows = (await webhookRows(n8n)).filter((r) => r.workflowId === String(workflowId));
	}
	return rows
		.map((r) => ({
			...r,
			nodeType: typeOf.get(r.node),
			url: `${n8n.webhookBaseUrl}/${r.webhookPath.replace(/^\//, '')}`,
		}));
}
