/**
 * A real n8n server (from tools/n8n/runtime.ts) with this package installed the way a user's
 * n8n has it: as a community package under `$N8N_USER_FOLDER/.n8n/nodes/node_modules/`, its
 * owner set up and a client for it. The parts, one module each: server.ts (the process),
 * communityPackage.ts (packing and installing), owner.ts, client.ts (the REST client), cli.ts,
 * processes.ts (ports and process groups).
 *
 *   const n8n = await startN8n({ port: 5679 });
 *   const [cred] = await n8n.importCredentials([{ name, type, data }]);
 *   const id = await n8n.importWorkflow(json);
 *   await n8n.activate(id);
 *   await n8n.stop();
 *
 * Everything runs on 127.0.0.1 with n8n's outbound features switched off
 * (see docs/development.md, "What the tools rely on in n8n").
 */
import { connectN8n, BROWSER_ID, type N8nClient, type N8nConnectionInfo } from './client';
import { DEFAULT_OWNER, createApiKey, ownerSession } from './owner';
import { N8N_2 } from './runtime';
import { DEFAULT_ENCRYPTION_KEY, startN8nProcess, type N8nProcessOptions } from './server';

export interface StartN8nOptions extends N8nProcessOptions {
	owner?: { email: string; firstName: string; lastName: string; password: string };
	/** Create a public API key (default true; n8n 1.x in its test mode has no public API). */
	publicApiKey?: boolean;
	/**
	 * Environment for the server process alone, over `env`: not kept in the client's `env` and
	 * `extraEnv`, so the CLI commands and the helper processes started with them (runCli,
	 * queryN8nDatabase) never get it. For what must act in `n8n start` only, such as a
	 * NODE_OPTIONS preload or a profiler (the bench's heap control and --profile).
	 */
	serverEnv?: Record<string, string | undefined>;
}

export interface N8nInstance extends N8nClient {
	/** SIGTERM, wait, then clear its process group (task runner); removes a temp user folder. */
	stop(): Promise<void>;
}

export async function startN8n(opts: StartN8nOptions = {}): Promise<N8nInstance> {
	const server = await startN8nProcess({ ...opts, env: { ...opts.env, ...opts.serverEnv }, role: 'main' });
	try {
		const owner = { ...(opts.owner ?? DEFAULT_OWNER) };
		// Owner account and session, then a public API key (one per label: earlier ones from a
		// persistent folder are replaced).
		const session = await ownerSession(server.url, owner);
		const apiKey = opts.publicApiKey === false ? '' : await createApiKey(server.url, session);
		const info: N8nConnectionInfo = {
			url: server.url,
			port: server.port,
			userFolder: server.userFolder,
			owner,
			apiKey,
			cookie: session,
			browserId: BROWSER_ID,
			encryptionKey: opts.encryptionKey ?? DEFAULT_ENCRYPTION_KEY,
			logFile: server.logFile,
			pid: server.pid,
			extraEnv: opts.env,
			runtime: (opts.runtime ?? N8N_2).id,
		};
		return { ...connectN8n(info), stop: server.stop };
	} catch (err) {
		await server.stop();
		throw err;
	}
}
