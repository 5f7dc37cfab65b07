/**
 * `npm start` as a user meets it (n8n 2.41, which it runs): every curl line of its banner is run
 * as printed, in order (a trigger of the user's own listening on its Test URL, the sandbox
 * pointed back at the published example, an inbound message, the request log), and the
 * inbound-reply loop must still answer afterwards. A second `npm start` on the same user folder
 * keeps an example the user changed, updates one the user left alone, and says which. The
 * banner says why Settings → Community Nodes does not list the package, and n8n indeed does not.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

import { fetchOnOpenConnection } from '../../tools/n8n/client';
import { STATE_FILE } from '../../tools/n8n/demoExamples';
import { EXAMPLE_DATA, EXAMPLE_FILES, readExample } from '../../tools/n8n/examples';
import { freePort } from '../../tools/n8n/processes';
import { DEFAULT_OWNER } from '../../tools/n8n/owner';
import { SANDBOX_WEBHOOK_AUTH } from '../../tools/n8n/sandboxCredentials';
import { SandboxClient } from '../../tools/sandbox/client';
import { waitFor } from '../../tools/shared/wait';
import { demoApi, startDemo as startNpmStart, stopDemo as stopNpmStart, type Started } from './npmStart';

jest.setTimeout(900_000);

const run = promisify(execFile);
const BROWSER_ID = 'demo-e2e';

let userFolder: string;
let ports: { n8n: number; sandbox: number };
let started: Started | undefined;

/** The banner of a start's output (from its first ===== line). */
const bannerOf = (output: string) => output.slice(output.indexOf('====='));
const curlLines = (banner: string) =>
	banner
		.split('\n')
		.map((line) => line.trim())
		.filter((line) => line.startsWith('curl '));

async function startDemo(): Promise<Started> {
	started = await startNpmStart(ports, userFolder);
	return started;
}

async function stopDemo(): Promise<void> {
	if (!started) return;
	await stopNpmStart(started, ports);
	started = undefined;
}

const n8nUrl = () => `http://127.0.0.1:${ports.n8n}`;
const sandbox = () => new SandboxClient(`http://127.0.0.1:${ports.sandbox}`);

/** The public API, with the key the banner prints. */
const api = (banner: string, method: string, apiPath: string, body?: object) => demoApi(banner, ports, method, apiPath, body);

/** The editor's REST API, signed in as the owner the banner names. */
async function rest(method: string, restPath: string, body?: object): Promise<any> {
	const login = await fetchOnOpenConnection(`${n8nUrl()}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'browser-id': BROWSER_ID },
		body: JSON.stringify({ emailOrLdapLoginId: DEFAULT_OWNER.email, password: DEFAULT_OWNER.password }),
	});
	const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).find((c) => c.startsWith('n8n-auth='))!;
	const res = await fetchOnOpenConnection(`${n8nUrl()}/rest${restPath}`, {
		method,
		headers: { cookie, 'browser-id': BROWSER_ID, ...(body ? { 'content-type': 'application/json' } : {}) },
		body: body ? JSON.stringify(body) : undefined,
	});
	if (!res.ok) throw new Error(`${method} /rest${restPath} -> ${res.status}: ${await res.text()}`);
	return ((await res.json()) as { data: any }).data;
}

async function workflowNamed(banner: string, name: string): Promise<any> {
	const list = (await api(banner, 'GET', `/workflows?${new URLSearchParams({ name })}`)).data as any[];
	return list.find((w) => w.name === name);
}

/** Runs one banner line as a user pastes it into a shell; returns what it printed. */
async function paste(line: string): Promise<string> {
	const { stdout } = await run('bash', ['-c', line]);
	return stdout;
}

/** Waits for the sandbox to have received a reply to `phone` sent after `since` (sandbox request ids grow). */
async function replyTo(phone: string, after: number): Promise<any> {
	return waitFor(
		`a reply to ${phone} in the sandbox's request log`,
		async () =>
			(await sandbox().requests({ method: 'POST', path: '/v1/messages' })).find(
				(r) => r.id > after && (r.body as any)?.to === phone && r.responseStatus === 200,
			),
		{ timeoutMs: 60_000, intervalMs: 250 },
	);
}

const lastRequestId = async () => Math.max(0, ...(await sandbox().requests()).map((r) => r.id));

beforeAll(async () => {
	userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-demo-e2e-'));
	ports = { n8n: await freePort(), sandbox: await freePort() };
});

afterAll(async () => {
	await stopDemo().catch(() => undefined);
	fs.rmSync(userFolder, { recursive: true, force: true });
});

