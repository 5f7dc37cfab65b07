// Shared set-up of the timeline navigation tests: one sandbox per test file, reset before each
// test, and the action node run through the harness with the timeline credential.
import axios from 'axios';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { runNode, type StoredCredential } from './harness';
import { startSandbox, type RecordedRequest, type Sandbox } from './sandbox/server';

export const NODE_TYPE = 'n8n-nodes-timeline-navigation.timelineNavigation';
export const NODE_CREDENTIALS = { timelineNavigationApi: { id: 'tl', name: 'Timeline' } };

/** A resource locator value in "By ID" mode. */
export const byId = (value: string) => ({ __rl: true, mode: 'id', value });

export interface TimelineTestContext {
	readonly sandbox: Sandbox;
	readonly credentials: StoredCredential[];
	run(parameters: INodeParameters, items?: IDataObject[], options?: { continueOnFail?: boolean }): ReturnType<typeof runNode>;
	/** Everything that reached the sandbox's /v1 paths, in arrival order. */
	requests(): Promise<RecordedRequest[]>;
	/** Calls the service directly (test set-up), with the key. */
	api<T = IDataObject>(method: string, path: string, body?: unknown): Promise<T>;
	/** Creates a timeline directly and forgets the request, so tests see only the node's. */
	createTimeline(name: string): Promise<string>;
}

export function useTimelineSandbox(): TimelineTestContext {
	let sandbox: Sandbox;
	let credentials: StoredCredential[];
	beforeAll(async () => {
		sandbox = await startSandbox();
		credentials = [
			{
				id: 'tl',
				name: 'Timeline',
				type: 'timelineNavigationApi',
				data: { baseUrl: sandbox.url, accessToken: sandbox.timelineKey },
			},
		];
	});
	afterAll(async () => sandbox.close());
	beforeEach(async () => sandbox.client.reset());

	const context: TimelineTestContext = {
		get sandbox() {
			return sandbox;
		},
		get credentials() {
			return credentials;
		},
		run: async (parameters, items = [{}], options = {}) =>
			await runNode(
				{ type: NODE_TYPE, parameters, credentials: NODE_CREDENTIALS, continueOnFail: options.continueOnFail },
				items,
				{ credentials },
			),
		requests: async () => (await sandbox.client.requests({ pathPrefix: '/v1/' })) as RecordedRequest[],
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

/** The request as a test compares it: method, path, query, body. */
export const sent = (request: RecordedRequest) => ({
	method: request.method,
	path: request.path,
	query: request.query,
	body: request.body,
});
