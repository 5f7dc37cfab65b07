// The trigger hosted as n8n hosts an active workflow's webhook, receiving the sandbox's real
// webhook deliveries: inbound messages, status changes of a message sent through /v1/messages,
// filters, authentication and at-least-once repeats.
import axios from 'axios';
import { hostTrigger, type HostedTrigger, type HostTriggerOptions } from '../../support/harness';
import { sandboxPerFile } from '../../support/sandbox';
import type { InboundWebhookPayload, WebhookDelivery } from '../../../tools/sandbox/client';
import { STORED_MEMORY_KEY } from '../../../nodes/shared/chatAppMessaging/trigger/deliveryMemory';

const CUSTOMER = '+14155550123';
const DAY_MS = 24 * 60 * 60 * 1000;

const sandbox = sandboxPerFile();
let trigger: HostedTrigger | undefined;

afterEach(async () => {
	await trigger?.close();
	trigger = undefined;
});

/** Hosts the trigger and points the sandbox's account webhook at its production URL. */
async function host(options: HostTriggerOptions = {}, webhookHeaders: Record<string, string> = {}) {
	trigger = await hostTrigger(options);
	await sandbox.client.setWebhook(trigger.url, webhookHeaders);
	return trigger;
}

/** Sends an approved template through the messaging API, as a workflow would. */
async function sendTemplate(to = CUSTOMER): Promise<string> {
	const res = await axios.post(
		`${sandbox.url}/v1/messages`,
		{ channel: 'chatapp', to, message_type: 'template', template: { id: 'welcome_customer', parameters: ['Ann'] } },
		{ headers: { Authorization: `Bearer ${sandbox.messagingKey}` }, proxy: false },
	);
	expect(res.status).toBe(200);
	return res.data.message_id;
}

/** Sends, waits for `delivered`, then the recipient reads it: two status webhooks. */
async function sendAndRead(): Promise<string> {
	const id = await sendTemplate();
	await sandbox.client.flushWebhooks();
	await sandbox.client.read(id);
	return id;
}

function statuses(deliveries: WebhookDelivery[]): Array<number | string | undefined> {
	return deliveries.map((delivery) => delivery.status ?? delivery.error);
}

