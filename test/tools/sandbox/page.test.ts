// The sandbox's page (GET /) and what it acts through: the view and its live stream, writing as
// the customer, delivering again, events, anomalies, faults, and a demo's "start here" and reset.
// Each action is a control call that tests and curl make too; a bad one is refused naming its
// field, and changes nothing.
import http from 'node:http';

import { HttpError } from '../../../tools/sandbox/http';
import { startSandbox, type Sandbox } from '../../../tools/sandbox/server';
import type { Tour } from '../../../tools/sandbox/tour';
import type { PageView } from '../../../tools/sandbox/page';
import { HOUR, api, rawRequest, startReceiver, type Receiver } from '../../../tools/sandbox/testkit';
import { waitFor } from '../../../tools/shared/wait';

const ADA = '+14155550123';
const GRACE = '+15551234567';
const SECRET = { 'X-Webhook-Secret': 'sandbox-webhook-secret-0123456789' };
let sandbox: Sandbox;
let receiver: Receiver;

beforeAll(async () => {
	sandbox = await startSandbox();
	receiver = await startReceiver();
});
afterAll(async () => {
	await sandbox.close();
	await receiver.close();
});
beforeEach(async () => {
	await sandbox.client.reset();
	await sandbox.client.setWebhook(receiver.url, SECRET);
	await sandbox.client.seedContact(ADA, { first_name: 'Ada' });
	await sandbox.client.seedContact(GRACE, { first_name: 'Grace' });
	receiver.received.length = 0;
});

/** A control call as the page makes it: the status and the error, never a throw. */
async function control(method: string, path: string, body?: object) {
	const res = await rawRequest(sandbox.url, method, `/_sandbox${path}`, body === undefined ? {} : { body: JSON.stringify(body) });
	return { status: res.status, body: res.json };
}

async function expectRefused(method: string, path: string, body: object, status: number, field: string, message: RegExp) {
	const res = await control(method, path, body);
	expect({ status: res.status, field: res.body?.error?.field }).toEqual({ status, field });
	expect(res.body.error.message).toMatch(message);
}

