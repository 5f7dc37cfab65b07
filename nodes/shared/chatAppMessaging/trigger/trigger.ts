// The Chat-App Messaging Inbox Trigger, from one definition for both packages that ship it: a
// webhook trigger that starts a workflow for each event the messaging service posts to it (an
// inbound message or a delivery status), after checking the caller, the payload, the user's
// filters and whether the same event came before. A node class takes its description from
// `messagingTriggerDescription` (writing out what n8n's scanner reads: its icon, subtitle and
// credentials) and its methods from here.
import {
	NodeOperationError,
	type ICredentialsDecrypted,
	type ICredentialTestFunctions,
	type IDataObject,
	type IHookFunctions,
	type INodeCredentialTestResult,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';
import { namingOf, type NodeEntry } from '../../catalog';
import { n8nTooOld } from '../../errors';
import { MAIN_CONNECTION, ON_SUPPORTED_N8N, withFloorNotice } from '../../n8nVersion';
import { checkBasicAuthCredential, checkCaller, checkHeaderAuthCredential } from './authentication';
import { flushBurst, FLUSH_EVENT, FLUSH_HEADER, gatherMessage, heldAtActivation, isFlushCall, scheduleFlush, stopFlushes, type BurstOwner, type BurstSettings } from './bursts';
import { deliveryMemory } from './deliveryMemory';
import { GATHER_BURSTS, MAX_LONGEST_WAIT_SECONDS, MAX_QUIET_SECONDS, triggerProperties } from './description';
import { bodySize, checkEvent, deliveryKey, INBOUND_EVENT, MAX_BODY_BYTES, readJsonObject, STATUS_EVENT, windowOpenUntil } from './events';
import { previousInbound } from './senderMemory';

/** The description of a messaging trigger node, from its catalog entry, but what its class writes out. */
export function messagingTriggerDescription(entry: NodeEntry): Omit<INodeTypeDescription, 'icon' | 'subtitle' | 'credentials'> {
	return {
		...namingOf(entry),
		group: ['trigger'],
		// 1.1, not 1: for a webhook node at version 1 exactly, n8n evaluates an expression
		// (`$parameter["options"]["binaryData"]`) while reading every request's body; above 1 it
		// does not, and leaves bodies it cannot parse (no or another content type) unread, which
		// `receiveEvent` reads itself.
		version: 1.1,
		eventTriggerDescription:
			'Waiting for the Chat-App Messaging service on the Test URL: set it as the webhook URL in the messaging dashboard (with the sandbox of npm start: POST {"url": "<Test URL>"} to its /_sandbox/webhook), then write to your chat-app number or send a message and wait for its delivery status',
		activationMessage:
			'The workflow now starts when the Chat-App Messaging service posts an inbound message or a delivery status to the Production URL. While testing you pasted the Test URL in the messaging dashboard: replace it there with the Production URL.',
		inputs: [],
		outputs: [MAIN_CONNECTION],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				// Answer at once; `responseData: ''` makes n8n send the node's `webhookResponse`.
				responseMode: 'onReceived',
				responseData: '',
				path: 'chat-app',
			},
		],
		properties: withFloorNotice(triggerProperties),
	};
}

/** The credential tests the node's credentials name (`testedBy`): the secret or user and password are well formed. */
export const WEBHOOK_CREDENTIAL_TESTS = {
	async checkWebhookHeaderAuth(this: ICredentialTestFunctions, credential: ICredentialsDecrypted): Promise<INodeCredentialTestResult> {
		return checkHeaderAuthCredential(credential.data ?? {});
	},
	async checkWebhookBasicAuth(this: ICredentialTestFunctions, credential: ICredentialsDecrypted): Promise<INodeCredentialTestResult> {
		return checkBasicAuthCredential(credential.data ?? {});
	},
};

/** The trigger as n8n's log names it: by the node's and the workflow's names, which the user gave them. */
function triggerInLog(ctx: IHookFunctions): string {
	return `The trigger "${ctx.getNode().name}" of workflow "${ctx.getWorkflow().name ?? ctx.getWorkflow().id}"`;
}

/**
 * What n8n calls when the workflow is published and unpublished. The service takes its webhook
 * URL from the dashboard only (no API), so there is nothing to register, look up or remove
 * remotely: these say so in n8n's log instead of pretending; errors are not caught, so they
 * surface on publication.
 */
