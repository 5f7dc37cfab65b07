import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';
import { actionNodeParts } from './actions/node.description';
import { RESOURCES } from './actions/registry';
import { route } from './actions/router';
import { searchTimelines } from './methods/listSearch';
import { SEND_AND_WAIT_TOOLTIP, SEND_AND_WAIT_WEBHOOKS } from './sendAndWait/description';
import { sendAndWaitWebhook } from './sendAndWait/webhook';

/** Every operation of both services. */
const parts = actionNodeParts(RESOURCES, 'time');

export class TimelineNavigation implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Timeline Navigation & Chat-App Messaging',
		name: 'timelineNavigation',
		icon: { light: 'file:timelineNavigation.svg', dark: 'file:timelineNavigation.dark.svg' },
		group: ['transform'],
		// A list, even of one version: n8n adds a "Custom API Call" choice to the Resource and
		// Operation lists of a node whose `defaultVersion` is missing or equals `version`, and
		// picking it names the node "__CUSTOM_API_CALL__ <resource>" (custom-api-call.e2e).
		version: [1],
		defaultVersion: 1,
		subtitle: parts.subtitle,
		description:
			'Drive the Timeline Navigation service (travel, anchors, pause, fast-forward, rewind, events, timelines) and send Chat-App messages (templates, text, media, location) and check their delivery',
		defaults: { name: 'Timeline Navigation & Chat-App Messaging' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: parts.credentials,
		// Message → Send and Wait for Response: n8n's waiting webhooks, never registered with a
		// service (docs/send-and-wait.md says why they need no webhookMethods).
		webhooks: SEND_AND_WAIT_WEBHOOKS,
		waitingNodeTooltip: SEND_AND_WAIT_TOOLTIP,
		properties: parts.properties,
	};

	methods = {
		listSearch: { searchTimelines },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this, parts.operations);
	}

	/** The link of a Send and Wait question: the page (GET) and the answer (POST). */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await sendAndWaitWebhook.call(this);
	}
}
