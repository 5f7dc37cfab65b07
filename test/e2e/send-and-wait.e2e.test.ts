/**
 * Message → Send and Wait for Response in real n8n: a published workflow (Webhook → Ask → After)
 * runs and waits; the sandbox holds the question with its link, and its link-preview bot fetches
 * every link; headless Chromium opens the link as the person would (screenshots in
 * .artifacts/e2e/), answers, and the execution goes on with the answer. A forged link is
 * refused, a second answer starts nothing, and Limit Wait Time ends the wait by itself.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { fetchOnOpenConnection } from '../../tools/n8n/client';
import { EXAMPLE_DATA, EXAMPLE_FILES, importExample, seedExampleData } from '../../tools/n8n/examples';
import { postAnswer, sendAndWaitWorkflow } from '../support/sendAndWaitWorkflow';
import { openBrowser, type Editor } from './browserSupport';
import { creds, env, executionsWithWaiting, n8n, nodeOutput, postToWebhook, runFromEditor, sandbox, waitForExecutionsWhere } from './support';

const CUSTOMER = '+14155550177';
const VERSION = env.versions.n8n.replace(/\./g, '-');

interface Scenario {
	id: string;
	path: string;
}

const scenarios: Record<string, Scenario> = {};
const definitions: Record<string, Record<string, unknown>> = {
	approval: {
		message: '={{ "Refund " + $json.body.amount + " for order " + $json.body.order + "?" }}',
		approvalOptions: { values: { approvalType: 'double', approveLabel: 'Approve refund', disapproveLabel: 'Reject' } },
		options: { responseFormTitle: 'Refund approval' },
	},
	freeText: { message: 'Why was order #1042 late?', responseType: 'freeText' },
	customForm: {
		message: 'How should we handle order #1042?',
		responseType: 'customForm',
		formFields: {
			values: [
				{ fieldLabel: 'Decision', fieldType: 'radio', fieldOptions: { values: [{ option: 'Refund' }, { option: 'Replace' }] }, requiredField: true },
				{ fieldLabel: 'Amount', fieldType: 'number' },
				{ fieldLabel: 'Note', fieldType: 'textarea' },
			],
		},
	},
	timeout: {
		message: 'Approve within a few seconds?',
		options: { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 0.05, resumeUnit: 'minutes' } } },
	},
};

let browser: Editor;

beforeAll(async () => {
	await sandbox.reset();
	await sandbox.setWebhook(null);
	await seedExampleData(sandbox);
	for (const [key, parameters] of Object.entries(definitions)) {
		const path = `e2e-send-and-wait-${key}-${randomUUID()}`;
		const workflow = sendAndWaitWorkflow({ name: `Send and Wait: ${key}`, path, to: CUSTOMER, messaging: env.credentials.messaging, ask: parameters });
		const id = await n8n.importWorkflow(workflow);
		await n8n.activate(id);
		scenarios[key] = { id, path };
	}
	browser = await openBrowser();
	// A phone's screen: the pages are meant to be read there.
	await browser.page.setViewportSize({ width: 390, height: 844 });
});

afterAll(async () => {
	await browser?.close();
	await sandbox.configure({ linkPreviews: false, linkPreviewDelayMs: 0 });
	for (const { id } of Object.values(scenarios)) await n8n.deactivate(id);
});

beforeEach(async () => {
	// The bot comes when the message reaches the phone, by then n8n has saved the execution as
	// waiting (a fetch while it still runs gets n8n's 409 and answers nothing either).
	await sandbox.configure({ linkPreviews: true, linkPreviewDelayMs: 2000 });
	await sandbox.inbound(CUSTOMER, 'Hi');
});

interface Waiting {
	executionId: string;
	link: string;
	message: Awaited<ReturnType<typeof sandbox.messages>>[number];
}

/** Polls the scenario's executions (waiting ones included) until `done(list)` holds. */
const executionsWhere = (key: string, what: string, done: (list: any[]) => boolean, timeoutMs = 30000) =>
	waitForExecutionsWhere(scenarios[key].id, what, done, timeoutMs, executionsWithWaiting);

/** Starts the scenario's workflow and returns its waiting execution and the question's link. */
async function ask(key: string, body: object = {}): Promise<Waiting> {
	const before = new Set((await executionsWithWaiting(scenarios[key].id)).map((e) => String(e.id)));
	expect((await postToWebhook(scenarios[key].path, body)).status).toBe(200);
	const list = await executionsWhere(key, 'new waiting execution', (all) => all.some((e) => !before.has(String(e.id)) && e.status === 'waiting'));
	const execution = list.find((e) => !before.has(String(e.id)))!;
	const messages = await sandbox.messages({ phone: CUSTOMER });
	const message = messages.find((m) => m.direction === 'outbound' && (m.links ?? []).some((l) => l.includes(`/webhook-waiting/${execution.id}/`)));
	if (!message) throw new Error(`no message in the sandbox links execution ${execution.id}: ${JSON.stringify(messages.map((m) => m.text))}`);
	return { executionId: String(execution.id), link: message.links![0], message };
}

