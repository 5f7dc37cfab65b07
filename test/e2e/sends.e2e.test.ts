/**
 * Data to Send: Map Automatically in real n8n: a workflow (Webhook → Split Out → Send Text)
 * sends each input item's `to` and `text` without an expression, once each, in input order;
 * an item with a wrong field fails naming that input field and the item.
 */
import { randomUUID } from 'node:crypto';
import { fetchOnOpenConnection, type WorkflowJson } from '../../tools/n8n/client';
import { NODE_TYPES } from '../../tools/n8n/communityPackage';
import { workflowNode } from '../support/workflowNode';
import { env, n8n, onceRegistered, sandbox, waitForExecutions } from './support';

const PATH = `e2e-map-automatically-${randomUUID()}`;
let workflowId: string;

function mappedSendTextWorkflow(): WorkflowJson {
	const node = workflowNode;
	return {
		name: 'Send Text, Map Automatically',
		nodes: [
			node(
				'Webhook',
				'n8n-nodes-base.webhook',
				2.1,
				0,
				{ httpMethod: 'POST', path: PATH, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
				{ webhookId: randomUUID() },
			),
			node('Split Out', 'n8n-nodes-base.splitOut', 1, 220, { fieldToSplitOut: 'body.items', options: {} }),
			node(
				'Send Text',
				NODE_TYPES.action,
				1,
				440,
				{ resource: 'message', operation: 'sendText', dataToSend: 'autoMapInputData', requestOptions: { concurrency: 1 } },
				{ credentials: { [env.credentials.messaging.type]: { id: env.credentials.messaging.id, name: env.credentials.messaging.name } } },
			),
		],
		connections: {
			Webhook: { main: [[{ node: 'Split Out', type: 'main', index: 0 }]] },
			'Split Out': { main: [[{ node: 'Send Text', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

async function post(items: object[]): Promise<{ status: number; body: any }> {
	const res = await onceRegistered(() =>
		fetchOnOpenConnection(`${n8n.webhookBaseUrl}/${PATH}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ items }),
		}),
	);
	const text = await res.text();
	return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const first = '+14155550111';
const second = '+14155550112';

beforeAll(async () => {
	await sandbox.reset();
	await sandbox.setWebhook(null);
	workflowId = await n8n.importWorkflow(mappedSendTextWorkflow());
	await n8n.activate(workflowId);
});

afterAll(async () => {
	await n8n.deactivate(workflowId);
});

beforeEach(async () => {
	await sandbox.inbound(first, 'Hi');
	await sandbox.inbound(second, 'Hi');
	await sandbox.clearRequests();
});

test('each item\'s to, text and injected_fields are sent once, in input order, and output with their message_id', async () => {
	const res = await post([
		{ to: first, text: 'Hi {name}, your table is ready', injected_fields: { name: 'Ada' } },
		{ to: '+1 (415) 555-0112', text: 'Your code is 42' },
	]);

	expect(res.status).toBe(200);
	const sent = (await sandbox.requests({ method: 'POST', path: '/v1/messages' })).map((request) => request.body);
	expect(sent).toEqual([
		{ channel: 'chatapp', to: first, message_type: 'text', text: 'Hi {name}, your table is ready', injected_fields: { name: 'Ada' } },
		{ channel: 'chatapp', to: second, message_type: 'text', text: 'Your code is 42' },
	]);
	expect(res.body.map((out: any) => [out.to, out.sent_as, typeof out.message_id])).toEqual([
		[first, 'text', 'string'],
		[second, 'text', 'string'],
	]);
});

test('an item without text fails the execution naming the input field and the item; the item before it was sent', async () => {
	const res = await post([{ to: first, text: 'sent' }, { to: second }]);

	expect(res.status).toBeGreaterThanOrEqual(500);
	const [newest] = await waitForExecutions(workflowId, 2);
	expect(newest.status).toBe('error');
	expect(newest.data.resultData.error.message).toBe('Invalid input field "text" in item 1: got nothing, expected a value: this field is required');
	const sent = (await sandbox.requests({ method: 'POST', path: '/v1/messages' })).map((request) => (request.body as any).text);
	expect(sent).toEqual(['sent']);
});
