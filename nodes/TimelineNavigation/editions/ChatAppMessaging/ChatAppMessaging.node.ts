// The Chat-App Messaging package's action node: the Message operations of the combined node,
// built from the same operation modules (only the messaging service's resources).
import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';
import { MESSAGING_RESOURCES } from '../../actions/messaging.resources';
import { actionNodeParts } from '../../actions/node.description';
import { route } from '../../actions/router';
import { SEND_AND_WAIT_TOOLTIP, SEND_AND_WAIT_WEBHOOKS } from '../../sendAndWait/description';
import { sendAndWaitWebhook } from '../../sendAndWait/webhook';

const parts = actionNodeParts(MESSAGING_RESOURCES, 'message');

export class ChatAppMessaging implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Chat-App Messaging',
		name: 'chatAppMessaging',
		icon: { light: 'file:chatAppMessaging.svg', dark: 'file:chatAppMessaging.dark.svg' },
		group: ['transform'],
		// A list, even of one version: n8n adds a "Custom API Call" choice to a node whose
		// `defaultVersion` is missing or equals `version` (see the combined node).
		version: [1],
		defaultVersion: 1,
		subtitle: parts.subtitle,
		description:
			"Send Chat-App messages (templates, text, media, location, custom), ask a person and wait for the answer, and check a message's delivery",
		defaults: { name: 'Chat-App Messaging' },
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

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this, parts.operations);
	}

	/** The link of a Send and Wait question: the page (GET) and the answer (POST). */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await sendAndWaitWebhook.call(this);
	}
}