describe('each event type starts the workflow with the payload as it came', () => {
	it('message.inbound: one item, plus window_open_until 24 hours after its timestamp', async () => {
		const hosted = await host({ workflowId: 'first-inbound' });
		const payload = await sandbox.client.inbound(CUSTOMER, 'Is my order on its way?');
		const deliveries = await sandbox.client.flushWebhooks();

		expect(statuses(deliveries)).toEqual([200]);
		expect(hosted.starts).toHaveLength(1);
		const [item] = hosted.starts[0].json;
		expect(item).toEqual({
			...payload,
			window_open_until: new Date(Date.parse(payload.timestamp) + DAY_MS).toISOString(),
			previous_inbound_at: null,
		});
		expect(hosted.calls[0].response.json).toEqual({ received: true, started: true, event_type: 'message.inbound' });
	});

	it('window_open_until moves with each new inbound message (the window opens again)', async () => {
		const hosted = await host();
		const first = await sandbox.client.inbound(CUSTOMER, 'Hello');
		await sandbox.client.advanceClock(3 * 60 * 60 * 1000);
		const second = await sandbox.client.inbound(CUSTOMER, 'Still there?');
		await sandbox.client.flushWebhooks();

		const windows = hosted.starts.map((start) => start.json[0].window_open_until);
		expect(windows).toEqual([
			new Date(Date.parse(first.timestamp) + DAY_MS).toISOString(),
			new Date(Date.parse(second.timestamp) + DAY_MS).toISOString(),
		]);
		expect(Date.parse(windows[1] as string) - Date.parse(windows[0] as string)).toBeGreaterThanOrEqual(3 * 60 * 60 * 1000);
		// The sandbox's own view of the window agrees.
		expect((await sandbox.client.window(CUSTOMER)).closesAt).toBe(windows[1]);
	});

	it('previous_inbound_at: the same number\'s latest earlier message, in a burst too; null for a new number', async () => {
		// a workflow of its own: the trigger remembers senders per workflow, for the life of the process
		const hosted = await host({ workflowId: 'previous-inbound-burst' });
		const first = await sandbox.client.inbound(CUSTOMER, 'Hello');
		await sandbox.client.advanceClock(2 * 60 * 60 * 1000);
		// a burst: five messages posted back to back, as a customer typing quickly
		const burst: InboundWebhookPayload[] = [];
		for (const text of ['Are you there?', 'I have a question', 'about order #1042', 'it is late', 'thanks']) {
			burst.push(await sandbox.client.inbound(CUSTOMER, text));
		}
		const other = await sandbox.client.inbound('+15551234567', 'Hi, first time here');
		await sandbox.client.flushWebhooks();

		const seen = hosted.starts.map((start) => [start.json[0].text, start.json[0].previous_inbound_at]);
		expect(seen).toEqual([
			['Hello', null],
			['Are you there?', first.timestamp],
			...burst.slice(1).map((message, index) => [message.text, burst[index].timestamp]),
			['Hi, first time here', null],
		]);
		expect(other.from).toBe('+15551234567');
	});

	it('previous_inbound_at ignores repeated deliveries: a repeat starts nothing and is not an earlier message', async () => {
		const hosted = await host({ workflowId: 'previous-inbound-repeats' });
		await sandbox.client.setRepeatDeliveries(2);
		const first = await sandbox.client.inbound(CUSTOMER, 'Hello');
		await sandbox.client.setRepeatDeliveries(0);
		const second = await sandbox.client.inbound(CUSTOMER, 'Hello again');
		await sandbox.client.flushWebhooks();
		expect(hosted.starts.map((start) => start.json[0].previous_inbound_at)).toEqual([null, first.timestamp]);
		expect(second.text).toBe('Hello again');
	});

	it('message.status: a sent message that is delivered, then read, starts the workflow twice', async () => {
		const hosted = await host();
		const id = await sendAndRead();
		const deliveries = await sandbox.client.flushWebhooks();

		expect(statuses(deliveries)).toEqual([200, 200]);
		expect(hosted.starts.map((start) => start.json)).toEqual(deliveries.map((delivery) => [delivery.payload]));
		expect(hosted.starts.map((start) => start.json[0].status)).toEqual(['delivered', 'read']);
		expect(hosted.starts[0].json[0]).toMatchObject({ event_type: 'message.status', message_id: id, to: CUSTOMER });
		expect(hosted.starts[0].json[0]).not.toHaveProperty('window_open_until');
	});
});

describe('Trigger On', () => {
	it('Inbound Message only: status events are acknowledged with 200 and start nothing', async () => {
		const hosted = await host({ parameters: { events: ['message.inbound'] } });
		await sendAndRead();
		await sandbox.client.inbound(CUSTOMER, 'Thanks');
		const deliveries = await sandbox.client.flushWebhooks();

		expect(deliveries.map((d) => [d.eventType, d.status])).toEqual([
			['message.status', 200],
			['message.status', 200],
			['message.inbound', 200],
		]);
		expect(hosted.starts.map((start) => start.json[0].event_type)).toEqual(['message.inbound']);
		expect(hosted.calls[0].response.json).toEqual({
			received: true,
			started: false,
			event_type: 'message.status',
			reason: 'Event type "message.status" is not selected in Trigger On',
		});
	});

	it('Message Status only: inbound messages are acknowledged with 200 and start nothing', async () => {
		const hosted = await host({ parameters: { events: ['message.status'] } });
		await sandbox.client.inbound(CUSTOMER, 'Hi');
		await sendAndRead();
		const deliveries = await sandbox.client.flushWebhooks();

		expect(statuses(deliveries)).toEqual([200, 200, 200]);
		expect(hosted.starts.map((start) => start.json[0].status)).toEqual(['delivered', 'read']);
		expect(hosted.calls[0].response.json).toMatchObject({ started: false, event_type: 'message.inbound' });
	});
});

