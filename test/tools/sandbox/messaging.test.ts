import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox } from '../../../tools/sandbox/server';
import { HOUR, api, startReceiver, type Receiver } from '../../../tools/sandbox/testkit';
import { sandboxPerFile } from '../../support/sandbox';

const sandbox = sandboxPerFile();
let receiver: Receiver;
const msg = () => api(sandbox.url, sandbox.messagingKey);
const TO = '+14155550123';

beforeAll(async () => {
	receiver = await startReceiver();
});
afterAll(async () => {
	await receiver.close();
});
beforeEach(async () => {
	receiver.received.length = 0;
	receiver.status = 200;
});

const template = (id: string, parameters: unknown[]) => ({ channel: 'chatapp', to: TO, message_type: 'template', template: { id, parameters } });
const text = (body: string, extra: object = {}) => ({ channel: 'chatapp', to: TO, message_type: 'text', text: body, ...extra });

async function expectError(body: unknown, status: number, code: string, field?: string) {
	const res = await msg().post('/messages', body);
	expect({ status: res.status, code: res.data?.error?.code }).toEqual({ status, code });
	if (field !== undefined) expect(res.data.error.field).toBe(field);
	return res.data.error as { code: string; message: string; field?: string };
}

describe('send request validation', () => {
	test('a valid template send answers message_id and conversation_id', async () => {
		const res = await msg().post('/messages', template('welcome_customer', ['Ada']));
		expect(res.status).toBe(200);
		expect(res.data).toEqual({ message_id: expect.stringMatching(/^msg_/), conversation_id: expect.stringMatching(/^conv_/) });
	});

	test('channel must be chatapp', async () => {
		await expectError({ ...template('welcome_customer', ['Ada']), channel: 'sms' }, 400, 'validation_error', 'channel');
		await expectError({ ...template('welcome_customer', ['Ada']), channel: undefined }, 400, 'validation_error', 'channel');
	});

	test.each(['4155550123', '+0155550123', '+1 415 555 0123', '+1-415-555-0123', '+12345', '+1234567890123456', '', 14155550123])('to %j is not E.164 -> 400', async (to) => {
		const error = await expectError({ ...template('welcome_customer', ['Ada']), to }, 400, 'validation_error', 'to');
		expect(error.message).toMatch(/E\.164/);
	});

	test.each(['+1415555', '+442071838750', '+123456789012345'])('to %s is E.164', async (to) => {
		expect((await msg().post('/messages', { ...template('welcome_customer', ['Ada']), to })).status).toBe(200);
	});

	test('message_type must be one of the eight types', async () => {
		const error = await expectError({ channel: 'chatapp', to: TO, message_type: 'sticker' }, 400, 'validation_error', 'message_type');
		expect(error.message).toContain('custom');
		await expectError({ channel: 'chatapp', to: TO }, 400, 'validation_error', 'message_type');
	});

	describe('each type object (inside an open window)', () => {
		beforeEach(async () => {
			await sandbox.client.inbound(TO, 'hi');
		});
		const base = (type: string, extra: object) => ({ channel: 'chatapp', to: TO, message_type: type, ...extra });

		test('text: a non-empty string', async () => {
			await expectError(base('text', {}), 400, 'validation_error', 'text');
			await expectError(base('text', { text: '' }), 400, 'validation_error', 'text');
			await expectError(base('text', { text: { body: 'x' } }), 400, 'validation_error', 'text');
			expect((await msg().post('/messages', base('text', { text: 'hello' }))).status).toBe(200);
		});

		test.each(['image', 'video', 'audio', 'file'])('%s: an object with an http(s) url; extra keys allowed', async (type) => {
			await expectError(base(type, {}), 400, 'validation_error', type);
			await expectError(base(type, { [type]: 'https://x/a' }), 400, 'validation_error', type);
			await expectError(base(type, { [type]: {} }), 400, 'validation_error', `${type}.url`);
			await expectError(base(type, { [type]: { url: 'ftp://example.com/a' } }), 400, 'validation_error', `${type}.url`);
			await expectError(base(type, { [type]: { url: 'not a url' } }), 400, 'validation_error', `${type}.url`);
			expect((await msg().post('/messages', base(type, { [type]: { url: 'https://example.com/a.bin', caption: 'c', filename: 'a.bin' } }))).status).toBe(200);
		});

		test('location: latitude -90..90, longitude -180..180, name and address strings, static only', async () => {
			const ok = { latitude: 41.9, longitude: 12.5, name: 'Colosseum', address: 'Piazza del Colosseo, Rome' };
			await expectError(base('location', {}), 400, 'validation_error', 'location');
			await expectError(base('location', { location: { ...ok, latitude: 91 } }), 400, 'validation_error', 'location.latitude');
			await expectError(base('location', { location: { ...ok, latitude: '41.9' } }), 400, 'validation_error', 'location.latitude');
			await expectError(base('location', { location: { ...ok, longitude: -181 } }), 400, 'validation_error', 'location.longitude');
			await expectError(base('location', { location: { ...ok, longitude: undefined } }), 400, 'validation_error', 'location.longitude');
			await expectError(base('location', { location: { ...ok, name: 5 } }), 400, 'validation_error', 'location.name');
			await expectError(base('location', { location: { ...ok, address: [] } }), 400, 'validation_error', 'location.address');
			await expectError(base('location', { location: { ...ok, live: true } }), 400, 'validation_error', 'location.live');
			expect((await msg().post('/messages', base('location', { location: ok }))).status).toBe(200);
			expect((await msg().post('/messages', base('location', { location: { ...ok, latitude: -90, longitude: 180 } }))).status).toBe(200);
		});

		test('custom: any JSON object, stored unchanged', async () => {
			await expectError(base('custom', {}), 400, 'validation_error', 'custom');
			await expectError(base('custom', { custom: [1] }), 400, 'validation_error', 'custom');
			await expectError(base('custom', { custom: 'x' }), 400, 'validation_error', 'custom');
			const custom = { kind: 'card', nested: { a: [1, 2] } };
			const res = await msg().post('/messages', base('custom', { custom }));
			expect(res.status).toBe(200);
			expect((await sandbox.client.message(res.data.message_id)).request?.custom).toEqual(custom);
		});

		test('injected_fields must be an object of scalars', async () => {
			await expectError(base('text', { text: 'x', injected_fields: 'a' }), 400, 'validation_error', 'injected_fields');
			await expectError(base('text', { text: 'x', injected_fields: { a: { b: 1 } } }), 400, 'validation_error', 'injected_fields.a');
		});
	});

	test('unknown top-level fields are accepted and recorded', async () => {
		const res = await msg().post('/messages', { ...template('welcome_customer', ['Ada']), opt_out_link: true, tracking: { id: 7 } });
		expect(res.status).toBe(200);
		const stored = await sandbox.client.message(res.data.message_id);
		expect(stored.request).toMatchObject({ opt_out_link: true, tracking: { id: 7 } });
		const [logged] = await sandbox.client.requests({ path: '/v1/messages' });
		expect(logged.body).toMatchObject({ opt_out_link: true });
	});
});

