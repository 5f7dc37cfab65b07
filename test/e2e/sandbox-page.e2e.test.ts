/**
 * The sandbox's page as a user meets it (n8n 2.41, which `npm start` runs), in Chromium: writing
 * as Ada brings example 02's reply into her conversation, read; a repeated delivery gets no second
 * reply; an event added at example 01's location alerts once after the next poll; an anomaly added
 * to the demo timeline starts a workflow watching it; a Send and Wait link opens n8n's answer page
 * and is answered; a 503 switched on shows its failed call in the log; bad input is refused beside
 * its field. Then `npm start` again on the same user folder: no alert repeats, the workflows stay
 * published on the same timeline, the log still holds the first run's requests. The screenshots
 * in docs/images/ are taken here, at 1280 and 390 px wide.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';

import { fetchOnOpenConnection } from '../../tools/n8n/client';
import { EXAMPLE_DATA, EXAMPLE_FILES, readExample } from '../../tools/n8n/examples';
import { freePort } from '../../tools/n8n/processes';
import { PROJECT_ROOT } from '../../tools/n8n/runtime';
import { SandboxClient } from '../../tools/sandbox/client';
import type { RecordedRequest } from '../../tools/sandbox/types';
import { waitFor } from '../../tools/shared/wait';
import { openBrowser, type Editor } from './browserSupport';
import { demoApi, startDemo, stopDemo, type DemoPorts, type Started } from './npmStart';

jest.setTimeout(900_000);

const IMAGES = path.join(PROJECT_ROOT, 'docs', 'images');
const ADA = EXAMPLE_DATA.customerPhone;
const GRACE = EXAMPLE_DATA.closedWindowPhone;
const MANAGER = EXAMPLE_DATA.managerPhone;
/** A poll every minute (n8n's shortest) and the time n8n takes around it on a busy machine. */
const NEXT_POLL_MS = 150_000;

let userFolder: string;
let ports: DemoPorts;
let started: Started | undefined;
let browser: Editor;
let page: Page;
const first: { workflows: Record<string, string>; timelineId: string; lastRequestId: number; replyId: number; alerts: number } = {
	workflows: {},
	timelineId: '',
	lastRequestId: 0,
	replyId: 0,
	alerts: 0,
};

const sandboxUrl = () => `http://127.0.0.1:${ports.sandbox}`;
const sandbox = () => new SandboxClient(sandboxUrl());
const bannerOf = (output: string) => output.slice(output.lastIndexOf('====='.repeat(10), output.lastIndexOf('ready in')));

async function start(): Promise<string> {
	started = await startDemo(ports, userFolder);
	return bannerOf(started.output());
}

async function stop(): Promise<void> {
	if (!started) return;
	await stopDemo(started, ports);
	started = undefined;
}

/** n8n's public API, with the key this start printed. */
const api = (method: string, apiPath: string, body?: object) => demoApi(started!.output(), ports, method, apiPath, body);

async function workflowOf(file: string): Promise<any> {
	const name = readExample(file).name;
	return ((await api('GET', `/workflows?${new URLSearchParams({ name })}`)).data as any[]).find((w) => w.name === name);
}

const put = (workflow: any) =>
	api('PUT', `/workflows/${workflow.id}`, { name: workflow.name, nodes: workflow.nodes, connections: workflow.connections, settings: { executionOrder: 'v1' } });
const executionsOf = async (id: string): Promise<any[]> => (await api('GET', `/executions?workflowId=${id}`)).data;
const sends = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages');
const alertsIn = (requests: RecordedRequest[]) => sends(requests).filter((r) => (r.body as any)?.template?.id === 'event_alert');

/** The page as a browser window of that width shows it (a laptop's, a phone's), without the passing notice. */
async function shot(name: string, width: number): Promise<string> {
	await page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
	await page.evaluate("document.getElementById('toast').hidden = true; for (const view of document.querySelectorAll('.view')) view.scrollTop = 0");
	fs.mkdirSync(IMAGES, { recursive: true });
	const file = path.join(IMAGES, name);
	await page.screenshot({ path: file });
	return path.relative(PROJECT_ROOT, file);
}

