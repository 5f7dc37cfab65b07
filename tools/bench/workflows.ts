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
import type { INodeType } from 'n8n-workflow';

import { ChatAppMessagingTrigger } from '../../nodes/ChatAppMessagingTrigger/ChatAppMessagingTrigger.node';
import { TimelineNavigation } from '../../nodes/TimelineNavigation/TimelineNavigation.node';

import type { StoredCredential, WorkflowJson } from '../n8n/client';
import { NODE_TYPES } from '../n8n/communityPackage';
import { CEILING_CREDENTIAL_TYPE, CEILING_NODE_TYPE } from './ceiling/pack';

export const NODE_UNDER_TEST = 'Under Test';

/**
 * The version a user adding the node today gets (its defaultVersion, else its newest), read from
 * the node's source, the same as the build (BENCH_TRIGGER_VERSION / BENCH_ACTION_VERSION override
 * it). Not from dist/: in CI a file that runs `npm start` rebuilds it while the bench runs.
 */
function defaultVersionOf(node: INodeType, override?: string): number {
	if (override) return Number(override);
	const { version, defaultVersion } = node.description;
	return defaultVersion ?? Math.max(...[version].flat());
}

export const nodeVersions = () => ({
	action: defaultVersionOf(new TimelineNavigation(), process.env.BENCH_ACTION_VERSION),
	trigger: defaultVersionOf(new ChatAppMessagingTrigger(), process.env.BENCH_TRIGGER_VERSION),
});

/** n8n 2.41's default (newest) versions, as a user adding the node today gets them. */
export const HTTP_REQUEST_VERSION = 4.5;
export const WEBHOOK_VERSION = 2.1;

/** n8n's Webhook node on POST `path`, with the given response settings. */
function webhookNode(path: string, response: Record<string, unknown>): Record<string, unknown> {
	return {
		id: randomUUID(),
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: WEBHOOK_VERSION,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: { httpMethod: 'POST', path, ...response, options: {} },
	};
}