describe('Status filter', () => {
	it.each([
		['delivered', ['delivered']],
		['read', ['read']],
		['any', ['delivered', 'read']],
	])('%s: starts for %j, acknowledges the rest with 200', async (status, started) => {
		const hosted = await host({ parameters: { events: ['message.status'], status } });
		await sendAndRead();
		const deliveries = await sandbox.client.flushWebhooks();

		expect(statuses(deliveries)).toEqual([200, 200]);
		expect(hosted.starts.map((start) => start.json[0].status)).toEqual(started);
		const skipped = hosted.calls.filter((call) => !call.start);
		for (const call of skipped) {
			expect((call.response.json as { reason: string }).reason).toMatch(/does not match the Status filter/);
		}
	});

	it('"Any Status" passes a status the documentation does not list, unchanged', async () => {
		const hosted = await host({ parameters: { status: 'any' } });
		const payload = {
			event_type: 'message.status',
			message_id: 'msg_x1',
			conversation_id: 'conv_1',
			channel: 'chatapp',
			to: CUSTOMER,
			status: 'failed',
			timestamp: '2030-01-01T10:00:00.000Z',
			error_reason: 'not on the channel',
		};
		const res = await hosted.post(payload);
		expect(res.status).toBe(200);
		expect(hosted.starts[0].json).toEqual([payload]);
	});

	it('a specific status filter does not let an unlisted status through', async () => {
		const hosted = await host({ parameters: { status: 'read' } });
		const res = await hosted.post({
			event_type: 'message.status',
			message_id: 'msg_x1',
			status: 'failed',
			timestamp: '2030-01-01T10:00:00.000Z',
		});
		expect(res.status).toBe(200);
		expect(res.json).toMatchObject({ started: false });
		expect(hosted.starts).toHaveLength(0);
	});
});

describe('repeated deliveries (at least once)', () => {
	it('start the workflow once per message, event type and status; every repeat still gets 200', async () => {
		const hosted = await host();
		await sandbox.client.setRepeatDeliveries(2);
		await sandbox.client.inbound(CUSTOMER, 'Hello');
		await sendAndRead();
		const deliveries = await sandbox.client.flushWebhooks();

		expect(deliveries).toHaveLength(9);
		expect(statuses(deliveries)).toEqual(Array(9).fill(200));
		expect(hosted.starts.map((start) => [start.json[0].event_type, start.json[0].status])).toEqual([
			['message.inbound', undefined],
			['message.status', 'delivered'],
			['message.status', 'read'],
		]);
		const repeat = hosted.calls.find((call) => !call.start);
		expect(repeat?.response.json).toMatchObject({
			started: false,
			reason: 'Repeated delivery of an event that already started the workflow',
		});
	});

	it('the memory is kept in the static data n8n saves, so it spans separate executions and hosts', async () => {
		const first = await host();
		await sandbox.client.setRepeatDeliveries(1);
		const payload = await sandbox.client.inbound(CUSTOMER, 'Hello');
		await sandbox.client.flushWebhooks();
		expect(first.starts).toHaveLength(1);
		const saved = first.staticData();
		await first.close();

		// The same workflow loaded again (e.g. after a restart) with its saved static data.
		const second = await host({ staticData: saved });
		const res = await second.post(payload);
		expect(res.status).toBe(200);
		expect(res.json).toMatchObject({ started: false });
		expect(second.starts).toHaveLength(0);
	});

	it('with Ignore Repeated Deliveries off, every delivery starts the workflow', async () => {
		const hosted = await host({ parameters: { ignoreRepeatedDeliveries: false } });
		await sandbox.client.setRepeatDeliveries(2);
		await sandbox.client.inbound(CUSTOMER, 'Hello');
		await sandbox.client.flushWebhooks();
		expect(hosted.starts).toHaveLength(3);
		// No repeat memory is kept (the conversation memory, previous_inbound_at, may be).
		expect(Object.values(hosted.staticData()).filter((node) => STORED_MEMORY_KEY in (node as object))).toEqual([]);
	});
});

