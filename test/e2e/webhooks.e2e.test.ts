/**
 * The full webhook loop in real n8n: the sandbox (standing in for the messaging service) posts
 * its webhooks to the production URL of a published workflow with the Chat-App Messaging
 * Trigger; n8n starts the workflow, which answers through the action node; the sandbox receives
 * the answer. Covers the two trigger examples, repeated deliveries, a wrong secret, and the
 * trigger's repeat memory (workflow static data) across executions.
 */
import { randomUUID } from 'node:crypto';
import { fetchOnOpenConnection, wireCredentials } from '../../tools/n8n/client';
import { EXAMPLE_DATA, EXAMPLE_FILES, importExample, inboundReplyText, readExample, seedExampleData } from '../../tools/n8n/examples';
import { NODE_TYPES } from '../../tools/n8n/communityPackage';
import { webhookHeadersFor } from '../../tools/n8n/sandboxCredentials';
import { webhookUrlsOf } from '../../tools/n8n/webhooks';
import { creds, env, n8n, nodeOutput, sandbox, settledCount, waitForExecutions } from './support';

const customer = EXAMPLE_DATA.customerPhone;

let replyId: string;
let replyUrl: string;
let statusId: string;
let statusUrl: string;
const replyHeaders = webhookHeadersFor(readExample(EXAMPLE_FILES.inboundReply));
const statusHeaders = webhookHeadersFor(readExample(EXAMPLE_FILES.statusWebhook));

async function publish(file: string): Promise<{ id: string; url: string }> {
	const example = readExample(file);
	// One run per message, as the loop is asserted here; bursts gathered: bursts.e2e.test.ts.
	for (const node of example.nodes) if (node.type === NODE_TYPES.trigger) node.parameters = { ...node.parameters, quickMessages: 'each' };
	const id = await n8n.importWorkflow(wireCredentials(example, creds));
	await n8n.activate(id);
	const urls = await webhookUrlsOf(n8n, id);
	const url = urls.find((u) => u.nodeType === NODE_TYPES.trigger)?.url;
	if (!url) throw new Error(`no production webhook registered for ${file}: ${JSON.stringify(urls)}`);
	return { id, url };
}

beforeAll(async () => {
	await sandbox.reset();
	await seedExampleData(sandbox);
	({ id: replyId, url: replyUrl } = await publish(EXAMPLE_FILES.inboundReply));
	({ id: statusId, url: statusUrl } = await publish(EXAMPLE_FILES.statusWebhook));
});

afterAll(async () => {
	await sandbox.setWebhook(null);
	await sandbox.setRepeatDeliveries(0);
	await n8n.deactivate(replyId);
	await n8n.deactivate(statusId);
});

beforeEach(async () => {
	await sandbox.setRepeatDeliveries(0);
	await sandbox.clearRequests();
	// The reply example answers a number once an hour: each test's messages start a new conversation.
	await sandbox.advanceClock(2 * 3600_000);
});

