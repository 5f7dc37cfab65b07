/**
 * Reads n8n's own database, whichever it runs on: PostgreSQL (queue mode) through the `pg`
 * client of the n8n runtime, SQLite (single mode) through the runtime Node's built-in `node:sqlite`.
 * Tests use it where the public API hides something: executions not yet finished or saved,
 * registered webhook paths, static data.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

import { waitFor } from '../shared/wait';
import { pgQuery, postgresOf } from './postgres';
import { N8N_2, runtimeById } from './runtime';

export interface N8nDatabaseUser {
	userFolder: string;
	env: NodeJS.ProcessEnv;
	/** Which runtime's Node reads SQLite (22.13+ and 24 have node:sqlite built in; default n8n 2.x's). */
	runtime?: string;
}

const SQLITE_SCRIPT = `
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(process.argv[1], { readOnly: true });
// n8n 1.x writes without WAL: a read during its write waits instead of failing ("database is locked")
db.exec('PRAGMA busy_timeout = 10000');
const rows = db.prepare(process.argv[2]).all(...JSON.parse(process.argv[3]));
process.stdout.write(JSON.stringify(rows));
`;

/** Runs a read-only statement (`$1`-style parameters for both engines); returns its rows. */
export async function queryN8nDatabase<T = Record<string, unknown>>(n8n: N8nDatabaseUser, sql: string, params: unknown[] = []): Promise<T[]> {
	const postgres = postgresOf(n8n.env);
	if (postgres) return pgQuery<T>(postgres, sql, params);
	const file = path.join(n8n.userFolder, '.n8n', 'database.sqlite');
	const nodeBin = runtimeById(n8n.runtime ?? N8N_2.id).nodeBin;
	const res = spawnSync(nodeBin, ['--no-warnings', '-e', SQLITE_SCRIPT, file, sql.replace(/\$\d+/g, '?'), JSON.stringify(params)], {
		encoding: 'utf8',
		env: n8n.env,
		maxBuffer: 256 * 1024 * 1024,
	});
	if (res.status !== 0) throw new Error(`reading ${file} failed: ${res.stderr}`);
	return JSON.parse(res.stdout) as T[];
}

export interface ExecutionRow {
	id: string;
	status: string;
	mode: string;
}

const UNFINISHED = new Set(['new', 'running', 'waiting', 'unknown']);

/** Every execution of a workflow as the database has it, oldest first. */
export async function executionsOf(n8n: N8nDatabaseUser, workflowId: string): Promise<ExecutionRow[]> {
	const rows = await queryN8nDatabase<ExecutionRow>(
		n8n,
		'SELECT id, status, mode FROM execution_entity WHERE "workflowId" = $1 ORDER BY id',
		[workflowId],
	);
	return rows.map((r) => ({ ...r, id: String(r.id) }));
}

/**
 * The executions of a workflow once nothing more happens: every one finished, and the count
 * unchanged for `settleMs` (an execution row appears a little after the webhook's answer).
 */
export async function settledExecutions(
	n8n: N8nDatabaseUser,
	workflowId: string,
	opts: { settleMs?: number; timeoutMs?: number } = {},
): Promise<ExecutionRow[]> {
	const settleMs = opts.settleMs ?? 2500;
	let rows: ExecutionRow[] = [];
	let stableSince = Date.now();
	return waitFor(
		() => {
			const open = rows.filter((r) => UNFINISHED.has(r.status)).map((r) => `${r.id}:${r.status}`);
			return `the executions of workflow ${workflowId} to settle: ${rows.length} so far, unfinished ${open.join(', ') || 'none'}`;
		},
		async () => {
			const last = rows.length;
			rows = await executionsOf(n8n, workflowId);
			if (rows.length !== last || rows.some((r) => UNFINISHED.has(r.status))) {
				stableSince = Date.now();
				return false;
			}
			return Date.now() - stableSince >= settleMs && rows;
		},
		{ timeoutMs: opts.timeoutMs ?? 180000, intervalMs: 250 },
	);
}
