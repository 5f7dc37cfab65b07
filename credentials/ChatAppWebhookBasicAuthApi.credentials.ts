import type { ICredentialType, Icon, INodeProperties } from 'n8n-workflow';

// The user name and password the messaging service sends (HTTP basic authentication) on
// every webhook call. Checked by the Chat-App Messaging Inbox Trigger; nothing is sent anywhere
// with it. Its credential test (in the trigger node, `testedBy`) checks the values locally.
export class ChatAppWebhookBasicAuthApi implements ICredentialType {
	name = 'chatAppWebhookBasicAuthApi';

	displayName = 'Chat-App Webhook Basic Auth API';

	icon: Icon = {
		light: 'file:chatAppMessaging.svg',
		dark: 'file:chatAppMessaging.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-timeline-navigation/n8n-nodes-timeline-navigation/blob/main/docs/trigger.md';

	properties: INodeProperties[] = [
		{
			displayName: 'User',
			name: 'user',
			type: 'string',
			default: '',
			required: true,
			description: 'The user name set for the webhook in the messaging dashboard',
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The password set for the webhook in the messaging dashboard',
		},
	];
}