describe('templates', () => {
	test('default templates are seeded', async () => {
		const ids = (await sandbox.client.templates()).map((t) => [t.id, t.status, t.parameters.length]);
		expect(ids).toEqual(
			expect.arrayContaining([
				['welcome_customer', 'approved', 1],
				['order_update', 'approved', 2],
				['event_alert', 'approved', 3],
				['appointment_reminder', 'approved', 2],
				['promo_pending', 'pending', 1],
			]),
		);
	});

	test('templates pass with the window closed, and the text is rendered', async () => {
		const res = await msg().post('/messages', template('order_update', ['Ada', '#1234']));
		expect(res.status).toBe(200);
		expect((await sandbox.client.message(res.data.message_id)).text).toBe('Hello Ada, your order #1234 has been updated.');
		expect((await msg().post('/messages', template('event_alert', ['Rome', '2030-01-01 10:00', 'Senate meets']))).status).toBe(200);
		expect((await msg().post('/messages', template('appointment_reminder', ['Ada', 'Monday 9:00']))).status).toBe(200);
	});

	test('a missing parameter is rejected naming its position', async () => {
		const error = await expectError(template('order_update', ['Ada']), 422, 'template_parameters', 'template.parameters');
		expect(error.message).toMatch(/\{\{2\}\}.*missing/);
		await expectError(template('event_alert', ['Rome', 'noon']), 422, 'template_parameters');
		await expectError(template('welcome_customer', []), 422, 'template_parameters');
	});

	test('an extra parameter is rejected naming its position', async () => {
		const error = await expectError(template('welcome_customer', ['Ada', 'extra']), 422, 'template_parameters');
		expect(error.message).toMatch(/\{\{2\}\}.*extra/);
	});

	test('an empty parameter is rejected naming its position', async () => {
		const error = await expectError(template('appointment_reminder', ['Ada', '  ']), 422, 'template_parameters');
		expect(error.message).toMatch(/\{\{2\}\}.*empty/);
	});

	test('out-of-order order_update parameters are rejected', async () => {
		const error = await expectError(template('order_update', ['#1234', 'Ada']), 422, 'template_parameters');
		expect(error.message).toMatch(/\{\{1\}\}/);
		expect(error.message).toMatch(/out of order/);
		// Second position alone out of shape.
		const second = await expectError(template('order_update', ['Ada', 'Bob']), 422, 'template_parameters');
		expect(second.message).toMatch(/\{\{2\}\} \(order number\)/);
	});

	test('a template that is not approved is rejected', async () => {
		const error = await expectError(template('promo_pending', ['Ada']), 422, 'template_not_approved', 'template.id');
		expect(error.message).toMatch(/not approved/);
	});

	test('an unknown template is rejected', async () => {
		await expectError(template('nope', []), 422, 'template_not_found', 'template.id');
	});

	test('template object and parameter types are checked', async () => {
		await expectError({ channel: 'chatapp', to: TO, message_type: 'template' }, 400, 'validation_error', 'template');
		await expectError({ channel: 'chatapp', to: TO, message_type: 'template', template: { parameters: [] } }, 400, 'validation_error', 'template.id');
		await expectError({ channel: 'chatapp', to: TO, message_type: 'template', template: { id: 'welcome_customer', parameters: 'Ada' } }, 400, 'validation_error', 'template.parameters');
		await expectError(template('welcome_customer', [7]), 400, 'validation_error', 'template.parameters[0]');
	});

	test('seeded templates with their own counts and patterns', async () => {
		await sandbox.client.seedTemplate({ id: 'otp', category: 'Authentication', parameters: [{ name: 'code', pattern: '^[0-9]{6}$' }] });
		await sandbox.client.seedTemplate({ id: 'two', parameters: 2 });
		expect((await msg().post('/messages', template('otp', ['123456']))).status).toBe(200);
		await expectError(template('otp', ['12ab56']), 422, 'template_parameters');
		expect((await msg().post('/messages', template('two', ['a', 'b']))).status).toBe(200);
		await expectError(template('two', ['a']), 422, 'template_parameters');
	});
});

