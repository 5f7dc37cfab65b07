/**
 * Production webhook URLs of an active workflow, read from n8n's own table (`webhook_entity`)
 * so tests use exactly the path n8n registered: with Node 24's built-in `node:sqlite`, or from
 * PostgreSQL when the instance runs on it (queue mode).
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

import type { N8nClient } from './instance';
import { pgQuery, postgresOf } from './postgres';
import { NODE_BIN } from './runtime';

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

const COLUMNS = '"workflowId", "webhookPath", "method", "node", "webhookId"';

const SQLITE_SCRIPT = `
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(process.argv[1], { readOnly: true });
const rows = db.prepare('SELECT ${COLUMNS} FROM webhook_entity').all();
process.stdout.write(JSON.stringify(rows));
`;

export async function webhookRows(n8n: Pick<N8nClient, 'userFolder' | 'env'>): Promise<WebhookRow[]> {
	const postgres = postgresOf(n8n.env);
	if (postgres) {
		const rows = await pgQuery<WebhookRow>(postgres, `SELECT ${COLUMNS} FROM webhook_entity`);
		return rows.map((r) => ({ ...r, workflowId: String(r.workflowId) }));
	}
	const db = path.join(n8n.userFolder, '.n8n', 'database.sqlite');
	const res = spawnSync(NODE_BIN, ['--no-warnings', '-e', SQLITE_SCRIPT, db], {
		encoding: 'utf8',
		env: n8n.env,
	});
	if (res.status !== 0) throw new Error(`reading webhook_entity failed: ${res.stderr}`);
	return JSON.parse(res.stdout).map((r: any) => ({ ...r, workflowId: String(r.workflowId) }));
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
		await new Promise((r) => setTimeout(r, 200));
		rows = (await webhookRows(n8n)).filter((r) => r.workflowId === String(workflowId));
	}
	return rows
		.map((r) => ({
			...r,
			nodeType: typeOf.get(r.node),
			url: `${n8n.webhookBaseUrl}/${r.webhookPath.replace(/^\//, '')}`,
		}));
}