describe('inbound message -> published workflow -> reply through the action node', () => {
	beforeAll(async () => {
		await sandbox.setWebhook(replyUrl, replyHeaders);
	});

	test('the production URL is the trigger\'s (webhook id + chat-app) and the sandbox sends the header secret', () => {
		const trigger = readExample(EXAMPLE_FILES.inboundReply).nodes[0];
		expect(replyUrl).toBe(`${n8n.url}/webhook/${trigger.webhookId}/chat-app`);
		expect(replyHeaders).toEqual({ [env.webhookAuth.headerName]: env.webhookAuth.secret });
	});

	test('the customer writes in; the workflow replies with the placeholders resolved', async () => {
		const before = (await n8n.executions(replyId)).length;
		const inbound = await sandbox.inbound(customer, 'Is my order on its way?');

		const [exec] = await waitForExecutions(replyId, before + 1);
		expect(exec.status).toBe('success');
		expect(exec.mode).toBe('webhook');
		const [triggerItem] = nodeOutput(exec, 'On Inbound Message');
		expect(triggerItem).toEqual(
			expect.objectContaining({
				event_type: 'message.inbound',
				message_id: inbound.message_id,
				from: customer,
				text: 'Is my order on its way?',
				window_open_until: new Date(Date.parse(inbound.timestamp) + 24 * 3600_000).toISOString(),
				previous_inbound_at: null,
			}),
		);

		const deliveries = await sandbox.flushWebhooks();
		const delivery = deliveries.find((d) => d.eventType === 'message.inbound' && (d.payload as any).message_id === inbound.message_id);
		expect(delivery?.url).toBe(replyUrl);
		expect(delivery?.status).toBe(200);

		const sends = await sandbox.requests({ method: 'POST', path: '/v1/messages' });
		expect(sends).toHaveLength(1);
		const timeZone = (await n8n.rest('GET', '/settings')).body.timezone;
		const expected = inboundReplyText('Ada', inbound.timestamp, timeZone);
		expect(sends[0].body).toEqual({
			channel: 'chatapp',
			to: customer,
			message_type: 'text',
			text: 'Hi {first_name}, thanks for your message. A person will answer by {answer_by}.',
			injected_fields: { first_name: 'Ada', answer_by: expected.slice(expected.indexOf(' by ') + 4, -1) },
		});
		expect(sends[0].responseStatus).toBe(200);
		const [reply] = nodeOutput(exec, 'Reply With Text');
		const stored = await sandbox.message(reply.message_id);
		expect(stored.text).toBe(expected);
		expect(stored.unresolved_placeholders ?? []).toEqual([]);
	});

	test('a delivery repeated by the service (2 extra copies) starts one execution; the copies are acknowledged with 200', async () => {
		const before = await settledCount(replyId);
		await sandbox.setRepeatDeliveries(2);
		const inbound = await sandbox.inbound(customer, 'Hello again');
		const deliveries = (await sandbox.flushWebhooks()).filter(
			(d) => d.eventType === 'message.inbound' && (d.payload as any).message_id === inbound.message_id,
		);
		expect(deliveries).toHaveLength(3);
		expect(deliveries.map((d) => d.status)).toEqual([200, 200, 200]);
		expect(await settledCount(replyId)).toBe(before + 1);
		// and one reply, not three
		const sends = await sandbox.requests({ method: 'POST', path: '/v1/messages' });
		expect(sends).toHaveLength(1);
	});

	test('the same delivery posted again later, after its execution finished, starts nothing', async () => {
		const before = await settledCount(replyId);
		const inbound = await sandbox.inbound(customer, 'Remember me?');
		expect(await settledCount(replyId)).toBe(before + 1);

		// a later re-delivery, once that execution has finished (settledCount waited for it)
		const res = await fetchOnOpenConnection(replyUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...replyHeaders },
			body: JSON.stringify(inbound),
		});
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual(expect.objectContaining({ received: true, started: false }));
		expect(await settledCount(replyId)).toBe(before + 1);
		expect(await sandbox.requests({ method: 'POST', path: '/v1/messages' })).toHaveLength(1);
	});

	test('a wrong secret gets 401 and starts nothing', async () => {
		const before = await settledCount(replyId);
		await sandbox.setWebhook(replyUrl, { [env.webhookAuth.headerName]: 'not-the-secret' });
		try {
			const inbound = await sandbox.inbound(customer, 'Let me in');
			const deliveries = (await sandbox.flushWebhooks()).filter(
				(d) => (d.payload as any).message_id === inbound.message_id,
			);
			expect(deliveries.map((d) => d.status)).toEqual([401]);
			// no secret at all
			const res = await fetchOnOpenConnection(replyUrl, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ ...inbound, message_id: 'msg_in_other' }),
			});
			expect(res.status).toBe(401);
			expect(await settledCount(replyId)).toBe(before);
			expect(await sandbox.requests({ method: 'POST', path: '/v1/messages' })).toHaveLength(0);
		} finally {
			await sandbox.setWebhook(replyUrl, replyHeaders);
		}
	});
});

