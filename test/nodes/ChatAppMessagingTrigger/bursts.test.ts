// Messages in Quick Succession → Gather Into One Run: the trigger hosted as n8n hosts a published
// workflow's webhook (test/support/harness/webhook.ts, a real HTTP server whose URL is n8n's
// webhook base, so the trigger's call to its own Production URL arrives there), deliveries over
// real HTTP: one run per burst with every message answered 200 and none lost or started twice,
// across a stop in the middle of a burst, concurrent deliveries and the bounds.
import type { IDataObject } from 'n8n-workflow';
import { BURSTS_KEY, FLUSH_HEADER, MAX_BURST_MESSAGES, MAX_BURSTS, OVERDUE_AFTER_MS } from '../../../nodes/shared/chatAppMessaging/trigger/bursts';
import { hostTrigger, type HostedTrigger, type HostTriggerOptions } from '../../support/harness';
import { inbound, status } from '../../support/trigger-payloads';
import { waitFor } from '../../../tools/shared/wait';

const hosted: HostedTrigger[] = [];
afterEach(async () => {
	await Promise.all(hosted.splice(0).map(async (trigger) => await trigger.close()));
});

let workflows = 0;
async function host(parameters: IDataObject = {}, options: HostTriggerOptions = {}): Promise<HostedTrigger> {
	const trigger = await hostTrigger({
		// Its own workflow id each: a trigger's process memory is per workflow, as in n8n.
		workflowId: `bursts-${++workflows}`,
		parameters: { events: ['message.inbound', 'message.status'], quickMessages: 'gather', quietSeconds: 1, longestWaitSeconds: 30, ...parameters },
		...options,
	});
	hosted.push(trigger);
	return trigger;
}

let messages = 0;
const message = (from: string, text: string) => ({ ...inbound, message_id: `msg_${++messages}`, from, text, timestamp: new Date().toISOString() });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The bursts started (the harness records each run), as [from, texts]. */
const runs = (trigger: HostedTrigger) =>
	trigger.starts.filter((start) => start.json[0].messages).map((start) => [start.json[0].from, (start.json[0].messages as IDataObject[]).map((m) => m.text)]);

it('three messages half a second apart: each answered 200 at once, then one run once the customer is quiet, with the three in order', async () => {
	const trigger = await host();
	const texts = ['hi', 'I ordered on Monday', 'where is it?'];
	const answers = [];
	for (const text of texts) {
		const before = Date.now();
		const answer = await trigger.post(message('+14155550123', text));
		answers.push({ status: answer.status, json: answer.json, ms: Date.now() - before });
		await sleep(500);
	}
	expect(answers.map((a) => [a.status, (a.json as IDataObject).started])).toEqual([[200, false], [200, false], [200, false]]);
	for (const answer of answers) expect(answer.ms).toBeLessThan(500);
	expect(trigger.starts).toEqual([]);

	await waitFor('the burst to start', async () => trigger.starts.length === 1, { timeoutMs: 5000, intervalMs: 50 });
	const [item] = trigger.starts[0].json;
	expect(item).toMatchObject({
		event_type: 'message.inbound',
		from: '+14155550123',
		text: 'hi\nI ordered on Monday\nwhere is it?',
		message_count: 3,
		first_timestamp: (item.messages as IDataObject[])[0].timestamp,
		timestamp: (item.messages as IDataObject[])[2].timestamp,
		previous_inbound_at: null,
	});
	expect((item.messages as IDataObject[]).map((m) => [m.text, typeof m.window_open_until])).toEqual(texts.map((text) => [text, 'string']));
	// Nothing is held once it started, and nothing starts again.
	await sleep(1500);
	expect(runs(trigger)).toEqual([['+14155550123', texts]]);
	expect((trigger.staticData()[`node:${trigger.node.name}`] as IDataObject)[BURSTS_KEY]).toMatchObject({ held: {} });

	// A message after the quiet time is a burst of its own, which knows when the customer wrote before.
	await trigger.post(message('+14155550123', 'hello again'));
	await waitFor('the second burst', async () => trigger.starts.length === 2, { timeoutMs: 5000, intervalMs: 50 });
	expect(runs(trigger)[1]).toEqual(['+14155550123', ['hello again']]);
	expect(trigger.starts[1].json[0].previous_inbound_at).toBe((trigger.starts[0].json[0].messages as IDataObject[])[2].timestamp);
});

it('a chatty customer still gets a run at the Longest Wait, and the rest of the burst follows', async () => {
	const trigger = await host({ quietSeconds: 1, longestWaitSeconds: 2 });
	const started = Date.now();
	for (let i = 0; i < 6; i++) {
		await trigger.post(message('+14155550123', `line ${i}`));
		await sleep(500);
	}
	await waitFor('both bursts', async () => trigger.starts.length === 2, { timeoutMs: 5000, intervalMs: 50 });
	const [first, second] = runs(trigger);
	expect([...(first[1] as string[]), ...(second[1] as string[])]).toEqual(['line 0', 'line 1', 'line 2', 'line 3', 'line 4', 'line 5']);
	expect((first[1] as string[]).length).toBeGreaterThanOrEqual(4);
	expect(Date.now() - started).toBeLessThan(6000);
});

