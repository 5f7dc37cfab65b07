// Calls the hosted trigger directly over HTTP with what the sandbox never sends: malformed
// bodies, unknown event types, a full or stale repeat memory. Also the credential tests and
// the webhook lifecycle, run the way n8n runs them.
import { HookContext } from 'n8n-core';
import {
	Workflow,
	type ICredentialsDecrypted,
	type IDataObject,
	type INodeCredentialTestResult,
	type IWebhookData,
	type IWorkflowBase,
} from 'n8n-workflow';
import { getPackage, hostTrigger, TRIGGER_NODE_TYPE, type HostedTrigger, type HostTriggerOptions } from '../../support/harness';
import { buildAdditionalDataForTests } from '../../../tools/shared/additionalData';
import { createCredentialsHelper } from '../../support/harness/run';
import {
	deliveryMemory,
	MAX_STORED,
	STORED_MEMORY_KEY,
	type StoredMemory,
} from '../../../nodes/shared/chatAppMessaging/trigger/deliveryMemory';
import { DIGEST_LENGTH } from '../../../nodes/shared/digest';
import { inbound, status } from '../../support/trigger-payloads';

const HOUR_MS = 60 * 60 * 1000;
/** The README's promise, not the code's constant: "the last 5,000 events of the past 48 hours are remembered". */
const REMEMBERED = 5000;
const STATIC_KEY = 'node:Chat-App Messaging Trigger';


let trigger: HostedTrigger | undefined;
afterEach(async () => {
	await trigger?.close();
	trigger = undefined;
});

async function host(options: HostTriggerOptions = {}) {
	trigger = await hostTrigger(options);
	return trigger;
}

describe('malformed bodies get 400 with what is wrong, and start nothing', () => {
	it.each<[string, string, string | null, RegExp]>([
		['text that is not JSON', 'delivered!', 'text/plain', /^The request body is not valid JSON \(.+\)\. Expected a JSON object with an "event_type" field\.$/],
		['an empty body', '', 'application/json', /^The request body is empty\./],
		['a JSON array', JSON.stringify([inbound]), 'application/json', /^The request body is an array, not a JSON object\. Expected one event per request/],
		['a JSON string', '"message.inbound"', 'application/json', /^The request body is the string "message.inbound", not a JSON object/],
		['no content type and no JSON', 'event_type=message.inbound', null, /^The request body is not valid JSON/],
	])('%s', async (_case, body, contentType, message) => {
		const hosted = await host();
		const res = await hosted.post(body, { contentType });
		expect(res.status).toBe(400);
		expect(res.json).toEqual({ error: 'invalid_body', message: expect.stringMatching(message) });
		expect(hosted.starts).toHaveLength(0);
	});

	it.each<[string, IDataObject, string]>([
		['no event_type', { message_id: 'msg_1', status: 'read' }, 'The request body has no "event_type" field. Expected "message.status" or "message.inbound".'],
		['an empty event_type', { ...status, event_type: ' ' }, 'The field "event_type" is an empty string. Expected "message.status" or "message.inbound".'],
		['a numeric event_type', { ...status, event_type: 7 }, 'The field "event_type" is a number. Expected "message.status" or "message.inbound".'],
		[
			'message.status without status',
			{ ...status, status: undefined },
			'Invalid message.status event: "status" is missing. Required string fields: message_id, status, timestamp.',
		],
		[
			'message.status with a numeric message_id',
			{ ...status, message_id: 12 },
			'Invalid message.status event: "message_id" is a number. Required string fields: message_id, status, timestamp.',
		],
		[
			'message.status with a timestamp that is no date',
			{ ...status, timestamp: 'yesterday' },
			'Invalid message.status event: "timestamp" is the string "yesterday", not an ISO 8601 date-time. Required string fields: message_id, status, timestamp.',
		],
		[
			'message.inbound without from and timestamp',
			{ ...inbound, from: undefined, timestamp: undefined },
			'Invalid message.inbound event: "from" is missing; "timestamp" is missing. Required string fields: message_id, from, timestamp.',
		],
		[
			'message.inbound with a null message_id',
			{ ...inbound, message_id: null },
			'Invalid message.inbound event: "message_id" is null. Required string fields: message_id, from, timestamp.',
		],
	])('%s', async (_case, body, message) => {
		const hosted = await host();
		const res = await hosted.post(body);
		expect(res.status).toBe(400);
		expect(res.json).toEqual({ error: 'invalid_event', message });
		expect(hosted.starts).toHaveLength(0);
	});

	it('an event of a type the node filters out is still checked (400), so a broken sender shows up', async () => {
		const hosted = await host({ parameters: { events: ['message.inbound'] } });
		const res = await hosted.post({ ...status, status: undefined });
		expect(res.status).toBe(400);
	});

	it('JSON that does not parse, sent as application/json, is refused by n8n itself (422) before the node runs', async () => {
		const hosted = await host();
		const res = await hosted.post('{"event_type": "message.inbound",', { contentType: 'application/json' });
		expect(res.status).toBe(422);
		expect(res.json).toMatchObject({ code: 422, message: 'Failed to parse request body' });
		expect(hosted.starts).toHaveLength(0);
	});

	it('a valid event sent with another content type is read from the raw body', async () => {
		const hosted = await host();
		const res = await hosted.post(JSON.stringify(inbound), { contentType: 'text/plain' });
		expect(res.status).toBe(200);
		expect(hosted.starts[0].json[0]).toMatchObject(inbound);
	});
});