describe('the page', () => {
	test('GET / serves it, with its script and style, each with a content security policy; none of it is in the request log', async () => {
		const page = await rawRequest(sandbox.url, 'GET', '/');
		expect(page.status).toBe(200);
		expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
		expect(page.headers['content-security-policy']).toContain("default-src 'self'");
		expect(page.text).toContain('<script type="module" src="/_sandbox/page/page.js"></script>');
		for (const [file, type] of [
			['/_sandbox/page/page.js', 'text/javascript; charset=utf-8'],
			['/_sandbox/page/page.css', 'text/css; charset=utf-8'],
		]) {
			const res = await rawRequest(sandbox.url, 'GET', file);
			expect({ status: res.status, type: res.headers['content-type'] }).toEqual({ status: 200, type });
		}
		expect(await sandbox.client.requests()).toEqual([]);
	});

	test('the stream sends the view at once, and again a moment after each change', async () => {
		const views: PageView[] = [];
		const request = http.get(`${sandbox.url}/_sandbox/stream`, { agent: false });
		try {
			const res = await new Promise<http.IncomingMessage>((resolve) => request.on('response', resolve));
			expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
			let buffered = '';
			res.on('data', (chunk: Buffer) => {
				buffered += chunk.toString();
				for (let end = buffered.indexOf('\n\n'); end !== -1; end = buffered.indexOf('\n\n')) {
					const event = buffered.slice(0, end);
					buffered = buffered.slice(end + 2);
					const data = /^event: view\ndata: (.*)$/s.exec(event);
					if (data) views.push(JSON.parse(data[1]));
				}
			});
			await waitFor('the first view', () => views.length === 1, { timeoutMs: 5000, intervalMs: 20 });
			expect(views[0].conversations.map((c) => c.phone)).toEqual([ADA, GRACE]);
			await sandbox.client.inbound(ADA, 'Hello?');
			const next = await waitFor('a view with the message', () => views.find((v) => v.conversations[0].messages.length === 1), { timeoutMs: 5000, intervalMs: 20 });
			expect(next.conversations[0].messages[0].text).toBe('Hello?');
		} finally {
			request.destroy();
		}
	});

	test('the view: a conversation per contact and per number written to, newest first, with its window; events by location; timelines with anomalies; requests newest first with their answers', async () => {
		const messaging = api(sandbox.url, sandbox.messagingKey);
		await sandbox.client.inbound(ADA, 'Hi');
		await messaging.post('/messages', { channel: 'chatapp', to: '+14155550124', message_type: 'template', template: { id: 'welcome_customer', parameters: ['Sam'] } });
		await sandbox.client.seedEvent({ location: 'Rome', time: '2030-01-01T10:00:00Z', description: 'A senate meets' });
		const timeline = (await api(sandbox.url, sandbox.timelineKey).post('/timelines', { name: 'Ides' })).data;
		await api(sandbox.url, sandbox.timelineKey).post('/events', { timeline_id: timeline.timeline_id, action: 'add', time: '2029-12-31T10:00:00Z', location: ' rome', description: 'A dagger is bought' });
		await sandbox.client.flushWebhooks();

		const view = await sandbox.client.view();
		expect(view.conversations.map((c) => [c.phone, c.fields.first_name, c.window.open, c.messages.map((m) => m.text)])).toEqual([
			['+14155550124', undefined, false, ['Hi Sam, welcome! We are glad to have you.']],
			[ADA, 'Ada', true, ['Hi']],
			[GRACE, 'Grace', false, []],
		]);
		expect(view.conversations[0].messages[0].status).toBe('delivered');
		expect(view.locations).toEqual([
			{
				location: 'rome',
				events: [
					expect.objectContaining({ description: 'A dagger is bought', timeline_id: timeline.timeline_id }),
					expect.objectContaining({ description: 'A senate meets', seed_id: expect.any(String) }),
				],
			},
		]);
		expect(view.worlds[0].timelines).toEqual([expect.objectContaining({ name: 'Ides', anomalies: [], events: [expect.objectContaining({ description: 'A dagger is bought' })] })]);
		expect(view.requests.map((r) => [r.path, r.responseStatus])).toEqual([
			['/v1/events', 201],
			['/v1/timelines', 201],
			['/v1/messages', 200],
		]);
		expect(view.requests[2].response).toEqual({ message_id: expect.any(String), conversation_id: expect.any(String) });
		expect(view.requests[2].headers.authorization).toBe('Bearer ****');
		expect(JSON.stringify(view)).not.toContain(sandbox.messagingKey);
		expect(JSON.stringify(view)).not.toContain(sandbox.timelineKey);
	});
});

describe('writing as the customer', () => {
	test('posts message.inbound to the webhook with its headers, by number or by a contact\'s name', async () => {
		const byNumber = await control('POST', '/inbound', { from: GRACE, text: 'First time here' });
		const byName = await control('POST', '/inbound', { from: 'ada', text: 'Where is my order?' });
		expect([byNumber.status, byName.status]).toEqual([200, 200]);
		expect(byName.body.from).toBe(ADA);
		await sandbox.client.flushWebhooks();
		expect(receiver.received.map((r) => [r.headers['x-webhook-secret'], r.body.event_type, r.body.from, r.body.text])).toEqual([
			[SECRET['X-Webhook-Secret'], 'message.inbound', GRACE, 'First time here'],
			[SECRET['X-Webhook-Secret'], 'message.inbound', ADA, 'Where is my order?'],
		]);
		expect((await sandbox.client.window(ADA)).open).toBe(true);
	});

	test('a message from before anyone listened (history) opens the window and sends no webhook; the view marks it', async () => {
		const written = await control('POST', '/inbound', { from: ADA, text: 'Is my refund on its way?', history: true });
		expect(written.status).toBe(200);
		await sandbox.client.flushWebhooks();
		expect(receiver.received).toEqual([]);
		expect((await sandbox.client.view()).deliveries).toEqual([]);
		expect((await sandbox.client.window(ADA)).open).toBe(true);
		const [conversation] = (await sandbox.client.view()).conversations;
		expect(conversation.messages.map((m) => [m.text, m.history])).toEqual([['Is my refund on its way?', true]]);
		await expectRefused('POST', '/inbound', { from: ADA, text: 'Hi', history: 'yes' }, 400, 'history', /'history' must be true or false/);
	});

	test.each([
		['an empty message', { from: ADA, text: '   ' }, 'text', /The field 'text' must not be empty \(what the customer writes\)/],
		['no message', { from: ADA }, 'text', /The field 'text' is required/],
		['an unknown contact', { from: 'Bob', text: 'Hi' }, 'from', /No contact named 'Bob': give an E\.164 number such as \+14155550123, or the name of a contact: Ada, Grace\./],
		['a number that is not E.164', { from: '0155 1234', text: 'Hi' }, 'from', /must be an E\.164 number/],
	])('%s is refused naming the field, and nothing is stored or sent', async (_case, body, field, message) => {
		await expectRefused('POST', '/inbound', body, 400, field, message);
		await sandbox.client.flushWebhooks();
		expect(receiver.received).toEqual([]);
		expect(await sandbox.client.messages()).toEqual([]);
		expect((await sandbox.client.window(ADA)).open).toBe(false);
	});
});