it("customers' bursts are apart; status events and repeated deliveries behave as without the option", async () => {
	const trigger = await host();
	const ada = message('+14155550123', 'Ada here');
	await trigger.post(ada);
	await trigger.post(message('+15551234567', 'Grace here'));
	// A repeat of Ada's message adds nothing; a status event starts its own run at once.
	expect((await trigger.post(ada)).json).toMatchObject({ started: false, reason: 'Repeated delivery of an event that already started the workflow' });
	expect((await trigger.post(status)).json).toMatchObject({ started: true, event_type: 'message.status' });
	await waitFor('both bursts', async () => trigger.starts.length === 3, { timeoutMs: 5000, intervalMs: 50 });
	expect(trigger.starts[0].json[0]).toMatchObject({ event_type: 'message.status' });
	expect(runs(trigger).sort()).toEqual([['+14155550123', ['Ada here']], ['+15551234567', ['Grace here']]]);
});

it('with the option off (the default), every message starts its own run at once', async () => {
	const trigger = await host({ quickMessages: undefined, quietSeconds: undefined, longestWaitSeconds: undefined });
	for (const text of ['one', 'two']) expect((await trigger.post(message('+14155550123', text))).json).toMatchObject({ started: true });
	expect(trigger.starts.map((start) => start.json[0].text)).toEqual(['one', 'two']);
	expect((trigger.staticData()[`node:${trigger.node.name}`] as IDataObject)[BURSTS_KEY]).toBeUndefined();
});

it('20 customers writing 3 messages each, all in flight at once: 20 runs, each with its customer’s 3 messages in order, none lost or twice', async () => {
	const trigger = await host();
	const customers = Array.from({ length: 20 }, (_, i) => `+1415555${String(1000 + i)}`);
	for (let round = 0; round < 3; round++) {
		await Promise.all(customers.map(async (from) => expect((await trigger.post(message(from, `${from} ${round}`))).status).toBe(200)));
		await sleep(200);
	}
	await waitFor('20 runs', async () => trigger.starts.length >= 20, { timeoutMs: 10_000, intervalMs: 100 });
	await sleep(1500);
	expect(runs(trigger).sort()).toEqual(customers.map((from) => [from, [0, 1, 2].map((round) => `${from} ${round}`)]).sort());
});

it("the first messages to a trigger, 20 at once: each burst starts at the trigger's first call to its own URL, none refused", async () => {
	const trigger = await host();
	const customers = Array.from({ length: 20 }, (_, i) => `+1415556${String(1000 + i)}`);
	await Promise.all(customers.map(async (from) => expect((await trigger.post(message(from, `${from} first`))).status).toBe(200)));
	await waitFor('20 runs', async () => trigger.starts.length >= 20, { timeoutMs: 5000, intervalMs: 100 });
	expect(runs(trigger).sort()).toEqual(customers.map((from) => [from, [`${from} first`]]).sort());
	const flushes = trigger.calls.filter((call) => call.request.headers[FLUSH_HEADER] !== undefined);
	expect(flushes.map((call) => call.response.status)).toEqual(customers.map(() => 200));
});

describe('n8n stopped in the middle of a burst', () => {
	it("the burst's run starts once n8n is back and calls the webhook's create hook (n8n 1.x at start-up), with every message answered before the stop", async () => {
		const before = await host();
		await before.post(message('+14155550123', 'first'));
		await before.post(message('+14155550123', 'second'));
		// n8n stops a moment later: its timers and memory are gone; the static data is kept.
		const saved = before.staticData();
		await before.close();
		hosted.splice(hosted.indexOf(before), 1);
		const after = await host({}, { staticData: saved });
		await after.activate();
		await waitFor('the burst after the restart', async () => after.starts.length === 1, { timeoutMs: 5000, intervalMs: 50 });
		await sleep(1500);
		expect(runs(after)).toEqual([['+14155550123', ['first', 'second']]]);
		expect(before.starts).toEqual([]);
	});

	it("when nothing calls the trigger's URL (n8n 2.x after a restart, or the URL out of reach), the next delivery starts the burst that is due, and that delivery's own burst follows", async () => {
		const trigger = await host({}, { webhookBaseUrl: 'http://127.0.0.1:9/webhook' });
		await trigger.post(message('+14155550123', 'waiting'));
		// Due after the Quiet Time (1 s); a delivery starts it once it is overdue.
		await sleep(1000 + OVERDUE_AFTER_MS + 300);
		expect(trigger.starts).toEqual([]);
		const next = await trigger.post(message('+15551234567', 'someone else'));
		expect(next.json).toMatchObject({ started: true });
		expect(runs(trigger)).toEqual([['+14155550123', ['waiting']]]);
		await sleep(1000 + OVERDUE_AFTER_MS + 300);
		await trigger.post({ ...status, message_id: 'msg_status_later' });
		await trigger.post(message('+16505550000', 'a third customer'));
		expect(runs(trigger).slice(0, 2)).toEqual([['+14155550123', ['waiting']], ['+15551234567', ['someone else']]]);
	});
});

