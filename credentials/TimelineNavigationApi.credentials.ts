import type {
	IAuthenticate,
	ICredentialTestRequest,
	ICredentialType,
	Icon,
	INodeProperties,
} from 'n8n-workflow';
import { BASE_URL_EXPRESSION, bearerAuthentication, SERVICES } from '../nodes/shared/services';

export class TimelineNavigationApi implements ICredentialType {
	name = SERVICES.timeline.credentialType;

	displayName = SERVICES.timeline.credentialName;

	icon: Icon = {
		light: 'file:timelineNavigation.svg',
		dark: 'file:timelineNavigation.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-timeline-navigation/n8n-nodes-timeline-navigation/blob/main/docs/credentials.md';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.timeline-navigation.example',
			description:
				'Scheme and host of your service (the service is published under two host names: use yours). The node adds /v1; a trailing /v1 or slash is accepted.',
		},
		{
			displayName: SERVICES.timeline.keyLabel,
			name: SERVICES.timeline.keyField,
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The JWT issued to your account, sent as a bearer token',
		},
	];

	authenticate: IAuthenticate = bearerAuthentication('timeline');

	// Listing timelines reads nothing sensitive and changes nothing.
	test: ICredentialTestRequest = {
		request: {
			baseURL: BASE_URL_EXPRESSION,
			url: '/timelines',
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'The service rejected the access token (HTTP 401). Copy the token again and check it has not expired.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: 'The access token is not allowed to use this service (HTTP 403).',
				},
			},
		],
	};
}
