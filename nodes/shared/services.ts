// The two services this package talks to, in one place: the credential each one's requests are
// authenticated with, what its key is called there, and the Base URL rule both credentials and
// the node follow.
import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

export type Service = 'timeline' | 'messaging';

export interface ServiceDefinition {
	/** The credential type (its class's `name`). */
	credentialType: string;
	/** The credential's name in the editor (its class's `displayName`). */
	credentialName: string;
	/** The credential field that holds the bearer key, and its label in the credential form. */
	keyField: string;
	keyLabel: string;
}

export const SERVICES: Record<Service, ServiceDefinition> = {
	timeline: { credentialType: 'timelineNavigationApi', credentialName: 'Timeline Navigation API', keyField: 'accessToken', keyLabel: 'Access Token' },
	messaging: { credentialType: 'chatAppMessagingApi', credentialName: 'Chat-App Messaging API', keyField: 'apiKey', keyLabel: 'API Key' },
};

// `https://host`, `https://host/` and `https://host/v1/` all mean the service root, and `/v1`
// is added exactly once.
/** A trailing `/v1` (any case) and any slashes around it. */
const SERVICE_ROOT_SUFFIX = /\/*(\/v1)?\/*$/i;

export function normalizeBaseUrl(raw: string): string {
	return `${String(raw ?? '').trim().replace(SERVICE_ROOT_SUFFIX, '')}/v1`;
}

/** The same rule as an n8n expression, for a credential's `test.request.baseURL`. */
export const BASE_URL_EXPRESSION = `={{$credentials.baseUrl.trim().replace(${SERVICE_ROOT_SUFFIX.toString()}, "")}}/v1`;

/**
 * A credential's `authenticate`: `Authorization: Bearer <key>`. A function rather than n8n's
 * generic form (`'=Bearer {{$credentials.apiKey}}'`), which n8n resolves through its expression
 * engine for every request; n8n calls a function as it is.
 */
export function bearerAuthentication(service: Service) {
	const { keyField } = SERVICES[service];
	return async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => ({
		...requestOptions,
		headers: { ...requestOptions.headers, Authorization: `Bearer ${String(credentials[keyField] ?? '')}` },
	});
}
