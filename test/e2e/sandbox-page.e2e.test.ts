/**
 * The sandbox's page as a new user meets it (n8n 2.41, which `npm start` runs), in Chromium at a
 * phone's width, by clicking on the page only: the first screen leads with "start here" and shows
 * no error; each step answers on a phone (Ada's reply, an event alert and an anomaly alert within
 * 75 s of the click, the manager's approval link, opened and approved, and Ada told); a repeated
 * delivery gets no second reply; bad input and an empty fault status are refused beside their
 * field; a 503 shows in the log. Then Reset: Ada is answered again and only the new event is
 * alerted, none of the seeded ones; a 5,000-character word in a message, an event and a contact
 * name makes nothing wider than the screen. Then `npm start` again on the same user folder: no
 * alert repeats, the workflows stay published on the same timeline, the log still holds the
 * requests. The screenshots in docs/images/ are taken here, at 390 and 1280 px wide.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';

import { alertsWorkflow } from '../../tools/n8n/demoTour';
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
/** The promise: an event or anomaly added on the page reaches the phone within 75 s (the alerts poll every minute). */
const ALERT_WITHIN_MS = 75_000;
/** The workflows npm start publishes, by name (a reset imports them afresh, under new ids). */
const PUBLISHED = [readExample(EXAMPLE_FILES.inboundReply).name, readExample(EXAMPLE_FILES.refundApproval).name, alertsWorkflow(undefined).name];
const EVENT = 'A ship from Cyprus brings papyrus';
const ANOMALY = 'A scroll is both burnt and unburnt';

let userFolder: string;
let ports: DemoPorts;
let started: Started | undefined;
let browser: Editor;
let page: Page;
const first: { timelineId: string; lastRequestId: number; alerts: number } = { timelineId: '', lastRequestId: 0, alerts: 0 };

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

async function publishedWorkflows(): Promise<any[]> {
	const all = (await api('GET', '/workflows?limit=250')).data as any[];
	return PUBLISHED.map((name) => all.find((w) => w.name === name));
}

const sends = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages');
const alertsIn = (requests: RecordedRequest[]) => sends(requests).filter((r) => ['event_alert', 'anomaly_alert'].includes((r.body as any)?.template?.id));

/** The page as a browser window of that width shows it (a laptop's, a phone's), without the passing notice. */
async function shot(name: string, width: number): Promise<string> {
	await page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
	await page.evaluate("document.getElementById('toast').hidden = true; window.scrollTo(0, 0); for (const view of document.querySelectorAll('.view')) view.scrollTop = 0");
	fs.mkdirSync(IMAGES, { recursive: true });
	const file = path.join(IMAGES, name);
	await page.screenshot({ path: file });
	return path.relative(PROJECT_ROOT, file);
}

const step = (id: string) => page.locator(`#steps [data-step=${id}] button`);
const conversation = (phone: string) => page.locator(`#conversations [data-phone="${phone}"]`);
const bubble = (text: string | RegExp) => page.locator('#messages .message', { hasText: text });
const wider = () => page.evaluate('document.documentElement.scrollWidth') as Promise<number>;

async function submit(formId: string, fields: Record<string, string>): Promise<void> {
	for (const [name, value] of Object.entries(fields)) {
		const field = page.locator(`#${formId} [name=${name}]`);
		if ((await field.evaluate((e) => e.tagName)) === 'SELECT') await field.selectOption(value);
		else await field.fill(value);
	}
	await page.locator(`#${formId} button[type=submit]`).click();
}

