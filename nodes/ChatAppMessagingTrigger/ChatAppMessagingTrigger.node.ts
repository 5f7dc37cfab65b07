// The combined package's Chat-App Messaging Inbox Trigger (../shared/chatAppMessaging/trigger/trigger.ts).
import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { MESSAGING_TRIGGERS } from '../shared/catalog';
import { triggerSubtitle } from '../shared/chatAppMessaging/trigger/description';
import { messagingTriggerDescription, receiveEvent, WEBHOOK_CREDENTIAL_TESTS, WEBHOOK_LIFECYCLE } from '../shared/chatAppMessaging/trigger/trigger';

export class ChatAppMessagingTrigger implements INodeType {
	description: INodeTypeDescription = {
		...messagingTriggerDescription(MESSAGING_TRIGGERS.chatAppMessagingTrigger),
		// Written out here, where n8n's scanner reads them: the icon files, the subtitle and each credential's test.
		icon: { light: 'file:chatAppMessagingTrigger.svg', dark: 'file:chatAppMessagingTrigger.dark.svg' },
		subtitle: triggerSubtitle,
		credentials: [
			{
				name: 'chatAppWebhookBasicAuthApi',
				required: true,
				testedBy: 'checkWebhookBasicAuth',
				displayOptions: { show: { authentication: ['basicAuth'] } },
			},
			{
				name: 'chatAppWebhookHeaderAuthApi',
				required: true,
				testedBy: 'checkWebhookHeaderAuth',
				displayOptions: { show: { authentication: ['headerAuth'] } },
			},
		],
	};

	methods = { credentialTest: WEBHOOK_CREDENTIAL_TESTS };

	webhookMethods = { default: WEBHOOK_LIFECYCLE };

	webhook = receiveEvent;
}
