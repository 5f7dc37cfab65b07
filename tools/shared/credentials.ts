// A credentials helper that does what n8n's server does for this package: keeps decrypted
// credentials in memory (no database) and applies each credential type's generic
// `authenticate` block (headers, query string, body, basic auth), resolving its
// `={{$credentials.x}}` expressions against the credential data. Shared by the in-process test
// harness (test/support/harness) and the bench's in-process poller (tools/bench/poll-process.ts).
import {
	ICredentialsHelper,
	type ICredentialDataDecryptedObject,
	type ICredentials,
	type ICredentialType,
	type IDataObject,
	type IHttpRequestHelper,
	type IHttpRequestOptions,
	type INodeCredentialsDetails,
	type INodeProperties,
	type IRequestOptionsSimplified,
	type IWorkflowExecuteAdditionalData,
	Expression,
} from 'n8n-workflow';

export interface StoredCredential {
	id: string;
	name: string;
	type: string;
	data: ICredentialDataDecryptedObject;
}

/** Resolves one value of an `authenticate` block: plain strings pass, `=...{{ }}` are evaluated. */
export function resolveCredentialExpression(
	value: unknown,
	credentials: ICredentialDataDecryptedObject,
): unknown {
	if (typeof value !== 'string' || !value.startsWith('=')) return value;
	return Expression.resolveWithoutWorkflow(value.slice(1), { $credentials: credentials });
}

function resolveObject(
	object: IDataObject | undefined,
	credentials: ICredentialDataDecryptedObject,
): IDataObject {
	const resolved: IDataObject = {};
	for (const [key, value] of Object.entries(object ?? {})) {
		resolved[key] = resolveCredentialExpression(value, credentials) as IDataObject[string];
	}
	return resolved;
}

export class HarnessCredentialsHelper extends ICredentialsHelper {
	private readonly byId = new Map<string, StoredCredential>();

	constructor(private readonly credentialTypes: Map<string, ICredentialType>) {
		super();
	}

	add(credential: StoredCredential): void {
		this.byId.set(credential.id, credential);
	}

	getParentTypes(name: string): string[] {
		const type = this.credentialTypes.get(name);
		return type?.extends ?? [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
	): Promise<IHttpRequestOptions> {
		const type = this.credentialTypes.get(typeName);
		const options = requestOptions as IHttpRequestOptions;
		const authenticate = type?.authenticate;
		if (!authenticate) return options;
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, options);
		}
		const { headers, qs, body, auth } = authenticate.properties;
		options.headers = { ...options.headers, ...resolveObject(headers, credentials) };
		if (qs) options.qs = { ...options.qs, ...resolveObject(qs, credentials) };
		if (body) options.body = { ...(options.body as IDataObject), ...resolveObject(body, credentials) };
		if (auth) options.auth = resolveObject(auth, credentials) as unknown as IHttpRequestOptions['auth'];
		return options;
	}

	// Like n8n's server: only credential types with an expirable hidden property refresh
	// anything; ours have none, so there is nothing to add.
	async preAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(
		_helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		return credentials;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('The harness keeps credentials decrypted; getCredentials is not used.');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const stored =
			(nodeCredentials.id ? this.byId.get(nodeCredentials.id) : undefined) ??
			[...this.byId.values()].find((c) => c.type === type && c.name === nodeCredentials.name);
		if (!stored || stored.type !== type) {
			throw new Error(
				`Credential "${nodeCredentials.name}" (${nodeCredentials.id ?? 'no id'}) of type ${type} was not given to the harness`,
			);
		}
		return { ...stored.data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.credentialTypes.get(type)?.properties ?? [];
	}
}
