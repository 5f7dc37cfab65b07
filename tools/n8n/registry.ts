/**
 * A local npm registry on loopback (verdaccio, installed by runtime.ts into .n8n-runtime/verdaccio)
 * that stores what is published to it in a temporary folder and has no uplink: it never asks
 * another registry, so a package is found there only if it was published there.
 *
 *   const registry = await startRegistry();
 *   await registry.publish(tarball);       // npm publish, as a maintainer does
 *   ...                                    // n8n installs from registry.url
 *   await registry.stop();
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { waitFor } from '../shared/wait';
import { freePort, releasePort, spawnGroup } from './processes';
import { N8N_2, VERDACCIO, ensureNpmTool, runtimeEnv, type Log } from './runtime';

export interface LocalRegistry {
	/** http://127.0.0.1:<port> */
	url: string;
	/** `npm publish` of a packed tarball or a package folder, with the registry user's token. */
	publish(tarball: string): void;
	/** The versions of a package the registry holds (its packument), or [] if it has none. */
	versions(name: string): Promise<string[]>;
	/** The registry's own log so far. */
	logs(): string;
	stop(): Promise<void>;
}

const USER = { name: 'timeline-navigation-publisher', password: 'local-registry-only-1' };

function config(storage: string, port: number): string {
	// Anyone may read (n8n's npm sends no token); publishing needs the registry user's token.
	return [
		`storage: ${JSON.stringify(storage)}`,
		'auth:',
		'  htpasswd:',
		`    file: ${JSON.stringify(path.join(storage, 'htpasswd'))}`,
		'    max_users: 1',
		'uplinks: {}',
		'packages:',
		"  '**':",
		'    access: $all',
		'    publish: $authenticated',
		'    unpublish: $authenticated',
		`listen: 127.0.0.1:${port}`,
		'log: { type: stdout, format: pretty, level: http }',
		'',
	].join('\n');
}

/** npm without the variables an outer `npm run` exports (they carry the project's npm config). */
function plainNpmEnv(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
	return env;
}

export async function startRegistry(opts: { log?: Log } = {}): Promise<LocalRegistry> {
	const log = opts.log ?? ((line: string) => process.stderr.write(line + '\n'));
	const bin = await ensureNpmTool(VERDACCIO, { log });
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-registry-'));
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const configFile = path.join(dir, 'config.yaml');
	fs.writeFileSync(configFile, config(path.join(dir, 'storage'), port));
	const logFile = path.join(dir, 'verdaccio.log');
	const out = fs.openSync(logFile, 'a');
	const child = spawnGroup(N8N_2.nodeBin, [bin, '--config', configFile], {
		cwd: dir,
		env: runtimeEnv(),
		stdio: ['ignore', out, out],
	});
	fs.closeSync(out);
	let exited = false;
	const exit = new Promise<void>((resolve) =>
		child.on('exit', () => {
			exited = true;
			resolve();
		}),
	);
	const logs = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '');
	const stop = async () => {
		if (!exited) {
			try {
				process.kill(-child.pid!, 'SIGTERM');
			} catch {
				// gone
			}
			await Promise.race([exit, sleep(5000, undefined, { ref: false })]);
			if (!exited) process.kill(-child.pid!, 'SIGKILL');
		}
		releasePort(port);
		fs.rmSync(dir, { recursive: true, force: true });
	};

	try {
		await waitFor(
			() => `verdaccio to answer on ${url}:\n${logs()}`,
			async () => {
				if (exited) throw new Error(`verdaccio exited during start:\n${logs()}`);
				return (await fetch(`${url}/-/ping`).catch(() => undefined))?.ok;
			},
			{ timeoutMs: 60_000 },
		);
		// The publisher's account (npm adduser does the same request).
		const res = await fetch(`${url}/-/user/org.couchdb.user:${USER.name}`, {
			method: 'PUT',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ name: USER.name, password: USER.password }),
		});
		const token = ((await res.json()) as { token?: string }).token;
		if (!res.ok || !token) throw new Error(`creating the registry user failed (${res.status})`);
		log(`[registry] verdaccio on ${url} (storage ${dir}, no uplink)`);

		return {
			url,
			publish: (tarball) => {
				const publish = spawnSync(
					'npm',
					['publish', tarball, `--registry=${url}`, `--//127.0.0.1:${port}/:_authToken=${token}`, '--ignore-scripts'],
					{ cwd: dir, encoding: 'utf8', env: plainNpmEnv() },
				);
				if (publish.status !== 0) {
					throw new Error(`npm publish ${path.basename(tarball)} failed:\n${publish.stdout}\n${publish.stderr}`);
				}
				log(`[registry] published ${path.basename(tarball)}`);
			},
			versions: async (name) => {
				const packument = await fetch(`${url}/${name}`);
				if (packument.status === 404) return [];
				return Object.keys(((await packument.json()) as { versions: object }).versions);
			},
			logs,
			stop,
		};
	} catch (err) {
		await stop();
		throw err;
	}
}