describe('its one version, 1.1, reads every body', () => {
	it('ships version 1.1 only: at version 1 n8n would evaluate an expression for every request', async () => {
		const pkg = await getPackage();
		const { description } = pkg.nodeTypes.getByNameAndVersion(TRIGGER_NODE_TYPE);
		expect(description.version).toBe(1.1);
	});

	// Above version 1, n8n reads only bodies it can parse (JSON, text, form, XML) before the node
	// runs; the trigger reads any other itself.
	let sent = 0;
	// A message id of its own per test: the trigger's in-process repeat memory outlives a test.
	const fresh = <T extends IDataObject>(event: T): T => ({ ...event, message_id: `msg_version_${++sent}` });
	describe('version 1.1', () => {
		const typeVersion = 1.1;
		it.each<[string, string | null]>([
			['application/json', 'application/json'],
			['text/plain', 'text/plain'],
			['no content type', null],
			['application/octet-stream', 'application/octet-stream'],
			['a vendor type', 'application/vnd.chatapp.event'],
		])('a valid event sent as %s starts the workflow once', async (_case, contentType) => {
			const hosted = await host({ typeVersion });
			const event = fresh(inbound);
			const res = await hosted.post(JSON.stringify(event), { contentType });
			expect(res.status).toBe(200);
			expect(res.json).toEqual({ received: true, started: true, event_type: 'message.inbound' });
			expect(hosted.starts).toHaveLength(1);
			expect(hosted.starts[0].json[0]).toMatchObject(event);
		});

		it('an empty body without content type gets 400 saying it is empty', async () => {
			const hosted = await host({ typeVersion });
			const res = await hosted.post('', { contentType: null });
			expect(res.status).toBe(400);
			expect(res.json).toEqual({ error: 'invalid_body', message: expect.stringMatching(/^The request body is empty\./) });
			expect(hosted.starts).toHaveLength(0);
		});

		it('a body over 1 MiB without content type gets 413 and starts nothing', async () => {
			const hosted = await host({ typeVersion });
			const res = await hosted.post(JSON.stringify({ ...inbound, text: 'x'.repeat(1024 * 1024) }), { contentType: null });
			expect(res.status).toBe(413);
			expect(res.json).toMatchObject({ error: 'payload_too_large' });
			expect(hosted.starts).toHaveLength(0);
		});

		it('a repeated delivery without content type is recognised as a repeat', async () => {
			const hosted = await host({ typeVersion });
			const event = fresh(status);
			await hosted.post(JSON.stringify(event), { contentType: null });
			const again = await hosted.post(JSON.stringify(event), { contentType: null });
			expect(again.json).toMatchObject({ started: false, reason: 'Repeated delivery of an event that already started the workflow' });
			expect(hosted.starts).toHaveLength(1);
		});
	});
});

describe('unknown event types', () => {
	const reaction = { event_type: 'message.reaction', message_id: 'msg_9', emoji: '👍', timestamp: '2030-05-01T08:30:00Z' };

	it('are acknowledged with 200 and ignored by default', async () => {
		const hosted = await host();
		const res = await hosted.post(reaction);
		expect(res.status).toBe(200);
		expect(res.json).toEqual({
			received: true,
			started: false,
			event_type: 'message.reaction',
			reason: 'Unknown event type "message.reaction": ignored (see Options → Include Unknown Event Types)',
		});
		expect(hosted.starts).toHaveLength(0);
	});

	it('start the workflow with the payload as it came when Include Unknown Event Types is on', async () => {
		const hosted = await host({ parameters: { options: { includeUnknownEvents: true } } });
		const res = await hosted.post(reaction);
		expect(res.status).toBe(200);
		expect(res.json).toEqual({ received: true, started: true, event_type: 'message.reaction' });
		expect(hosted.starts.map((start) => start.json)).toEqual([[reaction]]);
		// Repeats of it are collapsed as well.
		await hosted.post(reaction);
		expect(hosted.starts).toHaveLength(1);
	});

	it('pass through even without a message_id (nothing to recognise a repeat by)', async () => {
		const hosted = await host({ parameters: { options: { includeUnknownEvents: true } } });
		await hosted.post({ event_type: 'account.updated' });
		await hosted.post({ event_type: 'account.updated' });
		expect(hosted.starts).toHaveLength(2);
	});
});