describe('authentication of incoming calls', () => {
	const headerCredential = {
		nodeCredentials: { chatAppWebhookHeaderAuthApi: { id: 'hdr', name: 'Webhook secret' } },
		credentials: [
			{
				id: 'hdr',
				name: 'Webhook secret',
				type: 'chatAppWebhookHeaderAuthApi',
				data: { headerName: 'X-Webhook-Secret', secret: 'correct-horse-battery-staple' },
			},
		],
	};
	const basicCredential = {
		nodeCredentials: { chatAppWebhookBasicAuthApi: { id: 'basic', name: 'Webhook login' } },
		credentials: [
			{ id: 'basic', name: 'Webhook login', type: 'chatAppWebhookBasicAuthApi', data: { user: 'svc', password: 's3cret:pass' } },
		],
	};
	const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

	it('header: the right secret (any header-name case) starts the workflow', async () => {
		const hosted = await host(
			{ parameters: { authentication: 'headerAuth' }, ...headerCredential },
			{ 'x-webhook-secret': 'correct-horse-battery-staple' },
		);
		await sandbox.client.inbound(CUSTOMER, 'Hello');
		expect(statuses(await sandbox.client.flushWebhooks())).toEqual([200]);
		expect(hosted.starts).toHaveLength(1);
	});

	it.each([
		['a wrong secret', { 'X-Webhook-Secret': 'correct-horse-battery-stapl' }, 'Wrong value in the "X-Webhook-Secret" header.'],
		['no secret', {}, 'Missing the "X-Webhook-Secret" header.'],
		['the secret in another header', { 'X-Other': 'correct-horse-battery-staple' }, 'Missing the "X-Webhook-Secret" header.'],
	])('header: %s gets 401 and starts nothing', async (_case, headers, reason) => {
		const hosted = await host({ parameters: { authentication: 'headerAuth' }, ...headerCredential }, headers);
		await sandbox.client.inbound(CUSTOMER, 'Hello');
		await sendAndRead();
		expect(statuses(await sandbox.client.flushWebhooks())).toEqual([401, 401, 401]);
		expect(hosted.starts).toHaveLength(0);
		expect(hosted.calls[0].response.json).toEqual({ error: 'unauthorized', message: `Authorization failed: ${reason}` });
		expect(hosted.calls[0].response.text).not.toContain('correct-horse');
	});

	it('basic: the right user and password (with a colon) start the workflow', async () => {
		const hosted = await host(
			{ parameters: { authentication: 'basicAuth' }, ...basicCredential },
			{ Authorization: basic('svc', 's3cret:pass') },
		);
		await sendAndRead();
		expect(statuses(await sandbox.client.flushWebhooks())).toEqual([200, 200]);
		expect(hosted.starts).toHaveLength(2);
	});

	it.each([
		['a wrong password', { Authorization: basic('svc', 's3cret:pas') }],
		['a wrong user', { Authorization: basic('svx', 's3cret:pass') }],
		['no Authorization header', {}],
		['a bearer token instead', { Authorization: 'Bearer s3cret:pass' }],
	])('basic: %s gets 401 with a Basic challenge and starts nothing', async (_case, headers) => {
		const hosted = await host({ parameters: { authentication: 'basicAuth' }, ...basicCredential }, headers);
		await sandbox.client.inbound(CUSTOMER, 'Hello');
		expect(statuses(await sandbox.client.flushWebhooks())).toEqual([401]);
		expect(hosted.starts).toHaveLength(0);
		expect(hosted.calls[0].response.headers['www-authenticate']).toBe('Basic realm="Webhook"');
		expect(hosted.calls[0].response.json).toMatchObject({ error: 'unauthorized' });
	});

	it('an unauthenticated malformed call gets 401, not a hint about the payload rules', async () => {
		const hosted = await host({ parameters: { authentication: 'headerAuth' }, ...headerCredential });
		const res = await hosted.post({ nothing: 'here' });
		expect(res.status).toBe(401);
		expect(hosted.starts).toHaveLength(0);
	});
});