async function executionOf(key: string, executionId: string): Promise<any> {
	return (await n8n.api('GET', `/executions/${executionId}?includeData=true`)).body;
}

/**
 * Polls until the execution has ended and its run data is saved (n8n 1.x writes the status and
 * the run data one after the other: the last node's run shows the data is there), and returns it.
 */
async function finished(key: string, executionId: string, timeoutMs = 30000): Promise<any> {
	const ended = (execution: any) =>
		execution?.status === 'error' || (execution?.status === 'success' && execution.data?.resultData?.runData?.After?.length > 0);
	const list = await executionsWhere(key, `end of execution ${executionId}`, (all) => ended(all.find((e) => String(e.id) === executionId)), timeoutMs);
	return list.find((e) => String(e.id) === executionId);
}

async function open(link: string): Promise<Page> {
	const { page } = browser;
	const response = await page.goto(link);
	expect(response?.status()).toBe(200);
	return page;
}

test('approval: the question waits, the preview bot\'s fetch answers nothing, Chromium approves → approved true', async () => {
	const { executionId, link, message } = await ask('approval', { amount: '$120', order: '#1042' });

	expect(message.text).toBe(`Refund $120 for order #1042?\n\nApprove refund or Reject: ${link}`);
	expect(link).toMatch(new RegExp(`^${n8n.url}/webhook-waiting/${executionId}/[0-9a-f-]{36}\\?signature=[0-9a-f]{64}$`));
	// The chat app's preview bot has fetched the link (and got the page), and nothing went on.
	expect(message.previews?.map((p) => [p.status, p.title])).toEqual([[200, 'Refund approval']]);
	expect((await executionOf('approval', executionId)).status).toBe('waiting');

	const page = await open(link);
	await page.getByText('Refund $120 for order #1042?').waitFor();
	await browser.shot(`send-and-wait-${VERSION}-approval.png`);
	expect((await executionOf('approval', executionId)).status).toBe('waiting');

	await page.getByRole('button', { name: 'Approve refund' }).click();
	await page.getByText('Your answer was recorded: Approve refund.').waitFor();
	await browser.shot(`send-and-wait-${VERSION}-approval-recorded.png`);
	const execution = await finished('approval', executionId);
	expect(execution.status).toBe('success');
	expect(nodeOutput(execution, 'Ask')).toEqual([{ data: { approved: true, respondedAt: expect.any(String) } }]);
	expect(nodeOutput(execution, 'After')).toHaveLength(1);
});

test('approval: Chromium declines → approved false; a second answer starts nothing and says so', async () => {
	const { executionId, link } = await ask('approval', { amount: '$5', order: '#7' });

	const page = await open(link);
	await page.getByRole('button', { name: 'Reject' }).click();
	await page.getByText('Your answer was recorded: Reject.').waitFor();
	const execution = await finished('approval', executionId);
	expect(nodeOutput(execution, 'Ask')).toEqual([{ data: { approved: false, respondedAt: expect.any(String) } }]);

	// The same link again, opened and answered: n8n's own page, and no second run.
	await page.goto(link);
	await page.getByText('No action required').waitFor();
	await browser.shot(`send-and-wait-${VERSION}-answered-again.png`);
	const again = await postAnswer(link, { answer: 'approve' });
	expect(again.status).toBe(200);
	expect(await again.text()).toContain('No action required');
	const after = await executionOf('approval', executionId);
	expect(after.status).toBe('success');
	expect(nodeOutput(after, 'Ask')).toEqual([{ data: { approved: false, respondedAt: expect.any(String) } }]);
	expect(after.data.resultData.runData.Ask).toHaveLength(1);
});

test('a forged link is refused and answers nothing', async () => {
	const { executionId, link } = await ask('approval', { amount: '$9', order: '#9' });

	const forged = link.replace(/signature=([0-9a-f])/, (_all, c: string) => `signature=${c === 'a' ? 'b' : 'a'}`);
	const unsigned = link.replace(/\?signature=.*$/, '');
	for (const url of [forged, unsigned]) {
		const opened = await fetchOnOpenConnection(url);
		expect(opened.status).toBe(401);
		const posted = await postAnswer(url, { answer: 'approve' });
		expect(posted.status).toBe(401);
	}
	const page = await open(link);
	await page.goto(forged);
	await browser.shot(`send-and-wait-${VERSION}-forged.png`);
	expect((await executionOf('approval', executionId)).status).toBe('waiting');
});

test('free text filled in Chromium → data.text', async () => {
	const { executionId, link } = await ask('freeText');

	const page = await open(link);
	await page.getByLabel('Your answer').fill('The courier was late.');
	await browser.shot(`send-and-wait-${VERSION}-free-text.png`);
	await page.getByRole('button', { name: 'Submit' }).click();
	await page.getByText('Your answer was recorded.').waitFor();
	const execution = await finished('freeText', executionId);
	expect(nodeOutput(execution, 'Ask')).toEqual([{ data: { text: 'The courier was late.', respondedAt: expect.any(String) } }]);
});

