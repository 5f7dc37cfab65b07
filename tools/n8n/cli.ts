/**
 * n8n's command line (`n8n execute`, `n8n export:nodes`, ...) run against a running instance's
 * database, and the JSON document it prints among its log lines.
 */
import { freePort, groupAlive, releasePort, spawnGroup } from './processes';
import type { N8nRuntime } from './runtime';

export interface CliResult {
	code: number | null;
	/** The signal that ended it, if one did. */
	signal?: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

export interface ExecuteResult extends CliResult {
	/** The parsed JSON n8n printed (the run data), or undefined if none could be parsed. */
	data: any;
	/** A signal ended the CLI after it had printed the finished run; `code` is then what the run's outcome gives. */
	endedBySignalAfterRun?: boolean;
}

/**
 * Finds the JSON document n8n printed among its log lines. Its task runner can log a line after
 * the document ("Registered runner ..."), so the document ends at a closing bracket line, not
 * necessarily at the end of the output.
 */
export function parseCliJson(stdout: string): any {
	const lines = stdout.split('\n');
	for (let i = 0; i < lines.length; i++) {
		const t = lines[i].trimStart();
		if (!(t.startsWith('{') || t.startsWith('['))) continue;
		for (let end = lines.length - 1; end >= i; end--) {
			if (end !== lines.length - 1 && !/^[}\]]\s*$/.test(lines[end])) continue;
			try {
				return JSON.parse(lines.slice(i, end + 1).join('\n').trim());
			} catch {
				// not the whole document; try a shorter one, then the next start
			}
		}
	}
	return undefined;
}

export /** Runs `n8n <args>` against the same database, with its own task-runner broker port. */
async function runCli(
	runtime: N8nRuntime,
	baseEnv: NodeJS.ProcessEnv,
	args: string[],
	timeoutMs = 120000,
): Promise<CliResult> {
	const brokerPort = await freePort();
	const env = { ...baseEnv, ...runtime.cliEnv, N8N_RUNNERS_BROKER_PORT: String(brokerPort) };
	return new Promise<CliResult>((resolve, reject) => {
		const child = spawnGroup(runtime.nodeBin, [runtime.n8nBin, ...args], {
			cwd: runtime.n8nDir,
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout!.on('data', (d) => (stdout += d));
		child.stderr!.on('data', (d) => (stderr += d));
		const timer = setTimeout(() => {
			try {
				process.kill(-child.pid!, 'SIGKILL');
			} catch {
				// gone
			}
			reject(new Error(`n8n ${args.join(' ')} timed out after ${timeoutMs} ms\n${stdout}\n${stderr}`));
		}, timeoutMs);
		child.on('error', (err) => {
			clearTimeout(timer);
			reject(err);
		});
		child.on('exit', (code, signal) => {
			clearTimeout(timer);
			// the CLI's task runner, if it left one behind
			if (groupAlive(child.pid!)) {
				try {
					process.kill(-child.pid!, 'SIGKILL');
				} catch {
					// gone
				}
			}
			resolve({ code, signal, stdout, stderr });
		});
	}).finally(() => releasePort(brokerPort));
}
