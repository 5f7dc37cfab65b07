// The ceiling's credential: a bearer key set by a function, the fastest form n8n offers (the
// generic `'=Bearer {{$credentials.apiKey}}'` form costs an expression evaluation per request).
import type { ICredentialDataDecryptedObject, ICredentialType, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

export class BenchCeilingApi implements ICredentialType {
	name = 'benchCeilingApi';

	displayName = 'Bench Ceiling API';

	properties: INodeProperties[] = [
		{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: '' },
		{ displayName: 'API Key', name: 'apiKey', type: 'string', typeOptions: { password: true }, default: '' },
	];

	async authenticate(credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		return { ...requestOptions, headers: { ...requestOptions.headers, Authorization: `Bearer ${String(credentials.apiKey)}` } };
	}
}
