// What one run of a node reads once and shares among its items, in one object that the node
// creates when n8n calls it and hands down to every read and request; nothing is kept on n8n's
// context:
// - each service's credential: it cannot change between items, and loading and decrypting it
//   is a noticeable part of every request's cost;
// - for the action nodes, the parameters: a value without an expression anywhere is the same
//   for every item, so n8n resolves (and checks) it once per run.
import {
	deepCopy,
	type ICredentialsDecrypted,
	type IDataObject,
	type IExecuteFunctions,
	type IGetNodeParameterOptions,
	type ILoadOptionsFunctions,
	type IPollFunctions,
} from 'n8n-workflow';
import { normalizeBaseUrl, type Service, SERVICES } from './services';

/** The n8n contexts that talk to a service: an action's run, the editor's list search, a trigger's poll. */
export type N8nContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/** A service's credential as the requests use it. */
export interface ServiceCredential {
	baseUrl: string;
	/** The credential's secret values, kept only to blank them out of error messages. */
	secrets: string[];
	/**
	 * Handed to httpRequestWithAuthentication, which otherwise loads and decrypts the
	 * credential again for every request (a database read and an AES decryption per item).
	 */
	decrypted: ICredentialsDecrypted;
}

/** One run of a node: n8n's context and each service's credential, read at most once. */
export class Execution<Context extends N8nContext = N8nContext> {
	private readonly credentials = new Map<Service, Promise<ServiceCredential>>();

	constructor(readonly n8n: Context) {}

	async credential(service: Service): Promise<ServiceCredential> {
		let credential = this.credentials.get(service);
		if (!credential) {
			credential = this.readCredential(service);
			this.credentials.set(service, credential);
		}
		return await credential;
	}

	private async readCredential(service: Service): Promise<ServiceCredential> {
		const type = SERVICES[service].credentialType;
		const data = await this.n8n.getCredentials(type);
		const { baseUrl, ...rest } = data;
		const ref = this.n8n.getNode().credentials?.[type];
		return {
			baseUrl: normalizeBaseUrl(String(baseUrl ?? '')),
			secrets: Object.values(rest).filter((value): value is string => typeof value === 'string' && value.length >= 4),
			decrypted: { id: ref?.id ?? '', name: ref?.name ?? type, type, data },
		};
	}
}

const EXPRESSION = Symbol('holds an expression');

/** n8n evaluates a string starting with "=" as an expression, at any depth of a collection. */
export function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (value !== null && typeof value === 'object') return Object.values(value).some(holdsExpression);
	return false;
}

function rawValueAt(raw: IDataObject, path: string): unknown {
	let value: unknown = raw;
	for (const key of path.split('.')) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as IDataObject)[key];
	}
	return value;
}

/** An action node's run: its credentials, and its parameters read once where no expression is involved. */
export class ActionExecution extends Execution<IExecuteFunctions> {
	// getNode() copies the whole node: once per run, not once per read.
	private readonly raw = this.n8n.getNode().parameters as IDataObject;

	/** Cache key → the resolved value, or EXPRESSION when the parameter must be read per item. */
	private readonly resolved = new Map<string, unknown>();

	/** One item of the run: where a read or an error belongs. */
	item(index: number): Item {
		return { execution: this, index };
	}

	/**
	 * The parameter's value for the item, as `getNodeParameter` gives it. A value without
	 * expressions is resolved once per run; a failed read is never kept, so each item gets its
	 * own error. Objects are copied, so no two items share one.
	 */
	parameter(name: string, itemIndex: number, fallback?: unknown, options?: IGetNodeParameterOptions): unknown {
		const raw = rawValueAt(this.raw, name);
		// Without a stored value n8n returns the fallback, which differs between callers.
		const key = `${name}${options?.extractValue ? '\u0000extract' : ''}${raw === undefined ? `\u0000${JSON.stringify(fallback)}` : ''}`;
		const known = this.resolved.get(key);
		if (known === EXPRESSION || (known === undefined && holdsExpression(raw))) {
			if (known === undefined) this.resolved.set(key, EXPRESSION);
			return this.n8n.getNodeParameter(name, itemIndex, fallback, options);
		}
		if (!this.resolved.has(key)) this.resolved.set(key, this.n8n.getNodeParameter(name, itemIndex, fallback, options));
		const value = this.resolved.get(key);
		return value !== null && typeof value === 'object' ? deepCopy(value) : value;
	}
}

/** One input item of an action node's run. */
export interface Item {
	readonly execution: ActionExecution;
	readonly index: number;
}