const conversation = (phone: string) => page.locator(`#conversations [data-phone="${phone}"]`);
const bubble = (text: string | RegExp) => page.locator('#messages .message', { hasText: text });

async function submit(formId: string, fields: Record<string, string>): Promise<void> {
	for (const [name, value] of Object.entries(fields)) {
		const field = page.locator(`#${formId} [name=${name}]`);
		if ((await field.evaluate((e) => e.tagName)) === 'SELECT') await field.selectOption(value);
		else await field.fill(value);
	}
	await page.locator(`#${formId} button[type=submit]`).click();
}

beforeAll(async () => {
	userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-sandbox-page-e2e-'));
	ports = { n8n: await freePort(), sandbox: await freePort() };
	browser = await openBrowser();
	page = browser.page;
});

afterAll(async () => {
	await browser?.close();
	await stop().catch(() => undefined);
	fs.rmSync(userFolder, { recursive: true, force: true });
});

test('on the page: Ada writes and example 02\'s reply is read; a repeat gets no second reply; a new event alerts once; an anomaly starts its workflow; a Send and Wait link is answered; a 503 shows in the log; bad input is refused beside its field', async () => {
	const t0 = Date.now();
	const banner = await start();
	// The banner leads with the page.
	expect(banner.split('\n')[1]).toBe(` sandbox page: ${sandboxUrl()}/   (a customer's phone: write as Ada, see the replies; the timeline; faults and the request log; live)`);
	expect(banner).toContain(`sandbox world: new, kept across restarts in ${path.join(userFolder, 'sandbox-state.json')}`);
	const started1 = Date.now();

	// Example 01 polling every minute, published (it remembers the two seeded events); a workflow watching the demo timeline's anomalies.
	const alerts = await workflowOf(EXAMPLE_FILES.eventAlerts);
	alerts.nodes.find((n: any) => n.type.endsWith('.timelineNavigationEventsTrigger')).parameters.pollTimes = { item: [{ mode: 'everyMinute' }] };
	await put(alerts);
	await api('POST', `/workflows/${alerts.id}/activate`);
	const view = await sandbox().view();
	first.timelineId = view.worlds.flatMap((w) => w.timelines).find((t) => t.name === EXAMPLE_DATA.timeline.name)!.timeline_id;
	const trigger = alerts.nodes.find((n: any) => n.type.endsWith('.timelineNavigationEventsTrigger'));
	const watch = await api('POST', '/workflows', {
		name: 'Watch the demo timeline',
		nodes: [
			{
				id: randomUUID(),
				name: 'New Anomaly',
				type: trigger.type,
				typeVersion: 1,
				position: [0, 0],
				parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, event: 'newAnomaly', timelineId: { __rl: true, mode: 'id', value: first.timelineId } },
				credentials: trigger.credentials,
			},
			{ id: randomUUID(), name: 'Noted', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [220, 0], parameters: {} },
		],
		connections: { 'New Anomaly': { main: [[{ node: 'Noted', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	});
	await api('POST', `/workflows/${watch.id}/activate`);
	const refunds = await workflowOf(EXAMPLE_FILES.refundApproval);
	await api('POST', `/workflows/${refunds.id}/activate`);
	first.workflows = { alerts: alerts.id, watch: watch.id, refunds: refunds.id, replies: (await workflowOf(EXAMPLE_FILES.inboundReply)).id };

	await page.setViewportSize({ width: 1280, height: 900 });
	await page.goto(`${sandboxUrl()}/`);
	await page.locator('#live[data-state=live]').waitFor();
	await conversation(ADA).click();

	// Bad input: the sandbox's words beside the field, and nothing stored.
	await submit('compose', { from: ADA, text: '' });
	await page.locator('#compose .field-error[data-field=text]', { hasText: "The field 'text' is required" }).waitFor();
	await submit('compose', { from: 'Bob', text: 'Hello?' });
	await page.locator('#compose .field-error[data-field=from]', { hasText: "No contact named 'Bob'" }).waitFor();
	await submit('event-add', { time: 'yesterday', description: 'A ship that never was' });
	await page.locator('#event-add .field-error[data-field=time]', { hasText: 'ISO 8601' }).waitFor();
	expect((await sandbox().view()).conversations.find((c) => c.phone === ADA)!.messages).toHaveLength(1);
	expect((await sandbox().view()).locations.flatMap((l) => l.events)).toHaveLength(2);

	// Ada writes: example 02 answers, and her phone reads the answer.
	await submit('compose', { from: ADA, text: 'Where is my refund?' });
	expect(await page.locator('#compose .field-error').count()).toBe(0);
	const reply = bubble('thanks for your message. A person will answer by');
	await reply.and(page.locator('[data-status=read]')).waitFor({ timeout: 60_000 });
	const mine = bubble('Where is my refund?');
	await mine.locator('.delivery', { hasText: 'to n8n: 200' }).waitFor();
	// The same delivery again: n8n answers it and starts nothing.
	await mine.getByRole('button', { name: 'Deliver again' }).click();
	await mine.locator('.delivery', { hasText: 'to n8n: 200, 200' }).waitFor();
	await sandbox().flushWebhooks();
	expect(sends(await sandbox().requests()).filter((r) => (r.body as any).to === ADA)).toHaveLength(1);
	first.replyId = sends(await sandbox().requests()).find((r) => (r.body as any).to === ADA)!.id;

	// An event at example 01's location and an anomaly in the demo timeline, added on the page.
	await submit('event-add', { location: EXAMPLE_DATA.location, time: new Date().toISOString(), description: 'A third ship comes in' });
	await page.locator('#locations li', { hasText: 'A third ship comes in' }).waitFor();
	await submit('anomaly-add', { timelineId: first.timelineId, description: 'A scroll burnt and unburnt' });
	await page.locator(`[data-timeline-id="${first.timelineId}"] li`, { hasText: 'A scroll burnt and unburnt' }).waitFor();
	const added = Date.now();

	// Send and Wait: a refund over $100 asks the manager, whose window is closed: the template with the link.
	const posted = await fetchOnOpenConnection(`http://127.0.0.1:${ports.n8n}/webhook/refund-request`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ order: '#1042', amount: 250, customer_name: 'Ada', customer_phone: ADA }),
	});
	expect(posted.status).toBe(200);
	await conversation(MANAGER).click();
	const question = bubble('Your approval is needed: refund of $250.00 for order #1042.');
	const [answerPage] = await Promise.all([page.context().waitForEvent('page'), question.locator('a[href*="/webhook-waiting/"]').click()]);
	await answerPage.getByRole('button', { name: 'Approve refund' }).click();
	await answerPage.getByText('Your answer was recorded: Approve refund.').waitFor();
	await answerPage.close();
	await conversation(ADA).click();
	await bubble('your refund of $250.00 for order #1042 is approved').waitFor({ timeout: 60_000 });

	// The next poll: the alert reaches Ada once; the anomaly starts the workflow watching the timeline.
	const alert = bubble('A third ship comes in');
	await alert.waitFor({ timeout: NEXT_POLL_MS });
	await waitFor('the anomaly workflow to run once', async () => (await executionsOf(watch.id)).length === 1, { timeoutMs: NEXT_POLL_MS, intervalMs: 1000 });
	const polled = Date.now();
	expect(await alert.getAttribute('data-type')).toBe('template');
	expect(await alert.textContent()).toMatch(/^Event alert at Alexandria, Egypt on \d+ \w+ \d{4} at \d\d:\d\d UTC: A third ship comes in/);
	expect(alertsIn(await sandbox().requests()).map((r) => (r.body as any).template.parameters[2])).toEqual(['A third ship comes in']);

	// A 503 for the next send: Grace's reply fails, and the log shows it with its answer.
	await submit('fault-add', { kind: 'status', status: '503', pathPrefix: '/v1/messages', count: '1' });
	await page.locator('#faults li', { hasText: 'HTTP 503' }).waitFor();
	await submit('compose', { from: GRACE, text: 'Hello, first time here' });
	const failed = page.locator('#requests li[data-status="503"]', { hasText: 'POST /v1/messages' });
	await failed.waitFor({ timeout: 60_000 });
	await failed.locator('.tag', { hasText: 'fault: status' }).waitFor();
	await failed.locator('summary').click();
	await failed.locator('pre', { hasText: 'Injected fault: the sandbox answered HTTP 503 on purpose.' }).waitFor();
	await failed.locator('pre', { hasText: '"authorization": "Bearer ****"' }).waitFor();
	expect(await page.locator('#faults li[data-fault-id]').count()).toBe(0);

	// The pictures of the docs: the whole page at 1280 px, each view at 390 px.
	await conversation(ADA).click();
	const shots = [await shot('sandbox-page-1280.png', 1280)];
	for (const tab of ['phone', 'timeline', 'log']) {
		await page.setViewportSize({ width: 390, height: 844 });
		await page.locator(`nav [data-tab=${tab}]`).click();
		await page.locator(`#${tab}`).waitFor();
		// one view at a time, nothing wider than the phone's screen
		expect(await page.locator('main > .view:visible').getAttribute('id')).toBe(tab);
		expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
		shots.push(await shot(`sandbox-${tab}-390.png`, 390));
	}

	const requests = await sandbox().requests();
	first.lastRequestId = requests.at(-1)!.id;
	first.alerts = alertsIn(requests).length;
	console.log(
		`sandbox page: npm start ${((started1 - t0) / 1000).toFixed(0)} s; on the page until the event and anomaly were added ${((added - started1) / 1000).toFixed(0)} s; ` +
			`the next poll ${((polled - added) / 1000).toFixed(0)} s later; screenshots ${shots.join(', ')}`,
	);
});

test('npm start again on the same user folder: no alert repeats, the workflows stay published on the same timeline, the log still holds the first run\'s requests', async () => {
	expect(first.replyId).toBeGreaterThan(0);
	await stop();
	const t0 = Date.now();
	const banner = await start();
	expect(banner).toContain('sandbox world: as the last run left it');
	expect(banner).toContain(first.timelineId);
	const restarted = Date.now();

	// The polls n8n makes as it publishes the workflows again find the same timeline and nothing new.
	const after = (r: RecordedRequest) => r.id > first.lastRequestId;
	const startupPolls = await waitFor(
		'the start-up polls of example 01 and of the timeline watch',
		async () => {
			const polls = (await sandbox().requests()).filter(after);
			const events = polls.find((r) => r.path === '/v1/monitor-events' && r.responseStatus !== undefined);
			const anomalies = polls.find((r) => r.path === '/v1/monitor-timeline' && r.responseStatus !== undefined);
			return events && anomalies && [events, anomalies];
		},
		{ timeoutMs: NEXT_POLL_MS, intervalMs: 500 },
	);
	expect(startupPolls.map((r) => [r.responseStatus, r.query.timeline_id])).toEqual([
		[200, undefined],
		[200, first.timelineId],
	]);
	// What a start-up poll starts runs within seconds: give it that, then count.
	await new Promise((resolve) => setTimeout(resolve, 10_000));
	await sandbox().flushWebhooks();
	const requests = await sandbox().requests();
	expect(alertsIn(requests)).toHaveLength(first.alerts);
	expect(sends(requests).filter(after)).toEqual([]);
	expect(await executionsOf(first.workflows.watch)).toHaveLength(1);
	for (const id of Object.values(first.workflows)) expect((await api('GET', `/workflows/${id}`)).active).toBe(true);
	// The first run's requests, with their ids.
	expect(requests.find((r) => r.id === first.replyId)).toEqual(expect.objectContaining({ path: '/v1/messages', responseStatus: 200 }));

	// The page, reloaded, shows Ada's conversation as it was.
	await page.setViewportSize({ width: 1280, height: 900 });
	await page.goto(`${sandboxUrl()}/`);
	await conversation(ADA).click();
	await bubble('A third ship comes in').waitFor();
	await bubble('thanks for your message').and(page.locator('[data-status=read]')).waitFor();
	console.log(`sandbox page, restart: npm start again ${((restarted - t0) / 1000).toFixed(0)} s; the start-up polls, the check and the page ${((Date.now() - restarted) / 1000).toFixed(0)} s`);
});
