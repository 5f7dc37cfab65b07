/**
 * The size of a workflow's static data as n8n stores it (`workflow_entity.staticData`), read
 * from n8n's SQLite database with Node 24's built-in `node:sqlite`: what the trigger's repeat
 * memory costs in storage, and what n8n writes back after each execution that changes it.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

import type { N8nClient } from '../n8n/instance';
import { NODE_BIN } from '../n8n/runtime';

const SCRIPT = `
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(process.argv[1], { readOnly: true });
const row = db.prepare('SELECT "staticData" FROM workflow_entity WHERE id = ?').get(process.argv[2]);
const data = row && row.staticData;
process.stdout.write(String(data == null ? 0 : Buffer.byteLength(typeof data === 'string' ? data : JSON.stringify(data))));
`;

/** Bytes of the workflow's stored static data (0 when it has none). */
export function staticDataBytes(n8n: Pick<N8nClient, 'userFolder' | 'env'>, workflowId: string): number {
	const db = path.join(n8n.userFolder, '.n8n', 'database.sqlite');
	const res = spawnSync(NODE_BIN, ['--no-warnings', '-e', SCRIPT, db, workflowId], { encoding: 'utf8', env: n8n.env });
	if (res.status !== 0) throw new Error(`reading the static data of workflow ${workflowId} failed: ${res.stderr}`);
	return Number(res.stdout);
}