describe('message status -> published status workflow', () => {
	beforeAll(async () => {
		await sandbox.setWebhook(statusUrl, statusHeaders);
	});

	test('a sent message starts the workflow once on delivered and once on read; a second read starts nothing', async () => {
		const before = await settledCount(statusId);
		// send through the action node in n8n: the delivery-tracking example
		const trackingId = await importExample(n8n, EXAMPLE_FILES.deliveryTracking, creds);
		const run = await n8n.executeWorkflow(trackingId);
		expect(run.code).toBe(0);
		const sends = await sandbox.requests({ method: 'POST', path: '/v1/messages' });
		expect(sends).toHaveLength(1);
		const list = (await waitForExecutions(statusId, before + 1)).slice(0, 1);
		const messageId = nodeOutput(list[0], 'Delivery Record')[0]?.message_id;
		expect(messageId).toMatch(/^msg_/);

		await sandbox.read(messageId);
		await sandbox.read(messageId); // emits nothing the second time
		expect(await settledCount(statusId)).toBe(before + 2);
		const execs = (await n8n.executions(statusId)).slice(0, 2).reverse();
		expect(execs.map((e) => e.status)).toEqual(['success', 'success']);
		expect(execs.map((e) => nodeOutput(e, 'Delivery Record')[0])).toEqual([
			{ message_id: messageId, customer, status: 'delivered', changed_at: expect.any(String) },
			{ message_id: messageId, customer, status: 'read', changed_at: expect.any(String) },
		]);
	});

	test('the inbound workflow acknowledges status events without starting (filtered by Trigger On)', async () => {
		const before = await settledCount(replyId);
		await sandbox.setWebhook(replyUrl, replyHeaders);
		try {
			const res = await sandbox.inbound(EXAMPLE_DATA.demoPhone, 'window please');
			await settledCount(replyId); // the inbound starts the reply workflow ...
			const deliveries = await sandbox.flushWebhooks();
			const statuses = deliveries.filter(
				(d) => d.eventType === 'message.status' && d.url === replyUrl && (d.payload as any).to === EXAMPLE_DATA.demoPhone,
			);
			// ... whose reply's "delivered" comes back to the same URL: acknowledged, nothing started
			expect(statuses.length).toBeGreaterThanOrEqual(1);
			expect(statuses.every((d) => d.status === 200)).toBe(true);
			expect(await settledCount(replyId)).toBe(before + 1);
			expect(res.from).toBe(EXAMPLE_DATA.demoPhone);
		} finally {
			await sandbox.setWebhook(statusUrl, statusHeaders);
		}
	});
});

describe('the trigger reads bodies n8n leaves unread', () => {
	// n8n leaves the body of a webhook node above version 1 (the trigger ships 1.1) unread when it
	// cannot parse its content type; the trigger reads it itself.
	const versions = [1.1];
	const published: Array<{ version: number; id: string; url: string }> = [];

	beforeAll(async () => {
		for (const version of versions) {
			const id = await n8n.importWorkflow({
				name: `Trigger version ${version}`,
				nodes: [
					{
						id: `trigger-${version}`,
						name: 'Trigger',
						type: NODE_TYPES.trigger,
						typeVersion: version,
						position: [0, 0],
						webhookId: randomUUID(),
						parameters: { events: ['message.status'], status: 'any', authentication: 'none', ignoreRepeatedDeliveries: true },
					},
				],
				connections: {},
				settings: { executionOrder: 'v1' },
			});
			await n8n.activate(id);
			const url = (await webhookUrlsOf(n8n, id)).find((u) => u.nodeType === NODE_TYPES.trigger)?.url;
			if (!url) throw new Error(`no production webhook registered for the version ${version} trigger`);
			published.push({ version, id, url });
		}
	});

	afterAll(async () => {
		for (const { id } of published) await n8n.deactivate(id);
	});

	test.each(versions)('version %s: a delivery without content type starts the workflow once; its repeat starts nothing', async (version) => {
		const { id, url } = published.find((p) => p.version === version)!;
		const event = {
			event_type: 'message.status',
			message_id: `msg_version_${version}_${Date.now()}`,
			conversation_id: 'conv_version',
			channel: 'chatapp',
			to: customer,
			status: 'delivered',
			timestamp: new Date().toISOString(),
		};
		// A byte body: fetch then sends no content type at all.
		const post = async () => {
			const res = await fetchOnOpenConnection(url, { method: 'POST', body: Buffer.from(JSON.stringify(event)) });
			return { status: res.status, body: await res.json() };
		};
		const first = await post();
		expect(first).toEqual({ status: 200, body: { received: true, started: true, event_type: 'message.status' } });
		const [exec] = await waitForExecutions(id, 1);
		expect(exec.status).toBe('success');
		expect(nodeOutput(exec, 'Trigger')).toEqual([event]);

		const again = await post();
		expect(again.body).toEqual(expect.objectContaining({ started: false }));
		expect(await settledCount(id)).toBe(1);
	});
});