describe('delivering again', () => {
	test('sends the same payload once more to the webhook set now, counted as a repeat', async () => {
		const inbound = await sandbox.client.inbound(ADA, 'Hello');
		const [first] = await sandbox.client.flushWebhooks();
		const again = await control('POST', '/webhooks/repeat', { deliveryId: first.id });
		expect(again).toEqual({ status: 200, body: { deliveryId: first.id, eventType: 'message.inbound', attempt: 2 } });
		const deliveries = await sandbox.client.flushWebhooks();
		expect(deliveries.map((d) => [d.attempt, d.status, d.payload])).toEqual([
			[1, 200, inbound],
			[2, 200, inbound],
		]);
		expect(receiver.received.map((r) => r.raw)).toEqual([JSON.stringify(inbound), JSON.stringify(inbound)]);
	});

	test('an unknown delivery is refused naming it', async () => {
		await expectRefused('POST', '/webhooks/repeat', { deliveryId: 99 }, 404, 'deliveryId', /No webhook delivery with id 99 was recorded/);
		await expectRefused('POST', '/webhooks/repeat', { deliveryId: 'first' }, 400, 'deliveryId', /the id of a recorded delivery/);
	});
});

describe('events at a location', () => {
	const ALEXANDRIA = 'Alexandria, Egypt';

	test('added, back-dated, changed and removed: monitor-events answers each change', async () => {
		const monitored = async () =>
			(await api(sandbox.url, sandbox.timelineKey).get('/monitor-events', { params: { location: ALEXANDRIA, time_range: '2030-01-01T00:00:00Z/2030-01-02T00:00:00Z' } })).data.events;
		const added = await control('POST', '/events', { location: ALEXANDRIA, time: '2030-01-01T12:00:00Z', description: 'A ship arrives' });
		expect(added.status).toBe(201);
		expect(await monitored()).toEqual([{ time: '2030-01-01T12:00:00.000Z', description: 'A ship arrives' }]);
		await control('PATCH', `/events/${added.body.seed_id}`, { time: '2030-01-01T09:00:00Z' });
		await control('PATCH', `/events/${added.body.seed_id}`, { description: 'Two ships arrive' });
		expect(await monitored()).toEqual([{ time: '2030-01-01T09:00:00.000Z', description: 'Two ships arrive' }]);
		expect((await control('DELETE', `/events/${added.body.seed_id}`)).status).toBe(200);
		expect(await monitored()).toEqual([]);
	});

	test('a time that is not ISO 8601 is refused naming the field, and nothing is half-applied', async () => {
		await expectRefused('POST', '/events', { location: ALEXANDRIA, time: 'yesterday', description: 'A ship arrives' }, 400, 'time', /must be an ISO 8601 date-time such as 2030-01-01T12:00:00Z; got 'yesterday'/);
		const added = await sandbox.client.seedEvent({ location: ALEXANDRIA, time: '2030-01-01T12:00:00Z', description: 'A ship arrives' });
		await expectRefused('PATCH', `/events/${added.seed_id}`, { description: 'Changed', location: 'Rome', time: '1 Jan' }, 400, 'time', /ISO 8601/);
		await expectRefused('PATCH', '/events/seed_nope', { time: '2030-01-01T12:00:00Z' }, 404, 'seed_id', /No seeded event with seed_id 'seed_nope'/);
		expect((await sandbox.client.view()).locations).toEqual([{ location: ALEXANDRIA, events: [added] }]);
	});
});