export const WEBHOOK_LIFECYCLE = {
	async checkExists(this: IHookFunctions): Promise<boolean> {
		// n8n cannot read the dashboard setting; report "not registered" so that `create` runs and
		// logs where the URL must be pasted.
		return false;
	},
	async create(this: IHookFunctions): Promise<boolean> {
		if (!ON_SUPPORTED_N8N) throw n8nTooOld(this, 'The workflow does not start from it.');
		const url = this.getNodeWebhookUrl('default');
		if (!url) throw new NodeOperationError(this.getNode(), 'n8n did not provide a webhook URL for this trigger');
		this.logger.info(
			`${triggerInLog(this)} listens at ${url}. The messaging service has no API to set its webhook: paste this URL in the account's webhook setting in the messaging dashboard.`,
		);
		// Bursts gathered before n8n stopped (or before a republication) start once they are due; at
		// once if the option was switched off meanwhile.
		const settings = burstSettings(this);
		if (typeof settings === 'string') throw new NodeOperationError(this.getNode(), settings);
		// Listening on the Test URL gathers nothing and starts nothing held.
		const owner = this.getMode() === 'manual' ? undefined : burstOwner(this);
		if (owner) for (const { from, at } of heldAtActivation(this.getWorkflowStaticData('node'), settings ?? NOT_GATHERING)) scheduleFlush(this, owner, from, at);
		return true;
	},
	async delete(this: IHookFunctions): Promise<boolean> {
		// Unpublished: held bursts stay in static data and start after the next publication.
		const owner = burstOwner(this);
		if (owner) stopFlushes(owner, this.getNodeWebhookUrl('default'));
		this.logger.info(
			`${triggerInLog(this)} stopped listening at ${this.getNodeWebhookUrl('default') ?? 'its webhook URL'}. The messaging dashboard still points there: remove or change the URL there, or the service's deliveries will fail.`,
		);
		return true;
	},
};

/** Messages in Quick Succession: the burst settings when gathering, undefined when not, or what is wrong with them. */
function burstSettings(ctx: IWebhookFunctions | IHookFunctions): BurstSettings | undefined | string {
	// The option first: one read when it is off (every delivery of every existing workflow).
	if (ctx.getNodeParameter('quickMessages', 'each') !== GATHER_BURSTS) return undefined;
	if (!([ctx.getNodeParameter('events', [])].flat() as string[]).includes(INBOUND_EVENT)) return undefined;
	const seconds = (name: string, label: string, fallback: number, max: number): number | string => {
		const value = ctx.getNodeParameter(name, fallback);
		return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max
			? value * 1000
			: `Invalid ${label}: got ${JSON.stringify(value)}, expected a whole number of seconds from 1 to ${max}. Fix it in the trigger's "Messages in Quick Succession" settings.`;
	};
	const quietMs = seconds('quietSeconds', 'Quiet Time (Seconds)', 5, MAX_QUIET_SECONDS);
	if (typeof quietMs === 'string') return quietMs;
	const longestMs = seconds('longestWaitSeconds', 'Longest Wait (Seconds)', 30, MAX_LONGEST_WAIT_SECONDS);
	if (typeof longestMs === 'string') return longestMs;
	return { quietMs, longestMs };
}

/** Bursts held when the option was switched off: each is due at once. */
const NOT_GATHERING: BurstSettings = { quietMs: 0, longestMs: 0 };

/** Whose bursts: the workflow and node (an unsaved workflow has nothing to gather by: none). */
function burstOwner(ctx: IWebhookFunctions | IHookFunctions): BurstOwner | undefined {
	const workflowId = ctx.getWorkflow().id;
	return workflowId ? { workflowId, nodeId: ctx.getNode().id } : undefined;
}

/** A flush call of the trigger's own (./bursts.ts): starts the named burst if it is due. */
function receiveFlush(ctx: IWebhookFunctions, key: unknown): IWebhookResponseData {
	const staticData = ctx.getWorkflowStaticData('node');
	const settings = burstSettings(ctx);
	const owner = burstOwner(ctx);
	if (typeof settings === 'string' || !owner || !isFlushCall(ctx, owner, key)) {
		return reply(ctx, 401, { error: 'unauthorized', message: "Authorization failed: this flush call does not carry the trigger's flush key." });
	}
	const body = ctx.getBodyData();
	const gathered = flushBurst(staticData, owner, settings ?? NOT_GATHERING, typeof body.from === 'string' ? body.from : '');
	const answered = reply(ctx, 200, { received: true, started: gathered.start !== undefined, event_type: FLUSH_EVENT, message_ids: gathered.startedIds ?? [] });
	return gathered.start ? { ...answered, workflowData: [ctx.helpers.returnJsonArray(gathered.start)] } : answered;
}