describe('repeat memory bounds', () => {
	/** Node static data holding these deliveries, recorded at the given times through the memory's own API. */
	function seeded(entries: Array<[string, number]>): IDataObject {
		const nodeData: IDataObject = {};
		const memory = deliveryMemory(nodeData, undefined);
		for (const [key, at] of entries) memory.firstDelivery(key, at);
		return { [STATIC_KEY]: nodeData };
	}
	const keyOf = (id: string) => `${id}|message.inbound|`;
	const storedCount = (hosted: HostedTrigger) =>
		((hosted.staticData()[STATIC_KEY] as IDataObject)[STORED_MEMORY_KEY] as StoredMemory).gens.reduce((sum, gen) => sum + gen.keys.length / DIGEST_LENGTH, 0);

	it('forgets events older than 48 hours', async () => {
		const now = Date.now();
		const hosted = await host({
			staticData: seeded([
				[keyOf('msg_old'), now - 49 * HOUR_MS],
				[keyOf('msg_recent'), now - 47 * HOUR_MS],
			]),
		});
		expect((await hosted.post({ ...inbound, message_id: 'msg_old' })).json).toMatchObject({ started: true });
		expect((await hosted.post({ ...inbound, message_id: 'msg_recent' })).json).toMatchObject({ started: false });
		// msg_old is remembered again, from now
		expect((await hosted.post({ ...inbound, message_id: 'msg_old' })).json).toMatchObject({ started: false });
	});

	it(`keeps at least the last ${REMEMBERED} events and stores at most ${MAX_STORED}, dropping the oldest`, async () => {
		const now = Date.now();
		const entries: Array<[string, number]> = Array.from({ length: MAX_STORED }, (_, i) => [keyOf(`msg_${i}`), now - HOUR_MS + i]);
		// a workflow of its own: a new process memory, whose first call saves
		const hosted = await host({ staticData: seeded(entries), workflowId: 'bounds-workflow' });

		expect((await hosted.post({ ...inbound, message_id: 'msg_new' })).json).toMatchObject({ started: true });
		expect(storedCount(hosted)).toBeLessThanOrEqual(MAX_STORED);
		// The oldest generation was dropped: its events start again; the last 5,000 (msg_new and the
		// 4,999 before it) are still repeats.
		expect((await hosted.post({ ...inbound, message_id: 'msg_0' })).json).toMatchObject({ started: true });
		const oldestOfLast = MAX_STORED - (REMEMBERED - 1);
		expect((await hosted.post({ ...inbound, message_id: `msg_${oldestOfLast}` })).json).toMatchObject({ started: false });
		expect((await hosted.post({ ...inbound, message_id: `msg_${MAX_STORED - 1}` })).json).toMatchObject({ started: false });
		expect(storedCount(hosted)).toBeLessThanOrEqual(MAX_STORED);
	});

	it('a message id such as "__proto__" is remembered like any other', async () => {
		const hosted = await host();
		await hosted.post({ ...status, message_id: '__proto__' });
		await hosted.post({ ...status, message_id: '__proto__' });
		expect(hosted.starts).toHaveLength(1);
	});

	it('the same message with another status or event type is not a repeat', async () => {
		const hosted = await host();
		await hosted.post(status);
		await hosted.post({ ...status, status: 'read' });
		await hosted.post({ ...inbound, message_id: status.message_id });
		expect(hosted.starts).toHaveLength(3);
	});
});