describe('anomalies', () => {
	test('added to a timeline (time default now) and removed: monitor-timeline answers each', async () => {
		const timeline = (await api(sandbox.url, sandbox.timelineKey).post('/timelines', { name: 'Ides' })).data;
		const monitored = async () => (await api(sandbox.url, sandbox.timelineKey).get('/monitor-timeline', { params: { timeline_id: timeline.timeline_id } })).data.anomalies;
		const before = Date.now();
		const added = await control('POST', '/anomalies', { timelineId: timeline.timeline_id, description: 'A second Caesar' });
		expect(added.status).toBe(201);
		expect(added.body).toEqual({ anomaly_id: expect.stringMatching(/^anm_/), type: 'paradox', time: expect.any(String), description: 'A second Caesar', detected_at: expect.any(String) });
		expect(Date.parse(added.body.time)).toBeGreaterThanOrEqual(before - 1000);
		const rewind = await control('POST', '/anomalies', { timelineId: timeline.timeline_id, type: 'rewind', time: '2030-01-01T00:00:00Z', description: 'Back a day' });
		expect(await monitored()).toEqual([added.body, rewind.body]);
		expect((await control('DELETE', `/anomalies/${added.body.anomaly_id}`)).status).toBe(200);
		expect(await monitored()).toEqual([rewind.body]);
	});

	test.each([
		['a time that is not ISO 8601', { time: 'noon', description: 'x' }, 400, 'time', /ISO 8601/],
		['no description', { description: '' }, 400, 'description', /must not be empty \(what the anomaly is\)/],
		['an unknown type', { type: 'glitch', description: 'x' }, 400, 'type', /one of 'paradox', 'rewind'/],
		['an unknown timeline', { timelineId: 'tl_nope', description: 'x' }, 404, 'timelineId', /No timeline with timeline_id 'tl_nope'/],
	])('%s is refused naming the field, and nothing is added', async (_case, body, status, field, message) => {
		const timeline = (await api(sandbox.url, sandbox.timelineKey).post('/timelines', { name: 'Ides' })).data;
		await expectRefused('POST', '/anomalies', { timelineId: timeline.timeline_id, ...body }, status, field, message);
		expect((await sandbox.client.view()).worlds[0].timelines[0].anomalies).toEqual([]);
		await expectRefused('DELETE', '/anomalies/anm_nope', {}, 404, 'anomaly_id', /No anomaly with anomaly_id 'anm_nope'/);
	});
});

describe('faults', () => {
	test('a 503 for the next call: the call fails, the log shows it with its answer, and a fault can be switched off', async () => {
		const fault = await control('POST', '/faults', { kind: 'status', status: 503, pathPrefix: '/v1/messages', count: 1 });
		const other = await control('POST', '/faults', { kind: 'drop', pathPrefix: '/v1/monitor-events' });
		expect(await sandbox.client.faults()).toHaveLength(2);
		expect((await control('DELETE', `/faults/${other.body.faultId}`)).status).toBe(200);
		expect((await sandbox.client.faults()).map((f) => f.faultId)).toEqual([fault.body.faultId]);

		const send = await api(sandbox.url, sandbox.messagingKey).post('/messages', { channel: 'chatapp', to: ADA, message_type: 'template', template: { id: 'welcome_customer', parameters: ['Ada'] } });
		expect(send.status).toBe(503);
		const [logged] = (await sandbox.client.view()).requests;
		expect(logged).toEqual(
			expect.objectContaining({
				path: '/v1/messages',
				fault: 'status',
				responseStatus: 503,
				response: { error: { code: 'service_unavailable', message: 'Injected fault: the sandbox answered HTTP 503 on purpose.' } },
			}),
		);
		expect(await sandbox.client.faults()).toEqual([]);
	});

	test('a bad fault is refused naming the field; a fault that fired already cannot be switched off', async () => {
		await expectRefused('POST', '/faults', { kind: 'status', count: 0 }, 400, 'count', /'count' must be an integer from 1/);
		await expectRefused('POST', '/faults', { kind: 'status', status: 999 }, 400, 'status', /from 100 to 599/);
		// the page sends an empty required field as it is: refused by name, never a silent 503
		await expectRefused('POST', '/faults', { kind: 'status', status: '' }, 400, 'status', /'status' must be an integer from 100 to 599; got ''/);
		await expectRefused('POST', '/faults', { kind: 'status', count: '' }, 400, 'count', /'count' must be an integer from 1 up; got ''/);
		await expectRefused('DELETE', '/faults/flt_gone', {}, 404, 'faultId', /No armed fault with faultId 'flt_gone'/);
		expect(await sandbox.client.faults()).toEqual([]);
	});
});

