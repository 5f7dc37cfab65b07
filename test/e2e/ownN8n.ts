/**
 * An n8n of a test file's own, for files that restart or crash it: a user folder of its own kept
 * across restarts, a free port, its log in .artifacts/e2e/<name>-<runtime>.log; started before
 * the file's tests and stopped (its folder removed) after them.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { startN8n, type N8nInstance } from '../../tools/n8n/instance';
import { freePort } from '../../tools/n8n/processes';
import { ARTIFACTS_DIR } from '../../tools/n8n/runtime';
import { e2eRuntime, log } from './environment';

export interface OwnN8n {
	/** The running n8n (a new instance after each restart). */
	readonly n8n: N8nInstance;
	/** n8n's own shutdown (SIGTERM), `between` while it is down, then a new start on the same database. */
	restart(between?: () => Promise<void>): Promise<void>;
	/** A crash: SIGKILL to n8n and its task runner, nothing saved on the way out; then a new start. */
	crash(): Promise<void>;
}

export function useOwnN8n(name: string): OwnN8n {
	const runtime = e2eRuntime();
	let n8n: N8nInstance | undefined;
	let userFolder = '';
	let port = 0;
	const start = async () => {
		n8n = await startN8n({ port, userFolder, runtime, log, logFile: path.join(ARTIFACTS_DIR, 'e2e', `${name}-${runtime.id}.log`) });
	};
	beforeAll(async () => {
		userFolder = fs.mkdtempSync(path.join(os.tmpdir(), `n8n-e2e-${name}-`));
		port = await freePort();
		await start();
	}, 300_000);
	afterAll(async () => {
		await n8n?.stop();
		if (userFolder) fs.rmSync(userFolder, { recursive: true, force: true });
	}, 120_000);
	return {
		get n8n() {
			if (!n8n) throw new Error(`the n8n of ${name} is not started`);
			return n8n;
		},
		async restart(between = async () => {}) {
			await n8n?.stop();
			await between();
			await start();
		},
		async crash() {
			process.kill(-n8n!.pid, 'SIGKILL');
			await n8n!.stop(); // waits for the exit; the user folder stays
			await start();
		},
	};
}
