/**
 * Send and Wait for Response behind a reverse proxy that serves n8n under a path and strips it
 * (nginx's `location /automation/ { proxy_pass http://n8n:5678/; }`), with the recipe of
 * docs/send-and-wait.md applied: n8n's waiting path keeps the prefix
 * (`N8N_ENDPOINT_WEBHOOK_WAIT=automation/webhook-waiting`), the webhook URL names the proxy
 * without it, and the proxy passes `/automation/webhook-waiting/` unchanged. Without the recipe,
 * n8n signs a link over the path with the prefix and checks it without, and every link opens its
 * "Invalid Form Link" page (measured on 2.41.1; docs/send-and-wait.md).
 *
 * An n8n of its own behind a loopback proxy (tools/n8n/proxy.ts): a published workflow started
 * through the proxy asks the manager; the link in the message points at the proxy; opened there it
 * shows n8n's page, and approve and decline each resume their execution with n8n's own answer.
 */
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';

import { fetchOnOpenConnection, wireCredentials } from '../../tools/n8n/client';
import { startN8n, type N8nInstance } from '../../tools/n8n/instance';
import { freePort } from '../../tools/n8n/processes';
import { startProxy, type WebhookProxy } from '../../tools/n8n/proxy';
import { ARTIFACTS_DIR } from '../../tools/n8n/runtime';
import { sandboxCredentials } from '../../tools/n8n/sandboxCredentials';
import { waitFor } from '../../tools/shared/wait';
import { postAnswer, sendAndWaitWorkflow } from '../support/sendAndWaitWorkflow';
import { e2eRuntime, log } from './environment';
import { env, sandbox } from './support';

jest.setTimeout(300_000);

const runtime = e2eRuntime();
const PREFIX = '/automation';
const WAITING = `${PREFIX}/webhook-waiting/`;
const MANAGER = '+14155550181';

let n8n: N8nInstance;
let proxy: WebhookProxy;
let workflowPath: string;
let workflowId: string;

beforeAll(async () => {
	const port = await freePort();
	proxy = await startProxy({
		port: 0,
		backends: [`http://127.0.0.1:${port}`],
		// The waiting path goes to n8n as it came; everything else under the prefix loses it.
		rewritePath: (asked) => (asked.startsWith(WAITING) ? asked : asked.startsWith(`${PREFIX}/`) ? asked.slice(PREFIX.length) : undefined),
		log,
	});
	n8n = await startN8n({
		port,
		runtime,
		log,
		logFile: path.join(ARTIFACTS_DIR, 'e2e', `send-and-wait-proxy-${runtime.id}.log`),
		env: { N8N_WEBHOOK_URL: `${proxy.url}/`, N8N_ENDPOINT_WEBHOOK_WAIT: WAITING.slice(1, -1) },
	});
	const creds = await n8n.importCredentials(sandboxCredentials(env.sandbox));
	const messaging = creds.find((credential) => credential.type === 'chatAppMessagingApi')!;
	workflowPath = `e2e-behind-a-proxy-${randomUUID()}`;
	const workflow = sendAndWaitWorkflow({ name: 'Send and Wait behind a proxy', path: workflowPath, to: MANAGER, messaging, ask: { message: '={{ "Refund " + $json.body.amount + "?" }}' } });
	workflowId = await n8n.importWorkflow(wireCredentials(workflow, creds));
	await n8n.activate(workflowId);
	await sandbox.configure({ linkPreviews: false });
	await sandbox.inbound(MANAGER, 'Ready for approvals');
}, 180_000);

afterAll(async () => {
	await n8n?.stop();
	await proxy?.close();
});

/** Starts the workflow through the proxy; returns the waiting execution's id and the link the manager received. */
async function ask(amount: string): Promise<{ executionId: string; link: string }> {
	const started = await waitFor('the webhook through the proxy', async () => {
		const res = await fetchOnOpenConnection(`${proxy.url}${PREFIX}/webhook/${workflowPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount }) });
		return res.status !== 404 && res;
	}, { timeoutMs: 10_000, intervalMs: 250 });
	expect(started.status).toBe(200);
	const message = await waitFor('the question with its link', async () => {
		const messages = await sandbox.messages({ phone: MANAGER });
		return messages.find((m) => m.direction === 'outbound' && m.text?.startsWith(`Refund ${amount}?`));
	}, { timeoutMs: 30_000, intervalMs: 500 });
	const link = message.links![0];
	const executionId = new URL(link).pathname.slice(WAITING.length).split('/')[0];
	return { executionId, link };
}

async function answered(executionId: string): Promise<any> {
	return await waitFor(`execution ${executionId} to finish`, async () => {
		const execution = (await n8n.api('GET', `/executions/${executionId}?includeData=true`)).body;
		return execution?.status === 'success' && execution.data?.resultData?.runData?.After?.length > 0 && execution;
	}, { timeoutMs: 30_000, intervalMs: 500 });
}

const approvedBy = (execution: any) => execution.data.resultData.runData.Ask[0].data.main[0][0].json.data.approved;

test.each([
	['approve', true],
	['decline', false],
])('%s through the proxy: the link points at the proxy, opens n8n\'s page there, and the answer resumes the execution', async (answer, approved) => {
	const { executionId, link } = await ask(answer === 'approve' ? '$120' : '$5');
	expect(link).toMatch(new RegExp(`^${proxy.url}${WAITING}${executionId}/[^?]+\\?signature=[0-9a-f]{64}$`));

	// The message can arrive before n8n has saved the execution as waiting: the page answers 409 till then.
	const page = await waitFor('n8n to take the link', async () => {
		const res = await fetchOnOpenConnection(link);
		if (res.status !== 409) return res;
		await res.text();
		return false;
	}, { timeoutMs: 30_000, intervalMs: 500 });
	expect(page.status).toBe(200);
	const html = await page.text();
	expect(html).not.toContain('Invalid Form Link');
	expect(html).toContain(`Refund ${answer === 'approve' ? '$120' : '$5'}?`);

	const response = await postAnswer(link, { answer });
	expect(response.status).toBe(200);
	expect(approvedBy(await answered(executionId))).toBe(approved);
});