describe('24-hour window', () => {
	test('free-form before any inbound is rejected; accepted after an inbound', async () => {
		const error = await expectError(text('hello'), 422, 'window_closed');
		expect(error.message).toMatch(/24-hour customer service window/);
		expect(error.message).toMatch(/template/);
		await sandbox.client.inbound(TO, 'hi there');
		expect((await msg().post('/messages', text('hello'))).status).toBe(200);
	});

	test.each([
		['image', { image: { url: 'https://example.com/a.png' } }],
		['location', { location: { latitude: 1, longitude: 2, name: 'n', address: 'a' } }],
		['custom', { custom: { a: 1 } }],
		['file', { file: { url: 'https://example.com/a.pdf' } }],
	])('%s outside the window -> window_closed', async (type, extra) => {
		await expectError({ channel: 'chatapp', to: TO, message_type: type, ...extra }, 422, 'window_closed');
	});

	test('the window is per customer number', async () => {
		await sandbox.client.inbound(TO, 'hi');
		await expectError({ ...text('hello'), to: '+442071838750' }, 422, 'window_closed');
	});

	test('the window closes 24 sandbox hours after the latest inbound, and reopens with a new one', async () => {
		await sandbox.client.inbound(TO, 'hi');
		await sandbox.client.advanceClock(23 * HOUR + 59 * 60_000);
		expect((await msg().post('/messages', text('still open'))).status).toBe(200);
		await sandbox.client.advanceClock(60_000);
		await expectError(text('closed now'), 422, 'window_closed');
		expect((await msg().post('/messages', template('welcome_customer', ['Ada']))).status).toBe(200);
		await sandbox.client.inbound(TO, 'back again');
		expect((await msg().post('/messages', text('open again'))).status).toBe(200);
		expect((await sandbox.client.window(TO)).open).toBe(true);
	});

	test('a later inbound extends the window', async () => {
		await sandbox.client.inbound(TO, 'one');
		await sandbox.client.advanceClock(20 * HOUR);
		await sandbox.client.inbound(TO, 'two');
		await sandbox.client.advanceClock(20 * HOUR);
		expect((await msg().post('/messages', text('ok'))).status).toBe(200);
	});
});