test('the clock moved a day on from the page closes a window opened a day before', async () => {
	await sandbox.client.inbound(ADA, 'Hi');
	expect((await control('POST', '/clock', { advanceMs: 24 * HOUR })).status).toBe(200);
	expect((await sandbox.client.view()).conversations.find((c) => c.phone === ADA)!.window.open).toBe(false);
});

describe("a demo's start here and reset (npm start gives them)", () => {
	const STEP = { id: 'write', label: 'Write as Ada', happens: "Ada writes; the reply comes to Ada's phone.", phone: ADA };
	const seen: string[] = [];
	let demo: Sandbox;
	const tour: Tour = {
		view: () => ({ steps: [STEP, { ...STEP, id: 'refund', label: 'Ask for a refund' }], reset: 'Reset also imports the demo workflows afresh.' }),
		async start(step) {
			if (step === 'refund') throw new HttpError(502, 'n8n_refused', 'n8n answered HTTP 404 at http://127.0.0.1:5678/webhook/refund-request: publish the refund example and try again.');
			await demo.client.inbound(ADA, 'Hello, is my order on its way?');
			return { started: 'Ada wrote.' };
		},
	};
	const demoControl = async (method: string, path: string, headers: Record<string, string> = {}) => {
		const res = await rawRequest(demo.url, method, `/_sandbox${path}`, { headers, body: '{}' });
		return { status: res.status, body: res.json as any };
	};

	beforeAll(async () => {
		demo = await startSandbox({
			tour,
			async beforeReset() {
				seen.push(`before the reset: ${(await demo.client.view()).conversations.flatMap((c) => c.messages).length} message(s)`);
			},
			async seed(fresh) {
				seen.push(`seeded after it: ${(await fresh.client.view()).conversations.flatMap((c) => c.messages).length} message(s)`);
				await fresh.client.seedContact(ADA, { first_name: 'Ada' });
			},
		});
	});
	afterAll(() => demo.close());

	test('the view holds the steps and what Reset does; without a demo it holds none, and a step is refused saying where they come from', async () => {
		expect((await demo.client.view()).tour).toEqual(tour.view());
		expect((await sandbox.client.view()).tour).toBeNull();
		const refused = await control('POST', '/tour/write', {});
		expect({ status: refused.status, field: refused.body.error.field }).toEqual({ status: 404, field: 'step' });
		expect(refused.body.error.message).toMatch(/the page's "start here" comes with npm start/);
	});

	test('a step starts with one control call and answers what the page says; one that cannot start says why and how to fix it; an unknown one names the steps', async () => {
		expect(await demoControl('POST', '/tour/write')).toEqual({ status: 200, body: { step: 'write', started: 'Ada wrote.' } });
		expect((await demo.client.view()).conversations.find((c) => c.phone === ADA)!.messages.map((m) => m.text)).toEqual(['Hello, is my order on its way?']);
		const refund = await demoControl('POST', '/tour/refund');
		expect(refund).toEqual({ status: 502, body: { error: { code: 'n8n_refused', message: expect.stringMatching(/HTTP 404 .* publish the refund example and try again/) } } });
		const unknown = await demoControl('POST', '/tour/dance');
		expect(unknown.status).toBe(404);
		expect(unknown.body.error.message).toBe("No tour step 'dance': the steps are 'write', 'refund'.");
	});

	test('a page of another site cannot start a step (403), nor a body that is not JSON (415)', async () => {
		const before = (await demo.client.view()).conversations.flatMap((c) => c.messages).length;
		expect((await demoControl('POST', '/tour/write', { Origin: 'http://evil.example' })).status).toBe(403);
		expect((await demoControl('POST', '/tour/write', { 'Content-Type': 'text/plain' })).status).toBe(415);
		expect((await demo.client.view()).conversations.flatMap((c) => c.messages)).toHaveLength(before);
	});

	test('Reset runs the demo\'s part first, while the world is still there, then seeds the emptied world', async () => {
		await demo.client.inbound(ADA, 'One more');
		seen.length = 0;
		await demo.client.reset();
		expect(seen).toEqual(['before the reset: 2 message(s)', 'seeded after it: 0 message(s)']);
	});
});