async function showTab(tab: 'phone' | 'timeline' | 'log'): Promise<void> {
	await page.locator(`nav [data-tab=${tab}]`).click();
	await page.locator(`#${tab}`).waitFor();
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

test('at 390 px, from a fresh npm start, by clicking on the page only: each start-here step answers on a phone (the alerts within 75 s); the first screen shows no error; bad input is refused beside its field; then Reset and the demo starts afresh; long words wrap', async () => {
	const t0 = Date.now();
	const banner = await start();
	// The banner leads with the page.
	expect(banner.split('\n')[1]).toBe(` sandbox page: ${sandboxUrl()}/   (start here: four things to try, each answered on a customer's phone; the timeline; faults and the request log; live)`);
	expect(banner).toContain(`sandbox world: new, kept across restarts in ${path.join(userFolder, 'sandbox-state.json')}`);
	const started1 = Date.now();
	first.timelineId = (await sandbox().view()).worlds.flatMap((w) => w.timelines).find((t) => t.name === EXAMPLE_DATA.timeline.name)!.timeline_id;

	// The first screen: what to try first, and nothing that reads as an error.
	await page.setViewportSize({ width: 390, height: 844 });
	await page.goto(`${sandboxUrl()}/`);
	await page.locator('#live[data-state=live]').waitFor();
	await expect(page.title()).resolves.toBe('Sandbox: Timeline Navigation and Chat-App Messaging');
	expect(await page.locator('#steps > li button').allTextContents()).toEqual([
		'Write as Ada',
		`Add an event at ${EXAMPLE_DATA.location}`,
		`Add an anomaly to ${EXAMPLE_DATA.timeline.name}`,
		'Ask for a $250.00 refund for Ada',
	]);
	await bubble(EXAMPLE_DATA.openWindow.text).locator('.delivery', { hasText: 'written before n8n listened' }).waitFor();
	for (const width of [390, 1280]) {
		await page.setViewportSize({ width, height: 844 });
		expect(await page.locator('body').innerText()).not.toMatch(/failed|no webhook set|error/i);
		expect(await page.locator('.field-error, .answer.bad, #toast[data-error=true]:visible').count()).toBe(0);
	}
	const shots = [await shot('sandbox-start-390.png', 390)];

	// A delivery still under way reads "sending…", never "failed" (it used to for a moment after every Send).
	await page.evaluate(
		"window.deliveriesSeen = []; new MutationObserver(() => document.querySelectorAll('.delivery').forEach((e) => window.deliveriesSeen.push(e.textContent))).observe(document.body, { subtree: true, childList: true, characterData: true })",
	);

	// 1. Write as Ada: example 02's reply comes to her phone, and her phone reads it.
	await step('write').click();
	await page.locator('#phone #chat-number', { hasText: ADA }).waitFor();
	const reply = bubble('thanks for your message. A person will answer by');
	await reply.and(page.locator('[data-status=read]')).waitFor({ timeout: 60_000 });
	const written = bubble('Hello, is my order on its way?');
	await written.locator('.delivery', { hasText: 'to n8n: 200' }).waitFor();

	// Several lines written quickly: example 02 gathers the burst (Messages in Quick Succession) and
	// the phone shows one answer.
	const quick = '+15550004242';
	for (const text of ['Hi', 'I ordered on Monday', 'where is it?']) await submit('compose', { from: quick, text });
	// A number the demo does not know: the chat is titled with it, and the reply has no first name.
	await page.locator('#phone #chat-name', { hasText: quick }).waitFor();
	await bubble('thanks for your message. A person will answer by').waitFor({ timeout: 60_000 });
	await new Promise((resolve) => setTimeout(resolve, 6000));
	expect(sends(await sandbox().requests()).filter((r) => (r.body as { to?: string }).to === quick)).toHaveLength(1);

	// 2 and 3. An event and an anomaly: each alert reaches Ada's phone within 75 s of its click.
	await step('event').click();
	const eventClicked = Date.now();
	await step('anomaly').click();
	const anomalyClicked = Date.now();

	// 4. The refund: the manager's phone gets the link; approved on n8n's page, Ada is told.
	await step('refund').click();
	await page.locator('#chat-number', { hasText: MANAGER }).waitFor();
	const question = bubble('Your approval is needed: refund of $250.00 for order #1042.');
	const [answerPage] = await Promise.all([page.context().waitForEvent('page'), question.locator('a[href*="/webhook-waiting/"]').click({ timeout: 60_000 })]);
	await answerPage.getByRole('button', { name: 'Approve refund' }).click();
	await answerPage.getByText('Your answer was recorded: Approve refund.').waitFor();
	await answerPage.close();
	await conversation(ADA).click();
	await bubble('your refund of $250.00 for order #1042 is approved').waitFor({ timeout: 60_000 });

	// The same delivery again: n8n answers it and starts nothing.
	await written.getByRole('button', { name: 'Deliver again' }).click();
	await written.locator('.delivery', { hasText: 'to n8n: 200, 200' }).waitFor();
	await sandbox().flushWebhooks();
	expect(sends(await sandbox().requests()).filter((r) => (r.body as any).to === ADA && (r.body as any).text?.includes('thanks for your message'))).toHaveLength(1);

	// A 503 for the next send: Grace's reply fails, and the log shows it with its answer.
	await showTab('log');
	await submit('fault-add', { kind: 'status', status: '503', pathPrefix: '/v1/messages', count: '1' });
	await page.locator('#faults li', { hasText: 'HTTP 503' }).waitFor();
	await showTab('phone');
	await submit('compose', { from: GRACE, text: 'Hello, first time here' });
	await showTab('log');
	const failed = page.locator('#requests li[data-status="503"]', { hasText: 'POST /v1/messages' });
	await failed.waitFor({ timeout: 60_000 });
	await failed.locator('.tag', { hasText: 'fault: status' }).waitFor();
	await failed.locator('summary').click();
	await failed.locator('pre', { hasText: 'Injected fault: the sandbox answered HTTP 503 on purpose.' }).waitFor();
	await failed.locator('pre', { hasText: '"authorization": "Bearer ****"' }).waitFor();

	// The alerts, each once, and none for the two events and the timeline seeded at the start.
	await showTab('phone');
	await conversation(ADA).click();
	const eventAlert = bubble(EVENT);
	await eventAlert.waitFor({ timeout: Math.max(1, eventClicked + ALERT_WITHIN_MS - Date.now()) });
	const eventAfter = Date.now() - eventClicked;
	const anomalyAlert = bubble(ANOMALY);
	await anomalyAlert.waitFor({ timeout: Math.max(1, anomalyClicked + ALERT_WITHIN_MS - Date.now()) });
	const anomalyAfter = Date.now() - anomalyClicked;
	expect(await eventAlert.textContent()).toMatch(new RegExp(`^Event alert at ${EXAMPLE_DATA.location} on \\d+ \\w+ \\d{4} at \\d\\d:\\d\\d UTC: ${EVENT}`));
	expect(await anomalyAlert.textContent()).toMatch(new RegExp(`^Anomaly alert in the timeline ${EXAMPLE_DATA.timeline.name}: a paradox on \\d+ \\w+ \\d{4} at \\d\\d:\\d\\d UTC: ${ANOMALY}`));
	expect(alertsIn(await sandbox().requests()).map((r) => (r.body as any).template.parameters.at(-1)).sort()).toEqual([ANOMALY, EVENT]);
	expect(await page.evaluate('window.deliveriesSeen.filter((text) => /failed/.test(text))')).toEqual([]);

	// The pictures of the docs: the whole page at 1280 px, each view at 390 px (the steps folded away).
	shots.push(await shot('sandbox-page-1280.png', 1280));
	await page.setViewportSize({ width: 390, height: 844 });
	await page.locator('#start summary').click();
	for (const tab of ['phone', 'timeline', 'log'] as const) {
		await showTab(tab);
		// one view at a time, nothing wider than the phone's screen
		expect(await page.locator('main > .view:visible').getAttribute('id')).toBe(tab);
		expect(await wider()).toBeLessThanOrEqual(390);
		shots.push(await shot(`sandbox-${tab}-390.png`, 390));
	}
	// The fault form at 390 and 1280 px: "calls" stays beside its count, and the longest choice of Calls fits its box, with room for the arrow.
	for (const width of [390, 1280]) {
		await page.setViewportSize({ width, height: 844 });
		expect(
			await page.evaluate("(() => { const count = document.querySelector('#fault-count').getBoundingClientRect(); const calls = document.querySelector('#fault-count + span').getBoundingClientRect(); return calls.top >= count.top && calls.bottom <= count.bottom; })()"),
		).toBe(true);
		const room = await page.evaluate(
			"(() => { const select = document.querySelector('#fault-path'); const text = document.createElement('canvas').getContext('2d'); text.font = getComputedStyle(select).font; return select.clientWidth - Math.max(...[...select.options].map((o) => text.measureText(o.text).width)); })()",
		);
		expect(room).toBeGreaterThanOrEqual(24);
	}
	await page.setViewportSize({ width: 390, height: 844 });
	await page.locator('#start summary').click();

	// Bad input: the sandbox's words beside the field, and nothing stored.
	await showTab('phone');
	await submit('compose', { from: ADA, text: '' });
	await page.locator('#compose .field-error[data-field=text]', { hasText: "The field 'text' is required" }).waitFor();
	await submit('compose', { from: 'Bob', text: 'Hello?' });
	await page.locator('#compose .field-error[data-field=from]', { hasText: "No contact named 'Bob'" }).waitFor();
	await showTab('timeline');
	await submit('event-add', { time: 'yesterday', description: 'A ship that never was' });
	await page.locator('#event-add .field-error[data-field=time]', { hasText: 'ISO 8601' }).waitFor();
	await showTab('log');
	await submit('fault-add', { kind: 'status', status: '', pathPrefix: '/v1/messages', count: '1' });
	await page.locator('#fault-add .field-error[data-field=status]', { hasText: "The field 'status' must be an integer from 100 to 599; got ''" }).waitFor();
	const refusedView = await sandbox().view();
	expect(refusedView.conversations.flatMap((c) => c.messages).filter((m) => ['', 'Hello?'].includes(m.text ?? ''))).toEqual([]);
	expect(refusedView.locations.flatMap((l) => l.events).filter((e) => e.description === 'A ship that never was')).toEqual([]);
	expect(refusedView.faults).toEqual([]);

	const before = { lastRequestId: (await sandbox().requests()).at(-1)!.id };

	// Reset: what it does in n8n is asked first; then the world and the demo's workflows start afresh.
	const asked = new Promise<string>((resolve) => page.once('dialog', (dialog) => void dialog.accept().then(() => resolve(dialog.message()))));
	const resetClicked = Date.now();
	await page.locator('#reset').click();
	expect(await asked).toContain("Reset also imports n8n's demo workflows afresh");
	await page.locator('#toast', { hasText: 'The sandbox and the demo start afresh' }).waitFor({ timeout: 120_000 });
	const resetTook = Date.now() - resetClicked;
	expect(await page.locator('#steps .started').count()).toBe(0);
	await step('event').click();
	const eventAgain = Date.now();
	await step('write').click();
	await reply.and(page.locator('[data-status=read]')).waitFor({ timeout: 60_000 });

	// Long words: a 5,000-character one in a message, an event (elsewhere: no alert) and a contact's name.
	const word = 'W'.repeat(5000);
	await submit('compose', { from: ADA, text: word });
	await showTab('timeline');
	await submit('event-add', { location: 'Rhodes, Greece', time: new Date().toISOString(), description: word });
	await sandbox().seedContact('+14155550199', { first_name: word });
	// and a conversation titled with its number (a contact without a name): each card holds its title
	await sandbox().seedContact('+14155550198', {});
	await page.locator('#locations li', { hasText: word }).waitFor();
	const cardsSpilling = () => page.evaluate("[...document.querySelectorAll('#conversations button')].filter((card) => card.scrollWidth > card.clientWidth).length");
	for (const tab of ['phone', 'timeline', 'log'] as const) {
		await showTab(tab);
		expect(await wider()).toBeLessThanOrEqual(390);
	}
	await showTab('phone');
	await page.locator('#conversations [data-phone="+14155550198"]').waitFor();
	expect(await cardsSpilling()).toBe(0);
	await page.setViewportSize({ width: 1280, height: 900 });
	expect(await wider()).toBeLessThanOrEqual(1280);
	expect(await cardsSpilling()).toBe(0);
	await page.setViewportSize({ width: 390, height: 844 });

	// Only the new event is alerted after the reset, within 75 s; none of the events seeded again.
	await conversation(ADA).click();
	await bubble(EVENT).waitFor({ timeout: Math.max(1, eventAgain + ALERT_WITHIN_MS - Date.now()) });
	const eventAfterReset = Date.now() - eventAgain;
	await sandbox().flushWebhooks();
	const afterReset = (await sandbox().requests()).filter((r) => r.id > before.lastRequestId);
	expect(alertsIn(afterReset).map((r) => (r.body as any).template.parameters[2])).toEqual([EVENT]);
	expect(sends(afterReset).filter((r) => (r.body as any).text?.includes('thanks for your message')).map((r) => (r.body as any).to)).toEqual([ADA]);

	const last = await sandbox().requests();
	first.lastRequestId = last.at(-1)!.id;
	first.alerts = alertsIn(last).length;
	first.timelineId = (await sandbox().view()).worlds.flatMap((w) => w.timelines).find((t) => t.name === EXAMPLE_DATA.timeline.name)!.timeline_id;
	console.log(
		`sandbox page: npm start ${((started1 - t0) / 1000).toFixed(0)} s; alerts ${(eventAfter / 1000).toFixed(0)} s (event) and ${(anomalyAfter / 1000).toFixed(0)} s (anomaly) after the click; ` +
			`Reset ${(resetTook / 1000).toFixed(0)} s, then the event alerted ${(eventAfterReset / 1000).toFixed(0)} s after the click; screenshots ${shots.join(', ')}`,
	);
});

test('npm start again on the same user folder: no alert repeats, the workflows stay published on the same timeline, the log still holds the requests', async () => {
	expect(first.lastRequestId).toBeGreaterThan(0);
	const workflows = await publishedWorkflows();
	await stop();
	const t0 = Date.now();
	const banner = await start();
	expect(banner).toContain('sandbox world: as the last run left it');
	expect(banner).toContain(first.timelineId);
	const restarted = Date.now();

	// The polls n8n makes as it publishes the alerts again find the same timeline and nothing new.
	const after = (r: RecordedRequest) => r.id > first.lastRequestId;
	const startupPolls = await waitFor(
		'the start-up polls of the alerts workflow',
		async () => {
			const polls = (await sandbox().requests()).filter(after);
			const events = polls.find((r) => r.path === '/v1/monitor-events' && r.responseStatus !== undefined);
			const anomalies = polls.find((r) => r.path === '/v1/monitor-timeline' && r.responseStatus !== undefined);
			return events && anomalies && [events, anomalies];
		},
		{ timeoutMs: 150_000, intervalMs: 500 },
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
	expect((await publishedWorkflows()).map((w) => [w.id, w.active])).toEqual(workflows.map((w) => [w.id, true]));
	expect(requests.find((r) => r.id === first.lastRequestId)).toBeDefined();

	// The page, reloaded, shows Ada's conversation as it was.
	await page.setViewportSize({ width: 1280, height: 900 });
	await page.goto(`${sandboxUrl()}/`);
	await conversation(ADA).click();
	await bubble(EVENT).waitFor();
	await bubble('thanks for your message').and(page.locator('[data-status=read]')).waitFor();
	console.log(`sandbox page, restart: npm start again ${((restarted - t0) / 1000).toFixed(0)} s; the start-up polls, the check and the page ${((Date.now() - restarted) / 1000).toFixed(0)} s`);
});