test('every curl line of the banner, run in order, leaves the demo working: the own trigger\'s Test URL, back to the example, an inbound message answered', async () => {
	const { output } = await startDemo();
	const banner = bannerOf(output());
	const lines = curlLines(banner);
	expect(lines).toHaveLength(4);
	const [testUrlLine, backLine, inboundLine, requestLogLine] = lines;
	expect(testUrlLine).toContain('/webhook-test/<path of your trigger>');
	expect(inboundLine).toContain('/_sandbox/inbound');
	expect(requestLogLine).toContain('/_sandbox/requests');

	// A trigger of the user's own: a copy of the reply example, listening on its Test URL as after a click on "Execute workflow".
	const own = JSON.parse(JSON.stringify(readExample(EXAMPLE_FILES.inboundReply)));
	own.name = 'My own reply workflow';
	const trigger = own.nodes.find((n: any) => n.name === 'On Inbound Message');
	trigger.webhookId = randomUUID();
	const example = await workflowNamed(banner, readExample(EXAMPLE_FILES.inboundReply).name);
	const credentialsOf = (name: string) => example.nodes.find((n: any) => n.name === name)?.credentials;
	for (const node of own.nodes) if (node.credentials) node.credentials = credentialsOf(node.name) ?? node.credentials;
	const ownId = (await api(banner, 'POST', '/workflows', { name: own.name, nodes: own.nodes, connections: own.connections, settings: { executionOrder: 'v1' } })).id;
	const listening = await rest('POST', `/workflows/${ownId}/run`, { triggerToStartFrom: { name: 'On Inbound Message' } });
	expect(listening).toEqual(expect.objectContaining({ waitingForWebhook: true }));

	// 1. The sandbox points at the Test URL (the line as printed, with the trigger's path filled in).
	await paste(testUrlLine.replace('<path of your trigger>', `${trigger.webhookId}/chat-app`));
	let after = await lastRequestId();
	await paste(inboundLine);
	const ownExecution = await waitFor(
		'the own trigger\'s test execution',
		async () => ((await api(banner, 'GET', `/executions?workflowId=${ownId}`)).data as any[]).find((e) => e.status === 'success'),
		{ timeoutMs: 60_000, intervalMs: 250 },
	);
	expect(ownExecution.mode).toBe('manual');
	await replyTo(EXAMPLE_DATA.demoPhone, after);

	// 2. Back to the published example, with the header its trigger checks.
	await paste(backLine);
	const webhook = await sandbox().webhook();
	expect(webhook.url).toMatch(new RegExp(`^${n8nUrl()}/webhook/.+/chat-app$`));
	expect(webhook.headers).toEqual({ [SANDBOX_WEBHOOK_AUTH.headerName]: SANDBOX_WEBHOOK_AUTH.secret });

	// 3. An inbound message: the published example answers it.
	after = await lastRequestId();
	const before = (await api(banner, 'GET', `/executions?workflowId=${example.id}`)).data.length;
	await paste(inboundLine);
	const reply = await replyTo(EXAMPLE_DATA.demoPhone, after);
	const deliveries = (await sandbox().flushWebhooks()).filter((d) => d.eventType === 'message.inbound' && d.url === webhook.url);
	expect(deliveries.at(-1)?.status).toBe(200);
	expect((await api(banner, 'GET', `/executions?workflowId=${example.id}`)).data.length).toBe(before + 1);

	// 4. The request log line shows that reply.
	const logged = JSON.parse(await paste(requestLogLine)) as Array<{ id: number }>;
	expect(logged.map((r) => r.id)).toContain(reply.id);
	console.log(`npm start banner: ${lines.length} curl lines run in order; the reply to ${EXAMPLE_DATA.demoPhone} came after each inbound message`);
});

test('Settings → Community Nodes does not list the package, and the banner says why', async () => {
	const banner = bannerOf(started!.output());
	expect(await rest('GET', '/community-packages')).toEqual([]);
	expect(banner).toContain('Settings > Community Nodes lists only the');
	expect(banner).toContain('packages n8n installed itself, so it is not listed there');
});

test('a second npm start on the same user folder keeps the example the user changed, updates one the user left alone, and says which', async () => {
	const banner = bannerOf(started!.output());
	// The user changes the session example in the editor (saved: a new version).
	const session = await workflowNamed(banner, readExample(EXAMPLE_FILES.session).name);
	const plan = session.nodes.find((n: any) => n.name === 'Trip Plan');
	plan.parameters.assignments.assignments.find((a: any) => a.name === 'home').value = 'Rome, Italy';
	await api(banner, 'PUT', `/workflows/${session.id}`, { name: session.name, nodes: session.nodes, connections: session.connections, settings: { executionOrder: 'v1' } });
	// examples/03 changes in the repository (as a pull brings it) while the user left it alone.
	const stateFile = path.join(userFolder, STATE_FILE);
	const state = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
	state[EXAMPLE_FILES.deliveryTracking].source = 'an older version';
	fs.writeFileSync(stateFile, JSON.stringify(state));

	await stopDemo();
	const again = bannerOf((await startDemo()).output());
	const log = started!.output();
	const lineOf = (file: string) => log.split('\n').filter((l) => l.includes(`from examples/${file}`)).at(-1) ?? '';
	expect(lineOf(EXAMPLE_FILES.session)).toContain('kept as you changed it');
	expect(lineOf(EXAMPLE_FILES.deliveryTracking)).toContain('updated to the current examples/ version (you had not changed it)');
	expect(lineOf(EXAMPLE_FILES.statusWebhook)).toContain('as imported before');
	expect(again).toContain(`kept as you changed them: examples/${EXAMPLE_FILES.session}`);

	const kept = await workflowNamed(again, readExample(EXAMPLE_FILES.session).name);
	expect(kept.id).toBe(session.id);
	expect(kept.nodes.find((n: any) => n.name === 'Trip Plan').parameters.assignments.assignments.find((a: any) => a.name === 'home').value).toBe('Rome, Italy');
	// one workflow per example, nothing duplicated
	const all = (await api(again, 'GET', '/workflows?limit=250')).data as any[];
	for (const file of Object.values(EXAMPLE_FILES)) expect(all.filter((w) => w.name === readExample(file).name)).toHaveLength(1);

	// and the reply loop still answers (another contact, whose first message this is)
	const after = await lastRequestId();
	await paste(curlLines(again)[2].replace(EXAMPLE_DATA.demoPhone, EXAMPLE_DATA.closedWindowPhone));
	await replyTo(EXAMPLE_DATA.closedWindowPhone, after);
});