describe('placeholders', () => {
	beforeEach(async () => {
		await sandbox.client.inbound(TO, 'hi');
	});

	async function sendAndRead(body: string, injected?: object) {
		const res = await msg().post('/messages', text(body, injected ? { injected_fields: injected } : {}));
		expect(res.status).toBe(200);
		return sandbox.client.message(res.data.message_id);
	}

	test('{name} and {{name}} resolve from injected_fields', async () => {
		const stored = await sendAndRead('Hi {first_name}, order {{order}} ships { first_name }.', { first_name: 'Ada', order: 42 });
		expect(stored.text).toBe('Hi Ada, order 42 ships Ada.');
		expect(stored.unresolved_placeholders).toEqual([]);
	});

	test('stored contact fields fill what injected_fields do not; injected_fields win', async () => {
		await sandbox.client.seedContact(TO, { first_name: 'Contact', city: 'Rome' });
		const stored = await sendAndRead('Hi {first_name} from {{city}}', { first_name: 'Injected' });
		expect(stored.text).toBe('Hi Injected from Rome');
	});

	test('unresolved placeholders are left as written and listed', async () => {
		const stored = await sendAndRead('Hi {first_name}, your code {{code}}', {});
		expect(stored.text).toBe('Hi {first_name}, your code {{code}}');
		expect(stored.unresolved_placeholders).toEqual(['first_name', 'code']);
	});

	test('the resolved text is exposed in GET /v1/messages/{id}', async () => {
		const res = await msg().post('/messages', text('Hi {n}', { injected_fields: { n: 'Ada' } }));
		expect((await msg().get(`/messages/${res.data.message_id}`)).data.text).toBe('Hi Ada');
	});
});

describe('business account connection', () => {
	test('disconnected: every send fails with 403 business_account_not_connected', async () => {
		await sandbox.client.setBusinessConnected(false);
		const error = await expectError(template('welcome_customer', ['Ada']), 403, 'business_account_not_connected');
		expect(error.message).toMatch(/^Business account not connected/);
		await sandbox.client.setBusinessConnected(true);
		expect((await msg().post('/messages', template('welcome_customer', ['Ada']))).status).toBe(200);
	});
});

