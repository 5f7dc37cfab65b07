// What one run of a node reads once and shares among its items, in one object that the node
// creates when n8n calls it and hands down to every read and request; nothing is kept on n8n's
// context. Each service's credential: it cannot change between items, and loading and
// decrypting it is a noticeable part of every request's cost. Parameters are read from n8n for
// each item (docs/benchmarks.md says why they are not kept: it did not pay).
import type { ICredentialsDecrypted, IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';
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

/** An action node's run: its credentials, its input items, and the one field a send reads for the whole run. */
export class ActionExecution extends Execution<IExecuteFunctions> {
	/**
	 * Whether a send takes its values from the input items ("Data to Send": Map Automatically):
	 * one setting for the whole run, read from its first item (fields/parameters.ts `isAutoMapped`)
	 * when a send first asks, instead of four times for every item.
	 */
	autoMapped?: boolean;

	/** One item of the run: where a read or an error belongs. */
	item(index: number): Item {
		return { execution: this, index };
	}
}

/** One input item of an action node's run. */
export interface Item {
	readonly execution: ActionExecution;
	readonly index: number;
}