test('custom form filled in Chromium → the fields by name; a missing required field keeps it waiting', async () => {
	const { executionId, link } = await ask('customForm');

	const page = await open(link);
	await page.getByLabel('Amount').fill('12.5');
	await page.getByLabel('Note').fill('Sorry for the delay');
	// The browser itself holds back a form with a required field left empty.
	await page.getByRole('button', { name: 'Submit' }).click();
	expect((await executionOf('customForm', executionId)).status).toBe('waiting');
	await page.getByLabel('Replace').check();
	await browser.shot(`send-and-wait-${VERSION}-custom-form.png`);
	await page.getByRole('button', { name: 'Submit' }).click();
	await page.getByText('Your answer was recorded.').waitFor();
	const execution = await finished('customForm', executionId);
	expect(nodeOutput(execution, 'Ask')).toEqual([
		{ data: { Decision: 'Replace', Amount: 12.5, Note: 'Sorry for the delay', respondedAt: expect.any(String) } },
	]);
});

test('Limit Wait Time of a few seconds: nobody answers and the execution goes on by itself with its input item', async () => {
	const { executionId } = await ask('timeout', { order: '#1042' });

	const waiting = await executionOf('timeout', executionId);
	const waitTill = Date.parse(waiting.waitTill);
	expect(waitTill - Date.parse(waiting.startedAt)).toBeGreaterThan(2000);
	expect(waitTill - Date.parse(waiting.startedAt)).toBeLessThan(10000);
	// n8n's wait tracker looks for due executions once a minute.
	const execution = await finished('timeout', executionId, 100_000);
	expect(execution.status).toBe('success');
	const [out] = nodeOutput(execution, 'Ask');
	expect(out.data).toBeUndefined();
	expect(out.body).toEqual({ order: '#1042' });
	expect(nodeOutput(execution, 'After')).toHaveLength(1);
}, 150_000);

test('the refund example, run from the editor with its pinned request: the manager, outside the window, gets the approval_request template with the link; approved in Chromium, the customer is told', async () => {
	await sandbox.inbound(EXAMPLE_DATA.customerPhone, 'Where is my refund for order #1042?');
	const id = await importExample(n8n, EXAMPLE_FILES.refundApproval, creds);
	// "Execute workflow": the webhook trigger runs with its pinned sample request
	const executionId = await runFromEditor(id, 'Refund Requested');
	await waitForExecutionsWhere(id, 'the refund question waiting', (all) => all.some((e) => String(e.id) === executionId && e.status === 'waiting'), 60000, executionsWithWaiting);

	// The text was refused (window closed), the template went with the link in its {{2}}.
	const sent = (await sandbox.requests({ method: 'POST', path: '/v1/messages' })).filter((r) => (r.body as any).to === EXAMPLE_DATA.managerPhone);
	expect(sent.map((r) => [(r.body as any).message_type, r.responseStatus])).toEqual([
		['text', 422],
		['template', 200],
	]);
	const [manager] = (await sandbox.messages({ phone: EXAMPLE_DATA.managerPhone })).filter((m) => m.direction === 'outbound');
	const [link] = manager.links!;
	expect(manager.text).toBe(`Your approval is needed: refund of $250.00 for order #1042. Answer here: ${link}`);
	expect(link).toContain(`/webhook-waiting/${executionId}/`);

	const page = await open(link);
	await page.getByText(`Refund of $250.00 for order #1042 (Ada, ${EXAMPLE_DATA.customerPhone}). Do you approve?`).waitFor();
	await browser.shot(`send-and-wait-${VERSION}-refund-example.png`);
	await page.getByRole('button', { name: 'Approve refund' }).click();
	await page.getByText('Your answer was recorded: Approve refund.').waitFor();

	const [execution] = await waitForExecutionsWhere(
		id,
		'the refund example finished',
		(all) => all.some((e) => String(e.id) === executionId && e.status === 'success' && e.data?.resultData?.runData?.['Refund Approved']),
		30000,
		executionsWithWaiting,
	);
	// Include Input Fields: the request beside n8n's Send and Wait answer
	expect(nodeOutput(execution, 'Ask the Manager')).toEqual([
		expect.objectContaining({ order: '#1042', customer_phone: EXAMPLE_DATA.customerPhone, data: { approved: true, respondedAt: expect.any(String) } }),
	]);
	const [told] = nodeOutput(execution, 'Refund Approved');
	expect(told).toEqual(
		expect.objectContaining({
			to: EXAMPLE_DATA.customerPhone,
			message_type: 'text',
			text: 'Hi Ada, your refund of $250.00 for order #1042 is approved. It reaches your account within 5 working days.',
		}),
	);
});
