/**
 * The workflows the bench imports into n8n. Every send workflow has the same shape, so the
 * only difference between variants is the node under test:
 *
 *   Webhook (POST, answers when the last node is done) -> Split Out (body.items) -> <node under test>
 *
 * The node under test's own execution time (n8n's runData executionTime) is what the send
 * figures use; the webhook and the split are outside it.
 */
import { randomUUID } from 'node:crypto';

import { NODE_TYPES, type StoredCredential, type WorkflowJson } from '../n8n/instance';

export const NODE_UNDER_TEST = 'Under Test';

/** n8n 2.41's default (newest) versions, as a user adding the node today gets them. */
export const HTTP_REQUEST_VERSION = 4.5;
export const WEBHOOK_VERSION = 2.1;

function sendWorkflow(name: string, path: string, node: Record<string, unknown>): WorkflowJson {
	return {
		name,
		nodes: [
			{
				id: randomUUID(),
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: WEBHOOK_VERSION,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', responseData: 'noData', options: {} },
			},
			{
				id: randomUUID(),
				name: 'Split Out',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [220, 0],
				parameters: { fieldToSplitOut: 'body.items', options: {} },
			},
			{ id: randomUUID(), name: NODE_UNDER_TEST, position: [440, 0], ...node },
		],
		connections: {
			Webhook: { main: [[{ node: 'Split Out', type: 'main', index: 0 }]] },
			'Split Out': { main: [[{ node: NODE_UNDER_TEST, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

export type SendOperation = 'sendText' | 'fastForward';

/** This package's action node. `concurrency` undefined = the node's default (Request Options left empty). */
export function packageSendWorkflow(
	name: string,
	path: string,
	op: SendOperation,
	credential: StoredCredential,
	concurrency?: number,
): WorkflowJson {
	const requestOptions = concurrency === undefined ? {} : { concurrency };
	const parameters =
		op === 'sendText'
			? { resource: 'message', operation: 'sendText', to: '={{ $json.to }}', text: '={{ $json.text }}', requestOptions }
			: { resource: 'time', operation: 'fastForward', durationAmount: 1, durationUnit: 'minutes', requestOptions };
	return sendWorkflow(name, path, {
		type: NODE_TYPES.action,
		typeVersion: 1,
		parameters,
		credentials: { [credential.type]: { id: credential.id, name: credential.name } },
	});
}

/** n8n's HTTP Request node making the same request with a generic Bearer credential, defaults otherwise. */
export function httpRequestSendWorkflow(
	name: string,
	path: string,
	op: SendOperation,
	sandboxUrl: string,
	credential: StoredCredential,
): WorkflowJson {
	const parameters =
		op === 'sendText'
			? {
					method: 'POST',
					url: `${sandboxUrl}/v1/messages`,
					authentication: 'genericCredentialType',
					genericAuthType: 'httpBearerAuth',
					sendBody: true,
					specifyBody: 'json',
					jsonBody:
						'={{ JSON.stringify({ channel: "chatapp", to: $json.to, message_type: "text", text: $json.text }) }}',
					options: {},
				}
			: {
					method: 'POST',
					url: `${sandboxUrl}/v1/fast-forward`,
					authentication: 'genericCredentialType',
					genericAuthType: 'httpBearerAuth',
					sendBody: true,
					specifyBody: 'json',
					jsonBody: '{"duration": "1m"}',
					options: {},
				};
	return sendWorkflow(name, path, {
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: HTTP_REQUEST_VERSION,
		parameters,
		credentials: { httpBearerAuth: { id: credential.id, name: credential.name } },
	});
}

/** This package's trigger alone (production URL /webhook/<webhookId>/chat-app), no auth. */
export function triggerWorkflow(name: string, ignoreRepeatedDeliveries: boolean): WorkflowJson {
	return {
		name,
		nodes: [
			{
				id: randomUUID(),
				name: 'Trigger',
				type: NODE_TYPES.trigger,
				typeVersion: 1,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: {
					events: ['message.status'],
					status: 'any',
					authentication: 'none',
					ignoreRepeatedDeliveries,
				},
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/** n8n's Webhook node alone, answering at once (Respond: Immediately), no auth. */
export function webhookNodeWorkflow(name: string, path: string): WorkflowJson {
	return {
		name,
		nodes: [
			{
				id: randomUUID(),
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: WEBHOOK_VERSION,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}