it('unpublished in the middle of a burst: nothing starts while unpublished, and the burst starts once when published again', async () => {
	const trigger = await host({ quietSeconds: 1 });
	await trigger.post(message('+14155550123', 'before unpublishing'));
	await trigger.deactivate();
	await sleep(2500);
	expect(trigger.starts).toEqual([]);
	await trigger.activate();
	await waitFor('the held burst', async () => trigger.starts.length === 1, { timeoutMs: 5000, intervalMs: 50 });
	await sleep(1500);
	expect(runs(trigger)).toEqual([['+14155550123', ['before unpublishing']]]);
});

it('a test listen on the Test URL, begun and ended in the middle of a burst, neither starts nor stops it', async () => {
	const trigger = await host({ quietSeconds: 2 });
	await trigger.post(message('+14155550123', 'held'));
	await trigger.activate({ testUrl: true });
	await trigger.deactivate({ testUrl: true });
	await sleep(1000);
	expect(trigger.starts).toEqual([]);
	await waitFor('the burst', async () => trigger.starts.length === 1, { timeoutMs: 5000, intervalMs: 50 });
	expect(runs(trigger)).toEqual([['+14155550123', ['held']]]);
	// Every call went to the Production URL.
	expect(trigger.calls.map((call) => call.response.status)).toEqual([200, 200]);
});

it('republished at once with a shorter Quiet Time: the held burst starts at its new due time', async () => {
	const workflowId = `bursts-republished-${++workflows}`;
	const before = await host({ quietSeconds: 600 }, { workflowId });
	await before.post(message('+14155550123', 'held'));
	const saved = before.staticData();
	await before.close();
	hosted.splice(hosted.indexOf(before), 1);
	const after = await host({ quietSeconds: 1 }, { workflowId, staticData: saved });
	await after.activate();
	await waitFor('the held burst', async () => after.starts.length === 1, { timeoutMs: 5000, intervalMs: 50 });
	expect(runs(after)).toEqual([['+14155550123', ['held']]]);
});

it('bursts held when the option is switched off start at once when the workflow is published again', async () => {
	const gathering = await host({ quietSeconds: 600 });
	await gathering.post(message('+14155550123', 'held 1'));
	await gathering.post(message('+14155550123', 'held 2'));
	const saved = gathering.staticData();
	await gathering.close();
	hosted.splice(hosted.indexOf(gathering), 1);
	const switchedOff = await host({ quickMessages: 'each' }, { staticData: saved });
	await switchedOff.activate();
	await waitFor('the held burst', async () => switchedOff.starts.length === 1, { timeoutMs: 5000, intervalMs: 50 });
	expect(runs(switchedOff)).toEqual([['+14155550123', ['held 1', 'held 2']]]);
	expect((await switchedOff.post(message('+14155550123', 'now one run each'))).json).toMatchObject({ started: true });
});

describe('bounds', () => {
	it(`a burst of ${MAX_BURST_MESSAGES} messages starts at once`, async () => {
		const trigger = await host({ quietSeconds: 600, longestWaitSeconds: 3600 });
		for (let i = 1; i < MAX_BURST_MESSAGES; i++) await trigger.post(message('+14155550123', `line ${i}`));
		expect(trigger.starts).toEqual([]);
		expect((await trigger.post(message('+14155550123', `line ${MAX_BURST_MESSAGES}`))).json).toMatchObject({ started: true });
		expect(trigger.starts[0].json[0].message_count).toBe(MAX_BURST_MESSAGES);
	});

	it(`past ${MAX_BURSTS} customers held, the oldest burst starts at once rather than being dropped`, async () => {
		const trigger = await host({ quietSeconds: 600, longestWaitSeconds: 3600 });
		for (let i = 0; i < MAX_BURSTS; i++) await trigger.post(message(`+1${String(2000000000 + i)}`, `customer ${i}`));
		expect(trigger.starts).toEqual([]);
		await trigger.post(message('+19999999999', 'one too many'));
		expect(runs(trigger)).toEqual([['+12000000000', ['customer 0']]]);
	}, 120_000);
});

it('a flush call without the trigger’s flush key is refused (401) and starts nothing', async () => {
	const trigger = await host();
	await trigger.post(message('+14155550123', 'held'));
	const forged = await trigger.post({ event_type: 'chat-app-trigger.flush', from: '+14155550123' }, { headers: { [FLUSH_HEADER]: 'guessed' } });
	expect(forged.status).toBe(401);
	expect(trigger.starts).toEqual([]);
	await waitFor('the burst, by the trigger itself', async () => trigger.starts.length === 1, { timeoutMs: 5000, intervalMs: 50 });
});
