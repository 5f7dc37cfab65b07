// The one set-up of the action node's tests: a sandbox per test file (reset before each test),
// both credentials pointing at it, and a runner that gives the node the credential its resource
// uses (from the operation registry), as a user's saved node has it.
import axios from 'axios';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { RESOURCES } from '../../nodes/shared/registry';
import { SERVICES } from '../../nodes/shared/services';
import { runNode, type StoredCredential } from './harness';
import { CUSTOMER, type OperationCase } from './operation-cases';
import type { RecordedRequest, Sandbox } from '../../tools/sandbox/server';
import { sandboxPerFile } from './sandbox';

export const NODE_TYPE = 'n8n-nodes-timeline-navigation.timelineNavigation';
export { CUSTOMER };

/** A resource locator value in "By ID" mode. */
export const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** The request as a test compares it: method, path, query, body. */
export const sent = (request: RecordedRequest) => ({
	method: request.method,
	path: request.path,
	query: request.query,
	body: request.body,
});

const CREDENTIAL_REFS = { timeline: { id: 'tl', name: 'Timeline' }, messaging: { id: 'msg', name: 'Messaging' } } as const;

/** Both credentials as stored in n8n, pointing at the sandbox (with other keys when given). */
export function credentialsFor(sandbox: Sandbox, keys: { timeline?: string; messaging?: string } = {}): StoredCredential[] {
	return [
		{
			...CREDENTIAL_REFS.timeline,
			type: SERVICES.timeline.credentialType,
			data: { baseUrl: sandbox.url, accessToken: keys.timeline ?? sandbox.timelineKey },
		},
		{
			...CREDENTIAL_REFS.messaging,
			type: SERVICES.messaging.credentialType,
			data: { baseUrl: sandbox.url, apiKey: keys.messaging ?? sandbox.messagingKey },
		},
	];
}

/** The node's credential for a resource, as the editor stores it on the node. */
export function nodeCredentialsFor(resource: unknown) {
	const service = RESOURCES.find((candidate) => candidate.value === resource)?.service;
	if (!service) throw new Error(`No resource "${String(resource)}" in the registry`);
	return { [SERVICES[service].credentialType]: CREDENTIAL_REFS[service] };
}

export interface RunOptions {
	continueOnFail?: boolean;
	/** "On Error → Continue (using error output)". */
	errorOutput?: boolean;
	/** Instead of the sandbox's credentials (wrong keys, another Base URL). */
	credentials?: StoredCredential[];
	/** Workflow settings, such as the time zone. */
	settings?: IDataObject;
	/** The node's version as saved in the workflow (default 1). */
	typeVersion?: number;
	/** Another node than the combined action node (a single-service package's). */
	type?: string;
}

export interface NodeTestContext {
	readonly sandbox: Sandbox;
	readonly credentials: StoredCredential[];
	/** Runs the node with these parameters (on top of the defaults given to useSandbox). */
	run(parameters: IDataObject, items?: IDataObject[], options?: RunOptions): ReturnType<typeof runNode>;
	/** Runs an operation with its valid parameters from operation-cases.ts, `overrides` on top. */
	runCase(op: OperationCase, overrides?: IDataObject, items?: IDataObject[], options?: RunOptions): ReturnType<typeof runNode>;
	/** Everything that reached the sandbox's /v1 paths, in arrival order. */
	requests(): Promise<RecordedRequest[]>;
	/** The bodies of the POST /v1/messages requests, in arrival order. */
	sentBodies(): Promise<IDataObject[]>;
	/** Calls the timeline service directly (test set-up), with the key. */
	api<T = IDataObject>(method: string, path: string, body?: unknown): Promise<T>;
	/** Creates a timeline directly and forgets the request, so tests see only the node's. */
	createTimeline(name: string): Promise<string>;
}

/** Registers the file's hooks (a sandbox per file, see sandboxPerFile) and returns the live context. */
export function useSandbox(defaults: IDataObject = {}): NodeTestContext {
	const sandbox = sandboxPerFile();
	let credentials: StoredCredential[];
	beforeAll(() => {
		credentials = credentialsFor(sandbox);
	});

	const run: NodeTestContext['run'] = async (parameters, items = [{}], options = {}) => {
		const all = { ...defaults, ...parameters } as INodeParameters;
		return await runNode(
			{
				type: options.type ?? NODE_TYPE,
				parameters: all,
				credentials: nodeCredentialsFor(all.resource),
				continueOnFail: options.continueOnFail,
				errorOutput: options.errorOutput,
				typeVersion: options.typeVersion,
			},
			items,
			{ credentials: options.credentials ?? credentials, settings: options.settings },
		);
	};

	const context: NodeTestContext = {
		sandbox,
		get credentials() {
			return credentials;
		},
		run,
		runCase: async (op, overrides = {}, items, options) =>
			await run({ resource: op.resource, operation: op.operation, ...op.parameters, ...overrides }, items, options),
		requests: async () => await sandbox.client.requests({ pathPrefix: '/v1/' }),
		sentBodies: async () =>
			(await sandbox.client.requests({ method: 'POST', path: '/v1/messages' })).map((request) => request.body as IDataObject),
		api: async (method, path, body) => {
			const response = await axios.request({
				method,
				url: `${sandbox.url}/v1${path}`,
				data: body,
				headers: { Authorization: `Bearer ${sandbox.timelineKey}` },
				proxy: false,
				validateStatus: () => true,
			});
			if (response.status >= 300) throw new Error(`Set-up ${method} ${path} failed: ${JSON.stringify(response.data)}`);
			return response.data;
		},
		createTimeline: async (name) => {
			const { timeline_id } = await context.api<{ timeline_id: string }>('POST', '/timelines', { name });
			await sandbox.client.clearRequests();
			return timeline_id;
		},
	};
	return context;
}

/** Milliseconds `work` took, with its result. */
export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
	const started = performance.now();
	const result = await work();
	return { ms: performance.now() - started, result };
}
