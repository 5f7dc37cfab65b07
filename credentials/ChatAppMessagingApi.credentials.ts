import type {
	IAuthenticate,
	ICredentialTestRequest,
	ICredentialType,
	Icon,
	INodeProperties,
} from 'n8n-workflow';
import { BASE_URL_EXPRESSION, bearerAuthentication, SERVICES } from '../nodes/shared/services';

// Every status outside 2xx (HTTP status codes run from 100 to 599; a 1xx is never a final
// answer) except 404, the expected answer to the lookup of a made-up message id.
const STATUSES_THAT_FAIL_THE_TEST = Array.from({ length: 300 }, (_, i) => 300 + i).filter(
	(status) => status !== 404,
);

function failureMessage(status: number): string {
	if (status === 401) {
		return 'The service rejected the API key (HTTP 401). Copy the key again from the account dashboard.';
	}
	if (status === 403) {
		return 'The service refused the API key (HTTP 403): the key is not allowed to use the messaging API. Check it in the account dashboard.';
	}
	return `The messaging service answered HTTP ${status} instead of 404 to the lookup of a made-up message id, so the API key could not be checked. Check the Base URL and try again.`;
}

export class ChatAppMessagingApi implements ICredentialType {
	name = SERVICES.messaging.credentialType;

	displayName = SERVICES.messaging.credentialName;

	icon: Icon = {
		light: 'file:chatAppMessaging.svg',
		dark: 'file:chatAppMessaging.dark.svg',
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
			placeholder: 'https://api.messaging.example',
			description:
				'Scheme and host of the messaging API. The node adds /v1; a trailing /v1 or slash is accepted.',
		},
		{
			displayName: SERVICES.messaging.keyLabel,
			name: SERVICES.messaging.keyField,
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The key shown in your account dashboard, sent as a bearer token',
		},
	];

	authenticate: IAuthenticate = bearerAuthentication('messaging');

	// The service has no read-only "who am I" call, and its error bodies are not documented, so
	// the verdict rests on the HTTP status alone. Looking up the status of a message id that
	// cannot exist sends nothing and changes nothing: 404 means the key was accepted. n8n's
	// "ignore every status error except these" list lets that 404 (and any 2xx) reach the
	// verdict as an answer, while 401, 403 and every other status stay errors, matched by
	// status in `rules` whatever their body.
	test: ICredentialTestRequest = {
		request: {
			baseURL: BASE_URL_EXPRESSION,
			url: '/messages/n8n-credential-test',
			method: 'GET',
			ignoreHttpStatusErrors: { ignore: true, except: STATUSES_THAT_FAIL_THE_TEST },
		},
		rules: STATUSES_THAT_FAIL_THE_TEST.map((status) => ({
			type: 'responseCode' as const,
			properties: { value: status, message: failureMessage(status) },
		})),
	};
}

