/**
 * A month of examples/02 (reply to inbound chat messages) in minutes, in real n8n: the example
 * published, the sandbox posting its webhooks to it over thirty sandbox days: known customers and
 * numbers the workflow does not know, messages in bursts, deliveries the service repeats, a
 * conversation that goes quiet and starts again. Asserted where it lands: what each customer
 * receives at the sandbox (one reply per conversation, the name only when known, the time as
 * people read it, no braces, no raw timestamps), and every delivery answered 200.
 */
import { NODE_TYPES } from '../../tools/n8n/communityPackage';
import { wireCredentials } from '../../tools/n8n/client';
import { EXAMPLE_DATA, EXAMPLE_FILES, inboundReplyText, readExample, seedExampleData } from '../../tools/n8n/examples';
import { webhookHeadersFor } from '../../tools/n8n/sandboxCredentials';
import { webhookUrlsOf } from '../../tools/n8n/webhooks';
import type { InboundWebhookPayload } from '../../tools/sandbox/client';
import { creds, n8n, sandbox, settledCount } from './support';

const HOUR = 3600_000;
/** The trigger's Quiet Time here: a burst starts this long after its last message. */
const QUIET_SECONDS = 2;
const DAY = 24 * HOUR;
const [ADA, GRACE] = EXAMPLE_DATA.contacts.map((c) => ({ phone: c.phone, name: c.fields.first_name as string }));
/** Numbers the example's customer look-up does not know. */
const STRANGERS = ['+15550001111', '+447700900123', '+61400000777'];

let workflowId: string;
let timeZone: string;
const log: string[] = [];

beforeAll(async () => {
	await sandbox.reset();
	await seedExampleData(sandbox);
	// A workflow of its own (the importer reuses one of the same name): the trigger remembers each
	// number's last message per workflow while n8n runs, and this month ends 30 sandbox days ahead.
	// In a shared workflow, a later suite's message from Ada would find her last one a month in its
	// future, count as the same conversation and get no reply (CI failed so in webhooks.e2e).
	const example = readExample(EXAMPLE_FILES.inboundReply);
	// Bursts gathered with a Quiet Time of 2 s instead of the example's 5, for a shorter month.
	const trigger = example.nodes.find((node) => node.type === NODE_TYPES.trigger)!;
	trigger.parameters = { ...trigger.parameters, quietSeconds: QUIET_SECONDS };
	workflowId = await n8n.importWorkflow(wireCredentials({ ...example, name: `${example.name} (a month)` }, creds));
	await n8n.activate(workflowId);
	const url = (await webhookUrlsOf(n8n, workflowId)).find((u) => u.nodeType === NODE_TYPES.trigger)!.url;
	await sandbox.setWebhook(url, webhookHeadersFor(example));
	// the workflow sets no time zone: n8n's own
	timeZone = (await n8n.rest('GET', '/settings')).body.timezone;
});

afterAll(async () => {
	await sandbox.setWebhook(null);
	await sandbox.setRepeatDeliveries(0);
	await n8n.deactivate(workflowId);
	console.log(`inbound reply, a month (time zone ${timeZone}):\n  ${log.join('\n  ')}`);
});

/** What a number has received from the workflow so far: the texts, oldest first. */
async function received(phone: string): Promise<string[]> {
	return (await sandbox.messages({ phone })).filter((m) => m.direction === 'outbound').map((m) => m.text ?? '');
}

/**
 * The customer writes each text in turn (as fast as the service delivers them); returns their
 * payloads and what the customer received meanwhile, once the workflow has nothing left to do.
 */
async function writes(phone: string, texts: string[]): Promise<{ sent: InboundWebhookPayload[]; replies: string[] }> {
	const before = (await received(phone)).length;
	const sent: InboundWebhookPayload[] = [];
	for (const text of texts) sent.push(await sandbox.inbound(phone, text));
	const deliveries = (await sandbox.flushWebhooks()).filter((d) => sent.some((s) => s.message_id === (d.payload as any).message_id));
	expect(deliveries.every((d) => d.status === 200)).toBe(true);
	// The burst starts once the customer has been quiet for the Quiet Time.
	await new Promise((resolve) => setTimeout(resolve, QUIET_SECONDS * 1000 + 500));
	await settledCount(workflowId);
	return { sent, replies: (await received(phone)).slice(before) };
}

