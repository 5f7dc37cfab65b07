import type {
	IAuthenticate,
	ICredentialTestRequest,
	ICredentialType,
	Icon,
	INodeProperties,
} from 'n8n-workflow';
import { BASE_URL_EXPRESSION } from '../nodes/TimelineNavigation/transport/baseUrl';
import { bearerAuthentication } from '../nodes/TimelineNavigation/transport/bearer';

export class ChatAppMessagingApi implements ICredentialType {
	name = 'chatAppMessagingApi';

	displayName = 'Chat-App Messaging API';

	icon: Icon = {
		light: 'file:chatAppMessaging.svg',
		dark: 'file:chatAppMessaging.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-timeline-navigation/n8n-nodes-timeline-navigation#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.messaging.example',
			description:
				'Scheme and host of the messaging API. The node adds /v1; a trailing /v1 or slash is accepted.',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The key shown in your account dashboard, sent as a bearer token',
		},
	];

	authenticate: IAuthenticate = bearerAuthentication('apiKey');

	// The service has no read-only "who am I" call. Looking up the status of a message id
	// that cannot exist sends nothing and changes nothing: an unknown id (404) means the key
	// was accepted, so HTTP errors are read as answers and only an authentication refusal
	// fails the test.
	test: ICredentialTestRequest = {
		request: {
			baseURL: BASE_URL_EXPRESSION,
			url: '/messages/n8n-credential-test',
			method: 'GET',
			ignoreHttpStatusErrors: true,
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error.code',
					value: 'unauthorized',
					message:
						'The service rejected the API key (HTTP 401). Copy the key again from the account dashboard.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error.code',
					value: 'forbidden',
					message: 'The API key is not allowed to use the messaging API (HTTP 403).',
				},
			},
		],
	};
}