describe('status lookup and webhooks', () => {
	test('GET /v1/messages/{id}: sent, then delivered; unknown id 404', async () => {
		const { data: sent } = await msg().post('/messages', template('welcome_customer', ['Ada']));
		await sandbox.client.flushWebhooks();
		const res = await msg().get(`/messages/${sent.message_id}`);
		expect(res.status).toBe(200);
		expect(res.data).toMatchObject({ message_id: sent.message_id, conversation_id: sent.conversation_id, to: TO, message_type: 'template', status: 'delivered' });
		expect(Date.parse(res.data.timestamp)).not.toBeNaN();
		const missing = await msg().get('/messages/msg_nope');
		expect(missing.status).toBe(404);
		expect(missing.data.error.code).toBe('not_found');
	});

	test('one conversation per customer number', async () => {
		const a = await msg().post('/messages', template('welcome_customer', ['Ada']));
		const b = await msg().post('/messages', template('welcome_customer', ['Ada']));
		const c = await msg().post('/messages', { ...template('welcome_customer', ['Ada']), to: '+442071838750' });
		expect(a.data.conversation_id).toBe(b.data.conversation_id);
		expect(c.data.conversation_id).not.toBe(a.data.conversation_id);
		expect(a.data.message_id).not.toBe(b.data.message_id);
	});

	test('a local receiver gets delivered, then read after a simulated read; exact fields and headers', async () => {
		await sandbox.client.setWebhook(receiver.url, { 'X-Webhook-Secret': 's3cret' });
		const { data: sent } = await msg().post('/messages', template('welcome_customer', ['Ada']));
		await sandbox.client.flushWebhooks();
		expect(receiver.received).toHaveLength(1);
		const [first] = receiver.received;
		expect(first.headers['content-type']).toBe('application/json');
		expect(first.headers['x-webhook-secret']).toBe('s3cret');
		expect(first.body).toEqual({
			event_type: 'message.status',
			message_id: sent.message_id,
			conversation_id: sent.conversation_id,
			channel: 'chatapp',
			to: TO,
			status: 'delivered',
			timestamp: expect.any(String),
		});
		expect(first.body.timestamp).toMatch(/Z$/);

		const read = await sandbox.client.read(sent.message_id);
		expect(read).toEqual({ message_id: sent.message_id, status: 'read', changed: true });
		await sandbox.client.flushWebhooks();
		expect(receiver.received.map((r) => r.body.status)).toEqual(['delivered', 'read']);
		expect(Object.keys(receiver.received[1].body).sort()).toEqual(['channel', 'conversation_id', 'event_type', 'message_id', 'status', 'timestamp', 'to']);
		expect((await msg().get(`/messages/${sent.message_id}`)).data.status).toBe('read');

		// Reading again changes nothing and emits nothing.
		expect((await sandbox.client.read(sent.message_id)).changed).toBe(false);
		await sandbox.client.flushWebhooks();
		expect(receiver.received).toHaveLength(2);
	});

	test('a read before delivery emits delivered first, then read', async () => {
		await sandbox.client.configure({ deliveryDelayMs: 60_000 });
		await sandbox.client.setWebhook(receiver.url);
		const { data: sent } = await msg().post('/messages', template('welcome_customer', ['Ada']));
		expect((await msg().get(`/messages/${sent.message_id}`)).data.status).toBe('sent');
		await sandbox.client.read(sent.message_id);
		await sandbox.client.flushWebhooks();
		expect(receiver.received.map((r) => r.body.status)).toEqual(['delivered', 'read']);
	});

	test('inbound: message.inbound webhook with exactly the documented fields', async () => {
		await sandbox.client.setWebhook(receiver.url);
		const payload = await sandbox.client.inbound(TO, 'Hello from the customer');
		await sandbox.client.flushWebhooks();
		expect(receiver.received).toHaveLength(1);
		expect(receiver.received[0].body).toEqual(payload);
		expect(payload).toEqual({
			event_type: 'message.inbound',
			message_id: expect.any(String),
			conversation_id: expect.stringMatching(/^conv_/),
			channel: 'chatapp',
			from: TO,
			text: 'Hello from the customer',
			timestamp: expect.stringMatching(/Z$/),
		});
		// Same conversation as outbound messages to that number.
		const { data: sent } = await msg().post('/messages', template('welcome_customer', ['Ada']));
		expect(sent.conversation_id).toBe(payload.conversation_id);
	});

	test('inbound validates the number', async () => {
		await expect(sandbox.client.inbound('12345', 'x')).rejects.toThrow(/from/);
	});

	test('repeat deliveries: every webhook arrives N extra times with the same payload', async () => {
		await sandbox.client.setWebhook(receiver.url);
		await sandbox.client.setRepeatDeliveries(2);
		await msg().post('/messages', template('welcome_customer', ['Ada']));
		const deliveries = await sandbox.client.flushWebhooks();
		expect(receiver.received).toHaveLength(3);
		expect(new Set(receiver.received.map((r) => r.raw)).size).toBe(1);
		expect(deliveries.map((d) => d.attempt)).toEqual([1, 2, 3]);
	});

	test('deliveries are recorded with url, payload and status; a failing receiver never crashes the sandbox', async () => {
		await sandbox.client.setWebhook(receiver.url);
		receiver.status = 500;
		await msg().post('/messages', template('welcome_customer', ['Ada']));
		let deliveries = await sandbox.client.webhookDeliveries();
		expect(deliveries).toEqual([expect.objectContaining({ url: receiver.url, status: 500, eventType: 'message.status', payload: expect.objectContaining({ status: 'delivered' }) })]);

		await sandbox.client.setWebhook('http://127.0.0.1:1/nothing-listens-here');
		await sandbox.client.inbound(TO, 'hi');
		deliveries = await sandbox.client.webhookDeliveries();
		expect(deliveries[1]).toMatchObject({ url: 'http://127.0.0.1:1/nothing-listens-here', eventType: 'message.inbound' });
		expect(deliveries[1].error).toBeTruthy();
		expect(deliveries[1].status).toBeUndefined();
		expect((await msg().post('/messages', text('still alive'))).status).toBe(200);
	});

	test('a receiver that never answers times out and is recorded', async () => {
		const http = await import('node:http');
		const hanging = http.createServer(() => undefined);
		await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
		try {
			const port = (hanging.address() as { port: number }).port;
			await sandbox.client.configure({ webhookTimeoutMs: 100 });
			await sandbox.client.setWebhook(`http://127.0.0.1:${port}/`);
			await sandbox.client.inbound(TO, 'hi');
			const [delivery] = await sandbox.client.webhookDeliveries();
			expect(delivery.error).toMatch(/did not answer/);
		} finally {
			hanging.closeAllConnections();
			await new Promise((r) => hanging.close(r));
		}
	});

	test('parallel sends: every message is delivered exactly once, in queue order', async () => {
		await sandbox.client.setWebhook(receiver.url);
		const sends = await Promise.all(Array.from({ length: 20 }, (_, i) => msg().post('/messages', template('welcome_customer', [`Customer ${i}`]))));
		expect(sends.every((r) => r.status === 200)).toBe(true);
		const snapshot = await sandbox.client.webhookDeliveries({ wait: false });
		expect(snapshot.length).toBeLessThanOrEqual(20);
		await sandbox.client.flushWebhooks();
		const ids = receiver.received.map((r) => r.body.message_id).sort();
		expect(ids).toEqual(sends.map((r) => r.data.message_id).sort());
	});

	test('without a webhook URL deliveries are still recorded (nothing sent)', async () => {
		await msg().post('/messages', template('welcome_customer', ['Ada']));
		const deliveries = await sandbox.client.webhookDeliveries();
		expect(deliveries).toEqual([expect.objectContaining({ url: null, error: expect.stringMatching(/No webhook URL/) })]);
	});

	test('startup webhook options are used and restored by reset', async () => {
		const other = await startSandbox({ webhookUrl: receiver.url, webhookHeaders: { Authorization: 'Basic dTpw' } });
		try {
			await other.client.setWebhook(null);
			await other.client.reset();
			await other.client.inbound(TO, 'hi');
			await other.client.flushWebhooks();
			expect(receiver.received).toHaveLength(1);
			expect(receiver.received[0].headers.authorization).toBe('Basic dTpw');
		} finally {
			await other.close();
		}
	});
});