describe('webhook credentials: their tests check locally what would make every call fail', () => {
	async function credentialTest(name: string, data: IDataObject): Promise<INodeCredentialTestResult> {
		const pkg = await getPackage();
		const nodeType = pkg.nodeTypes.getByNameAndVersion(TRIGGER_NODE_TYPE, 1);
		const description = nodeType.description.credentials?.find((credential) => credential.name === name);
		const test = nodeType.methods?.credentialTest?.[description?.testedBy as string];
		if (!test) throw new Error(`${name} has no testedBy function`);
		const credential = { id: '1', name: 'Under test', type: name, data } as ICredentialsDecrypted;
		return test.call({} as never, credential);
	}

	it.each<[IDataObject, string]>([
		[{ headerName: 'X-Webhook-Secret', secret: 'a-long-random-value' }, 'OK'],
		[{ headerName: 'X Webhook Secret', secret: 'x' }, 'Header Name "X Webhook Secret" is not a valid HTTP header name'],
		[{ headerName: 'Content-Type', secret: 'x' }, 'Header Name "Content-Type" is set by HTTP itself'],
		[{ headerName: 'X-Webhook-Secret', secret: '' }, 'Secret is empty.'],
		[{ headerName: 'X-Webhook-Secret', secret: ' padded ' }, 'Secret starts or ends with spaces'],
		[{ headerName: 'X-Webhook-Secret', secret: 'two\nlines' }, 'Secret contains a line break'],
	])('header auth %j -> %s', async (data, expected) => {
		const result = await credentialTest('chatAppWebhookHeaderAuthApi', data);
		if (expected === 'OK') expect(result.status).toBe('OK');
		else expect(result).toEqual({ status: 'Error', message: expect.stringContaining(expected) });
	});

	it.each<[IDataObject, string]>([
		[{ user: 'svc', password: 'p:w' }, 'OK'],
		[{ user: 'a:b', password: 'pw' }, 'User contains ":"'],
		[{ user: 'svc', password: '' }, 'Password is empty.'],
		[{ user: '', password: 'pw' }, 'User is empty.'],
	])('basic auth %j -> %s', async (data, expected) => {
		const result = await credentialTest('chatAppWebhookBasicAuthApi', data);
		if (expected === 'OK') expect(result.status).toBe('OK');
		else expect(result).toEqual({ status: 'Error', message: expect.stringContaining(expected) });
	});
});

describe('webhook lifecycle: nothing to register remotely, and it says so', () => {
	async function lifecycle() {
		const pkg = await getPackage();
		const nodeType = pkg.nodeTypes.getByNameAndVersion(TRIGGER_NODE_TYPE, 1.1);
		const node = {
			id: 'trigger',
			name: 'On Inbound Message',
			type: TRIGGER_NODE_TYPE,
			typeVersion: 1.1,
			position: [0, 0] as [number, number],
			webhookId: 'f00d',
			parameters: {},
		};
		const workflow = new Workflow({ id: 'wf', name: 'Replies', nodes: [node], connections: {}, active: true, nodeTypes: pkg.nodeTypes });
		const additionalData = buildAdditionalDataForTests(await createCredentialsHelper(), {
			id: 'wf',
			nodes: [node],
			connections: {},
		} as unknown as IWorkflowBase);
		const webhookData: IWebhookData = {
			httpMethod: 'POST',
			node: node.name,
			path: 'f00d/chat-app',
			webhookDescription: nodeType.description.webhooks![0],
			workflowId: 'wf',
			workflowExecuteAdditionalData: additionalData,
			webhookId: 'f00d',
		};
		const context = new HookContext(workflow, workflow.getNode(node.name)!, additionalData, 'trigger', 'activate', webhookData);
		const logged: string[] = [];
		Object.defineProperty(context, 'logger', { value: { info: (message: string) => logged.push(message) } });
		const methods = nodeType.webhookMethods?.default;
		if (!methods) throw new Error('The trigger has no webhook lifecycle methods');
		return { methods, context, logged };
	}

	it('checkExists reports false (n8n cannot read the dashboard), create and delete log what the user must do', async () => {
		const { methods, context, logged } = await lifecycle();
		expect(await methods.checkExists.call(context)).toBe(false);
		expect(await methods.create.call(context)).toBe(true);
		expect(logged[0]).toBe(
			'The trigger "On Inbound Message" of workflow "Replies" listens at http://127.0.0.1:5678/webhook/f00d/chat-app. The messaging service has no API to set its webhook: paste this URL in the account\'s webhook setting in the messaging dashboard.',
		);
		expect(await methods.delete.call(context)).toBe(true);
		expect(logged[1]).toMatch(/^The trigger "On Inbound Message" of workflow "Replies" stopped listening at http:\/\/127\.0\.0\.1:5678\/webhook\/f00d\/chat-app\. The messaging dashboard still points there/);
	});
});

describe('node description', () => {
	it('answers on receipt with the node\'s own acknowledgement, and is no AI tool', async () => {
		const pkg = await getPackage();
		const { description } = pkg.nodeTypes.getByNameAndVersion(TRIGGER_NODE_TYPE, 1);
		expect(description.webhooks).toEqual([
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', responseData: '', path: 'chat-app' },
		]);
		expect(description.usableAsTool).toBeUndefined();
		expect(description.inputs).toEqual([]);
		// Its codex (search aliases) comes from the JSON file beside the built node: test/package.
	});
});
