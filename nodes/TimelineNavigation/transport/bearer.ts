import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

/**
 * The credentials' `authenticate`: `Authorization: Bearer <key>` from the field `keyField`.
 * A function rather than n8n's generic form (`'=Bearer {{$credentials.apiKey}}'`), which n8n
 * resolves through its expression engine for every request; n8n calls a function as it is
 * (n8n's own Calendly credential sets its bearer header this way).
 */
export function bearerAuthentication(keyField: string) {
	return async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => ({
		...requestOptions,
		headers: { ...requestOptions.headers, Authorization: `Bearer ${String(credentials[keyField] ?? '')}` },
	});
}