describe('link previews', () => {
	/** A page server that records every request, as the owner of a link would see them. */
	async function startPages() {
		const seen: Array<{ method: string; path: string; userAgent: string }> = [];
		const server = http.createServer((req, res) => {
			seen.push({ method: req.method ?? '', path: req.url ?? '', userAgent: String(req.headers['user-agent']) });
			res.writeHead(req.url === '/gone' ? 404 : 200, { 'Content-Type': 'text/html' });
			res.end(`<html><head><title>Page ${req.url}</title></head><body>hi</body></html>`);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		return { base, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
	}

	test('every accepted message lists the links in its text; nothing is fetched while the setting is off', async () => {
		const pages = await startPages();
		try {
			await sandbox.client.inbound(TO, 'hi');
			await msg().post('/messages', text(`Answer here: ${pages.base}/a?x=1. Or (${pages.base}/b)`));
			await msg().post('/messages', template('welcome_customer', [`${pages.base}/c`]));

			const [inbound, first, second] = await sandbox.client.messages();
			expect(inbound.direction).toBe('inbound');
			expect(first.links).toEqual([`${pages.base}/a?x=1`, `${pages.base}/b`]);
			expect(second.links).toEqual([`${pages.base}/c`]);
			expect(first.previews).toBeUndefined();
			expect(pages.seen).toEqual([]);
		} finally {
			await pages.close();
		}
	});

	test('with linkPreviews on, each link of a text or template message is fetched once with GET, as a preview bot', async () => {
		const pages = await startPages();
		try {
			await sandbox.client.configure({ linkPreviews: true });
			await sandbox.client.inbound(TO, 'hi');
			await msg().post('/messages', text(`Two links: ${pages.base}/a and ${pages.base}/gone`));
			await msg().post('/messages', template('welcome_customer', [`${pages.base}/c`]));

			const outbound = (await sandbox.client.messages({ phone: TO })).filter((m) => m.direction === 'outbound');
			expect(pages.seen.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /a', 'GET /gone', 'GET /c']);
			expect(pages.seen.every((r) => r.userAgent.includes('facebookexternalhit'))).toBe(true);
			expect(outbound[0].previews?.map((p) => [p.url, p.status, p.title])).toEqual([
				[`${pages.base}/a`, 200, 'Page /a'],
				[`${pages.base}/gone`, 404, 'Page /gone'],
			]);
			expect(outbound[1].previews?.map((p) => p.status)).toEqual([200]);
		} finally {
			await pages.close();
		}
	});

	test('with linkPreviewDelayMs the bot fetches only after that delay', async () => {
		const pages = await startPages();
		try {
			await sandbox.client.configure({ linkPreviews: true, linkPreviewDelayMs: 300 });
			await sandbox.client.inbound(TO, 'hi');
			await msg().post('/messages', text(`Later: ${pages.base}/later`));

			const [, early] = await sandbox.client.messages({ wait: false });
			expect(early.previews).toEqual([]);
			expect(pages.seen).toEqual([]);
			const [, late] = await sandbox.client.messages();
			expect(late.previews?.map((p) => p.status)).toEqual([200]);
			expect(pages.seen.map((r) => r.path)).toEqual(['/later']);
		} finally {
			await pages.close();
		}
	});

	test('a link nobody answers is recorded with the error, and reset turns the setting off again', async () => {
		await sandbox.client.configure({ linkPreviews: true });
		await sandbox.client.inbound(TO, 'hi');
		await msg().post('/messages', text('Dead link: http://127.0.0.1:9/nothing'));

		const [, sent] = await sandbox.client.messages();
		expect(sent.previews).toEqual([expect.objectContaining({ url: 'http://127.0.0.1:9/nothing', error: expect.stringMatching(/ECONNREFUSED/) })]);
		await sandbox.client.reset();
		expect((await sandbox.client.config()).linkPreviews).toBe(false);
	});
});