function sendWorkflow(name: string, path: string, node: Record<string, unknown>): WorkflowJson {
	return {
		name,
		nodes: [
			webhookNode(path, { responseMode: 'lastNode', responseData: 'noData' }),
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

/**
 * This package's action node. `concurrency` undefined = the node's default (Request Options left
 * empty). Send Text takes `to` and `text` through expressions, or with `mapped` from the
 * item's fields of those names (Data to Send: Map Automatically).
 */
export function packageSendWorkflow(
	name: string,
	path: string,
	op: SendOperation,
	credential: StoredCredential,
	{ concurrency, mapped = false, nodeType = NODE_TYPES.action }: { concurrency?: number; mapped?: boolean; nodeType?: string } = {},
): WorkflowJson {
	const requestOptions = concurrency === undefined ? {} : { concurrency };
	const message = mapped ? { dataToSend: 'autoMapInputData' } : { to: '={{ $json.to }}', text: '={{ $json.text }}' };
	const parameters =
		op === 'sendText'
			? { resource: 'message', operation: 'sendText', ...message, requestOptions }
			: { resource: 'time', operation: 'fastForward', durationAmount: 1, durationUnit: 'minutes', requestOptions };
	return sendWorkflow(name, path, {
		type: nodeType,
		typeVersion: nodeVersions().action,
		parameters,
		credentials: { [credential.type]: { id: credential.id, name: credential.name } },
	});
}

/**
 * The ceiling fixture (tools/bench/ceiling): the same request with nothing else, at the same
 * concurrency as this node's default.
 */
export function ceilingSendWorkflow(
	name: string,
	path: string,
	op: SendOperation,
	credential: StoredCredential,
	concurrency: number,
): WorkflowJson {
	const parameters =
		op === 'sendText'
			? { path: '/v1/messages', fixedBody: '{"channel": "chatapp", "message_type": "text"}', itemFields: 'to,text' }
			: { path: '/v1/fast-forward', fixedBody: '{"duration": "1m"}', itemFields: '' };
	return sendWorkflow(name, path, {
		type: CEILING_NODE_TYPE,
		typeVersion: 1,
		parameters: { ...parameters, concurrency },
		credentials: { [CEILING_CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } },
	});
}

/**
 * n8n's HTTP Request node making the same request with a generic Bearer credential.
 * `fields`: the body as "Using Fields Below" (the node's default body mode), one expression
 * per varying field, as this node has. `json`: the whole body as one JSON expression.
 */
export function httpRequestSendWorkflow(
	name: string,
	path: string,
	op: SendOperation,
	sandboxUrl: string,
	credential: StoredCredential,
	bodyMode: 'fields' | 'json' = 'fields',
): WorkflowJson {
	const fields: Array<[string, string]> =
		op === 'sendText'
			? [
					['channel', 'chatapp'],
					['to', '={{ $json.to }}'],
					['message_type', 'text'],
					['text', '={{ $json.text }}'],
				]
			: [['duration', '1m']];
	const jsonBody =
		op === 'sendText'
			? '={{ JSON.stringify({ channel: "chatapp", to: $json.to, message_type: "text", text: $json.text }) }}'
			: '{"duration": "1m"}';
	const body =
		bodyMode === 'fields'
			? { specifyBody: 'keypair', bodyParameters: { parameters: fields.map(([name, value]) => ({ name, value })) } }
			: { specifyBody: 'json', jsonBody };
	return sendWorkflow(name, path, {
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: HTTP_REQUEST_VERSION,
		parameters: {
			method: 'POST',
			url: `${sandboxUrl}/v1/${op === 'sendText' ? 'messages' : 'fast-forward'}`,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpBearerAuth',
			sendBody: true,
			contentType: 'json',
			...body,
			options: {},
		},
		credentials: { httpBearerAuth: { id: credential.id, name: credential.name } },
	});
}

/** The node name of triggerWorkflow's and inboundTriggerWorkflow's trigger: its items are under it in an execution's run data. */
export const TRIGGER_NAME = 'Trigger';

/**
 * This package's trigger alone (production URL /webhook/<webhookId>/chat-app), no auth, at the
 * version new workflows get unless `typeVersion` is given.
 */
export function triggerWorkflow(name: string, ignoreRepeatedDeliveries: boolean): WorkflowJson {
	return {
		name,
		nodes: [
			{
				id: randomUUID(),
				name: TRIGGER_NAME,
				type: NODE_TYPES.trigger,
				typeVersion: nodeVersions().trigger,
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

/** How an inbound-message trigger takes a customer's quick messages (the part "bursts"). */
export type QuickMessages =
	/** The parameter absent, as in every workflow made before the option existed. */
	| { mode: 'absent' }
	/** One Run Each, set explicitly. */
	| { mode: 'each' }
	/** Gather Into One Run. */
	| { mode: 'gather'; quietSeconds: number; longestWaitSeconds: number };

/**
 * This package's trigger on inbound messages alone (production URL /webhook/<webhookId>/chat-app),
 * no auth, repeats ignored (its defaults), Messages in Quick Succession as `quick` says; its one
 * node is named TRIGGER_NAME. `nodeType`: a bench copy of the trigger (beforeBursts.ts).
 */
export function inboundTriggerWorkflow(name: string, quick: QuickMessages, nodeType: string = NODE_TYPES.trigger): WorkflowJson {
	const workflow = triggerWorkflow(name, true);
	const node = workflow.nodes[0];
	node.type = nodeType;
	const gathering = quick.mode === 'gather' ? { quickMessages: 'gather', quietSeconds: quick.quietSeconds, longestWaitSeconds: quick.longestWaitSeconds } : {};
	node.parameters = {
		...node.parameters,
		events: ['message.inbound'],
		...(quick.mode === 'each' ? { quickMessages: 'each' } : gathering),
	};
	delete node.parameters.status;
	return workflow;
}

/** The Timeline Navigation Events Trigger's node name, where n8n keeps its memory and its items. */
export const POLLING_TRIGGER_NAME = 'Timeline Navigation Events Trigger';

/**
 * The Timeline Navigation Events Trigger alone, on New Event at a Location over the last `lookBackHours`.
 * Its Poll Times fire once a year: in the bench it polls only when activated.
 */
export function pollingTriggerWorkflow(name: string, location: string, lookBackHours: number, credential: StoredCredential): WorkflowJson {
	return {
		name,
		nodes: [
			{
				id: randomUUID(),
				name: POLLING_TRIGGER_NAME,
				type: NODE_TYPES.pollingTrigger,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: { item: [{ mode: 'custom', cronExpression: '0 0 0 1 1 *' }] },
					event: 'newEvent',
					location,
					lookBackAmount: lookBackHours,
					lookBackUnit: 'hours',
				},
				credentials: { [credential.type]: { id: credential.id, name: credential.name } },
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
			webhookNode(path, { responseMode: 'onReceived' }),
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/**
 * This package's trigger (inbound messages, no auth, repeats ignored) replying through the
 * action node: one Send Text per delivery, the shape of the inbound-reply example.
 */
export function triggerReplyWorkflow(name: string, credential: StoredCredential): WorkflowJson {
	const trigger = triggerWorkflow(name, true);
	Object.assign(trigger.nodes[0].parameters, { events: ['message.inbound'] });
	return {
		...trigger,
		nodes: [
			...trigger.nodes,
			{
				id: randomUUID(),
				name: NODE_UNDER_TEST,
				type: NODE_TYPES.action,
				typeVersion: nodeVersions().action,
				position: [220, 0],
				parameters: { resource: 'message', operation: 'sendText', to: '={{ $json.from }}', text: 'Thanks, we got your message.', requestOptions: {} },
				credentials: { [credential.type]: { id: credential.id, name: credential.name } },
			},
		],
		connections: { Trigger: { main: [[{ node: NODE_UNDER_TEST, type: 'main', index: 0 }]] } },
	};
}