/** Answers the call itself (n8n answers only with the webhook's fixed 200 otherwise). */
function reply(ctx: IWebhookFunctions, statusCode: number, body: IDataObject, headers: Record<string, string> = {}): IWebhookResponseData {
	const res = ctx.getResponseObject();
	res.writeHead(statusCode, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
	res.end(JSON.stringify(body));
	return { noWebhookResponse: true };
}

/** A 200 acknowledgement that starts nothing: the service must not retry the event. */
function acknowledgeOnly(eventType: string | undefined, reason: string): IWebhookResponseData {
	return { webhookResponse: { received: true, started: false, event_type: eventType, reason } };
}

/** One call of the messaging service: check it, and start the workflow for an event it has not seen. */
export async function receiveEvent(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	if (!ON_SUPPORTED_N8N) throw n8nTooOld(this, 'Nothing was started.');
	const flushKey = this.getHeaderData()[FLUSH_HEADER];
	if (flushKey !== undefined) return receiveFlush(this, flushKey);
	// Authentication first: an unauthenticated caller learns nothing about the payload rules.
	const caller = await checkCaller.call(this);
	if (!caller.ok) {
		const basic = this.getNodeParameter('authentication', 'none') === 'basicAuth';
		return reply(this, 401, { error: 'unauthorized', message: `Authorization failed: ${caller.message}` }, basic ? { 'WWW-Authenticate': 'Basic realm="Webhook"' } : {});
	}

	const request = this.getRequestObject();
	let size = bodySize(request.rawBody, request.headers['content-length']);
	if (size <= MAX_BODY_BYTES && request.body === undefined && request.rawBody === undefined) {
		// Version 1.1: n8n did not read a body it cannot parse (no content type, octet-stream...).
		await request.readRawBody();
		size = bodySize(request.rawBody, request.headers['content-length']);
	}
	if (size > MAX_BODY_BYTES) {
		return reply(this, 413, {
			error: 'payload_too_large',
			message: `The request body is ${size} bytes; a messaging event is limited to ${MAX_BODY_BYTES} bytes (1 MiB). Nothing was started.`,
		});
	}

	const body = readJsonObject(this.getBodyData(), request.rawBody);
	if (typeof body === 'string') return reply(this, 400, { error: 'invalid_body', message: body });
	const delivery = checkEvent(body);
	if (!delivery.ok) return reply(this, 400, { error: 'invalid_event', message: delivery.message });
	const { event, eventType } = delivery;

	if (!delivery.known) {
		if (!(this.getNodeParameter('options.includeUnknownEvents', false) as boolean)) {
			return acknowledgeOnly(eventType, `Unknown event type "${eventType}": ignored (see Options → Include Unknown Event Types)`);
		}
	} else {
		const selected = [this.getNodeParameter('events', [])].flat() as string[];
		if (!selected.includes(eventType)) return acknowledgeOnly(eventType, `Event type "${eventType}" is not selected in Trigger On`);
		if (eventType === STATUS_EVENT) {
			const wanted = this.getNodeParameter('status', 'any') as string;
			if (wanted !== 'any' && event.status !== wanted) {
				return acknowledgeOnly(eventType, `Status "${String(event.status)}" does not match the Status filter (${wanted})`);
			}
		}
	}

	const owner = { workflowId: this.getWorkflow().id, nodeName: this.getNode().name };
	const staticData = this.getWorkflowStaticData('node');
	if ((this.getNodeParameter('ignoreRepeatedDeliveries', true) as boolean) && typeof event.message_id === 'string') {
		if (!deliveryMemory(staticData, owner).firstDelivery(deliveryKey(event, eventType))) {
			return acknowledgeOnly(eventType, 'Repeated delivery of an event that already started the workflow');
		}
	}

	const output: IDataObject =
		eventType === INBOUND_EVENT
			? {
					...event,
					window_open_until: windowOpenUntil(event.timestamp as string),
					previous_inbound_at: previousInbound(staticData, owner, event.from as string, event.timestamp as string),
				}
			: { ...event };
	// The node answers the call itself: n8n then saves the static data (the memories) as it
	// answers, before it starts the execution. Left to n8n, the answer and the save come after the
	// start, which resets n8n's "changed" mark, and the memory was lost.
	const settings = eventType === INBOUND_EVENT && this.getMode() !== 'manual' ? burstSettings(this) : undefined;
	if (typeof settings === 'string') return reply(this, 500, { error: 'invalid_settings', message: `${settings} Nothing was started.` });
	const gatherer = settings ? burstOwner(this) : undefined;
	if (!settings || !gatherer) {
		const answered = reply(this, 200, { received: true, started: true, event_type: eventType });
		return { ...answered, workflowData: [this.helpers.returnJsonArray(output)] };
	}
	const gathered = gatherMessage(staticData, gatherer, settings, output);
	for (const { from, at } of gathered.due) scheduleFlush(this, gatherer, from, at);
	const answered = reply(this, 200, { received: true, started: gathered.start !== undefined, event_type: eventType, gathering: true });
	return gathered.start ? { ...answered, workflowData: [this.helpers.returnJsonArray(gathered.start)] } : answered;
}
