import type { ICredentialType, Icon, INodeProperties } from 'n8n-workflow';

// The secret the messaging service sends in a custom header on every webhook call. Checked
// by the Chat-App Messaging Inbox Trigger; nothing is sent anywhere with it. Its credential test
// (in the trigger node, `testedBy`) checks locally that the header can carry the value.
export class ChatAppWebhookHeaderAuthApi implements ICredentialType {
	name = 'chatAppWebhookHeaderAuthApi';

	displayName = 'Chat-App Webhook Header Auth API';

	icon: Icon = {
		light: 'file:chatAppMessaging.svg',
		dark: 'file:chatAppMessaging.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-timeline-navigation/n8n-nodes-timeline-navigation/blob/main/docs/trigger.md';

	properties: INodeProperties[] = [
		{
			displayName: 'Header Name',
			name: 'headerName',
			type: 'string',
			default: 'X-Webhook-Secret',
			required: true,
			description:
				'The custom header you add to the webhook in the messaging dashboard (case does not matter)',
		},
		{
			displayName: 'Secret',
			name: 'secret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The value of that header. Use a long random string and enter the same value in the dashboard.',
		},
	];
}
