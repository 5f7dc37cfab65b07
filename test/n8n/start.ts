/**
 * `npm start`: the sandbox and a real n8n with this package, ready to click through.
 *
 * After `npm run build`: installs Node 24 + n8n the first time (.n8n-runtime/), starts the
 * sandbox on 127.0.0.1:4010 (seeded with the examples' events and contacts, and one timeline
 * with an anchor and an item) and n8n on 127.0.0.1:5678 with this package installed as a
 * community package, an owner account, both credentials pointing at the sandbox, and every
 * examples/*.json imported (credentials wired). Ctrl-C stops both.
 *
 * The user folder is persistent (.n8n-runtime/user): what you build in the editor survives a
 * restart. The package is re-packed and re-installed on every start; credentials and example
 * workflows are updated in place, never duplicated.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import {
	NODE_TYPES,
	portIsFree,
	startN8n,
	wireCredentials,
	type N8nInstance,
	type StoredCredential,
	type WorkflowJson,
} from './instance';
import { PROJECT_ROOT, RUNTIME_DIR, ensureRuntime } from './runtime';
import { EXAMPLE_DATA, seedDemoTimeline, seedExampleData } from './examples';
import { SANDBOX_CREDENTIAL_NAMES, sandboxCredentials, webhookHeadersFor } from './sandboxCredentials';
import { webhookUrlsOf } from './webhooks';

const N8N_PORT = Number(process.env.N8N_PORT_START ?? 5678);
const SANDBOX_PORT = Number(process.env.SANDBOX_PORT ?? 4010);

type Sandbox = {
	url: string;
	port: number;
	timelineKey: string;
	messagingKey: string;
	client: any;
	close(): Promise<void> | void;
};

function log(line: string) {
	console.log(line);
}

export function readExamples(dir = process.env.EXAMPLES_DIR ?? path.join(PROJECT_ROOT, 'examples')): Array<{ file: string; json: WorkflowJson }> {
	if (!fs.existsSync(dir)) return [];
	return fs
		.readdirSync(dir)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((f) => ({ file: f, json: JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as WorkflowJson }));
}

export function isTriggerWorkflow(json: WorkflowJson): boolean {
	return json.nodes.some((n) => n.type === NODE_TYPES.trigger);
}

async function main() {
	const t0 = Date.now();
	let sandbox: Sandbox | undefined;
	let n8n: N8nInstance | undefined;
	let stopping: Promise<void> | undefined;

	const shutdown = (why: string) => {
		if (!stopping) {
			stopping = (async () => {
				log(`\n[start] ${why}: stopping n8n and the sandbox ...`);
				try {
					await n8n?.stop();
				} catch (err) {
					console.error('[start] stopping n8n:', err);
				}
				try {
					await sandbox?.close();
				} catch (err) {
					console.error('[start] stopping the sandbox:', err);
				}
				log('[start] stopped.');
			})();
		}
		return stopping;
	};
	for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.on(sig, () => {
			void shutdown(sig).then(() => process.exit(0));
		});
	}

	try {
		await ensureRuntime({ log });

		// 1. The sandbox.
		const { startSandbox } = await import('../sandbox/server');
		const port = (await portIsFree(SANDBOX_PORT)) ? SANDBOX_PORT : 0;
		if (port === 0) log(`[start] port ${SANDBOX_PORT} is busy; the sandbox takes a free port`);
		sandbox = (await startSandbox({ port })) as Sandbox;
		log(`[start] sandbox on ${sandbox.url}`);
		// What the example workflows need: events at their location in the last day, contacts;
		// and a timeline (with an anchor and an item) for the editor's timeline pickers.
		const events = await seedExampleData(sandbox.client);
		const timeline = await seedDemoTimeline(sandbox);
		const sandboxData =
			`timeline "${EXAMPLE_DATA.timeline.name}" (${timeline.timelineId}) with an anchor and an item; ` +
			`${events.length} events at ${EXAMPLE_DATA.location} in the last day; ` +
			`contacts ${EXAMPLE_DATA.contacts.map((c) => `${c.phone} (${c.fields.first_name})`).join(', ')}`;
		log(`[start] sandbox seeded: ${sandboxData}`);

		// 2. n8n with the package, in a persistent user folder.
		n8n = await startN8n({
			port: N8N_PORT,
			userFolder: path.join(RUNTIME_DIR, 'user'),
			logFile: path.join(PROJECT_ROOT, '.artifacts', 'n8n', 'npm-start.log'),
			log,
		});

		// 3. Credentials pointing at the sandbox (updated in place on restart).
		const creds: StoredCredential[] = await n8n.importCredentials(sandboxCredentials(sandbox));
		log(`[start] credentials: ${creds.map((c) => `"${c.name}" (${c.id})`).join(', ')}`);

		// 4. Example workflows; the trigger workflow is activated and receives the sandbox's webhooks.
		const examples = readExamples();
		if (examples.length === 0) log('[start] examples/ holds no workflow yet: nothing to import');
		let webhookTarget: string | undefined;
		let replyWorkflow: string | undefined;
		let webhookHeaders: Record<string, string> = {};
		for (const { file, json } of examples) {
			const id = await n8n.importWorkflow(wireCredentials(json, creds));
			let note = '';
			if (isTriggerWorkflow(json) && !webhookTarget) {
				try {
					await n8n.activate(id);
					const urls = await webhookUrlsOf(n8n, id);
					webhookTarget = urls.find((u) => u.nodeType === NODE_TYPES.trigger)?.url;
					webhookHeaders = webhookHeadersFor(json);
					replyWorkflow = json.name;
					note = webhookTarget ? `, active, webhook ${webhookTarget}` : ', active';
				} catch (err) {
					note = `, could not activate: ${(err as Error).message.split('\n')[0]}`;
				}
			}
			log(`[start] workflow "${json.name}" from examples/${file}: ${n8n.url}/workflow/${id}${note}`);
		}
		if (webhookTarget) {
			await sandbox.client.setWebhook(webhookTarget, webhookHeaders);
			const h = Object.keys(webhookHeaders);
			log(`[start] the sandbox sends its webhooks to ${webhookTarget}${h.length ? ` with ${h.join(', ')}` : ''}`);
		}

		const inboundCurl =
			`curl -s -X POST ${sandbox.url}/_sandbox/inbound -H 'content-type: application/json' ` +
			`-d '{"from":"${EXAMPLE_DATA.demoPhone}","text":"Hello from the sandbox"}'`;
		const repliesCurl = `curl -s '${sandbox.url}/_sandbox/requests?method=POST&path=/v1/messages'`;
		const webhookCurl =
			`curl -s -X POST ${sandbox.url}/_sandbox/webhook -H 'content-type: application/json' ` +
			`-d '{"url":"${n8n.webhookBaseUrl}/<path of your trigger>"}'`;
		const lines = [
			'',
			'==================================================================================',
			` n8n editor:   ${n8n.url}/`,
			` login:        ${n8n.owner.email}  /  ${n8n.owner.password}`,
			` sandbox:      ${sandbox.url}   (timeline key ${sandbox.timelineKey}, messaging key ${sandbox.messagingKey})`,
			` sandbox data: ${sandboxData}`,
			` credentials:  ${Object.values(SANDBOX_CREDENTIAL_NAMES).map((n) => `"${n}"`).join(', ')}`,
			` node types:   ${NODE_TYPES.action}, ${NODE_TYPES.trigger}`,
			` public API:   ${n8n.url}/api/v1  (X-N8N-API-KEY: ${n8n.apiKey})`,
			` n8n log:      ${path.relative(PROJECT_ROOT, n8n.logFile)}`,
			'',
			webhookTarget
				? ` webhooks:     the sandbox posts to ${webhookTarget}`
				: ' webhooks:     no active trigger workflow yet. Activate one, then point the sandbox at\n' +
					`               its production URL:\n   ${webhookCurl}`,
			' simulate an inbound message:',
			`   ${inboundCurl}`,
			...(webhookTarget
				? [
						` see the reply: the executions of "${replyWorkflow}" at ${n8n.url}/home/executions,`,
						'   and the messages the sandbox received (its request log):',
						`   ${repliesCurl}`,
					]
				: []),
			'',
			` ready in ${((Date.now() - t0) / 1000).toFixed(1)} s. Ctrl-C stops n8n and the sandbox.`,
			'==================================================================================',
		];
		log(lines.join('\n'));
	} catch (err) {
		console.error('[start] failed:', err instanceof Error ? err.message : err);
		await shutdown('error');
		process.exit(1);
	}
}

void main();