test('thirty days of customers writing in: one reply per conversation, by name only when known, with the time as people read it', async () => {
	for (let day = 1; day <= 30; day++) {
		await sandbox.advanceClock(DAY);
		if (day === 1) {
			const { sent, replies } = await writes(ADA.phone, ['Is my order on its way?']);
			expect(replies).toEqual([inboundReplyText(ADA.name, sent[0].timestamp, timeZone)]);
			log.push(`day ${day}: Ada writes -> "${replies[0]}"`);
		} else if (day === 2) {
			const { sent, replies } = await writes(STRANGERS[0], ['Hello, do you ship to Canada?']);
			expect(replies).toEqual([inboundReplyText(undefined, sent[0].timestamp, timeZone)]);
			log.push(`day ${day}: an unknown number writes -> "${replies[0]}"`);
		} else if (day === 3) {
			const { sent, replies } = await writes(ADA.phone, ['Hi', 'are you there?', 'my order #1042', 'is late', 'please answer']);
			// One burst, one run: answered from the last message's time.
			expect(replies).toEqual([inboundReplyText(ADA.name, sent[4].timestamp, timeZone)]);
			log.push(`day ${day}: Ada writes five messages in a row -> one burst, one reply`);
		} else if (day === 4) {
			await sandbox.setRepeatDeliveries(2);
			const { sent, replies } = await writes(GRACE.phone, ['Can I change my delivery address?']);
			await sandbox.setRepeatDeliveries(0);
			const copies = (await sandbox.webhookDeliveries()).filter((d) => (d.payload as any).message_id === sent[0].message_id);
			expect(copies.map((d) => d.status)).toEqual([200, 200, 200]);
			expect(replies).toEqual([inboundReplyText(GRACE.name, sent[0].timestamp, timeZone)]);
			log.push(`day ${day}: Grace's message delivered three times -> one reply`);
		} else if (day === 5) {
			const first = await writes(ADA.phone, ['One more question']);
			await sandbox.advanceClock(30 * 60_000);
			const soon = await writes(ADA.phone, ['Also: can I pay by card?']);
			await sandbox.advanceClock(61 * 60_000);
			const later = await writes(ADA.phone, ['Hello again, nobody answered']);
			expect([first.replies, soon.replies, later.replies]).toEqual([
				[inboundReplyText(ADA.name, first.sent[0].timestamp, timeZone)],
				[],
				[inboundReplyText(ADA.name, later.sent[0].timestamp, timeZone)],
			]);
			log.push(`day ${day}: Ada writes, again 30 min later (no reply), again 61 min after that (a reply)`);
		} else if (day === 6) {
			// The service answers the reply to Grace with 503: the execution fails, naming her and the
			// service's words; her next message, ten minutes later, is answered; the one after is not.
			await sandbox.injectFault({ kind: 'status', status: 503, method: 'POST', path: '/v1/messages', bodyContains: GRACE.phone, count: 1 });
			const failed = await writes(GRACE.phone, ['Where is my refund?']);
			expect(failed.replies).toEqual([]);
			const [latest] = await n8n.executions(workflowId);
			expect(latest.status).toBe('error');
			const error = (await n8n.api('GET', `/executions/${latest.id}?includeData=true`)).body.data?.resultData?.error;
			expect(String(error?.message)).toMatch(/^The reply to \+15551234567 was not sent; it goes out at their next message\. Message → Send Text failed: the service answered HTTP 503: .+/);
			await sandbox.advanceClock(10 * 60_000);
			const next = await writes(GRACE.phone, ['Hello? Anyone?']);
			expect(next.replies).toEqual([inboundReplyText(GRACE.name, next.sent[0].timestamp, timeZone)]);
			await sandbox.advanceClock(10 * 60_000);
			const after = await writes(GRACE.phone, ['Thanks, I will wait']);
			expect(after.replies).toEqual([]);
			log.push(`day ${day}: the reply to Grace fails (HTTP 503): a failed execution naming her; her next message 10 min later is answered, the one after it is not`);
		} else {
			// an ordinary day: a known customer and a stranger each write once
			const known = day % 2 === 0 ? ADA : GRACE;
			const stranger = STRANGERS[day % STRANGERS.length];
			const a = await writes(known.phone, [`Question of day ${day}`]);
			const b = await writes(stranger, [`Hi, day ${day} here`]);
			expect([a.replies, b.replies]).toEqual([
				[inboundReplyText(known.name, a.sent[0].timestamp, timeZone)],
				[inboundReplyText(undefined, b.sent[0].timestamp, timeZone)],
			]);
		}
	}
	log.push('days 7-30: a known customer and an unknown number write once a day -> one reply each');

	// Everything any customer received this month reads as words.
	const everyone = [ADA.phone, GRACE.phone, ...STRANGERS];
	const all = (await Promise.all(everyone.map(received))).flat();
	for (const text of all) {
		expect(text).not.toMatch(/[{}]/);
		expect(text).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
	}
	log.push(`${all.length} replies in all, none with braces or a raw timestamp`);
}, 600_000);
