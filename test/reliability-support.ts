// Shared set-up of the reliability, security and property suites: one sandbox per file, both
// credentials pointing at it, and one valid parameter set per operation, so a fault or a bad
// value can be tried on every operation the same way.
import type { IDataObject } from 'n8n-workflow';
import { runNode, type StoredCredential } from './harness';
import { startSandbox, type RecordedRequest, type Sandbox } from './sandbox/server';

export const NODE_TYPE = 'n8n-nodes-timeline-navigation.timelineNavigation';
export const CUSTOMER = '+14155550123';

export interface Operation {
	/** As the node names it in errors: "Time → Travel". */
	label: string;
	resource: string;
	operation: string;
	service: 'timeline' | 'messaging';
	/** Parameters that make a valid request. */
	parameters: IDataObject;
	/** Method and path prefix of the request the operation sends. */
	method: string;
	path: string;
}

const locator = (value: string) => ({ __rl: true, mode: 'id', value });

export const OPERATIONS: Operation[] = [
	{ label: 'Time → Travel', resource: 'time', operation: 'travel', service: 'timeline', method: 'POST', path: '/v1/travel', parameters: { destinationTime: '2030-01-01T00:00:00Z', location: 'Alexandria' } },
	{ label: 'Time → Pause', resource: 'time', operation: 'pause', service: 'timeline', method: 'POST', path: '/v1/pause-time', parameters: {} },
	{ label: 'Time → Resume', resource: 'time', operation: 'resume', service: 'timeline', method: 'POST', path: '/v1/resume-time', parameters: {} },
	{ label: 'Time → Fast-Forward', resource: 'time', operation: 'fastForward', service: 'timeline', method: 'POST', path: '/v1/fast-forward', parameters: { durationAmount: 2, durationUnit: 'hours' } },
	{ label: 'Time → Rewind', resource: 'time', operation: 'rewind', service: 'timeline', method: 'POST', path: '/v1/rewind', parameters: { durationAmount: 15, durationUnit: 'minutes' } },
	{ label: 'Anchor → Set', resource: 'anchor', operation: 'set', service: 'timeline', method: 'POST', path: '/v1/set-anchor', parameters: { timestamp: '2026-05-01T09:30:00Z', description: 'start' } },
	{ label: 'Anchor → Create', resource: 'anchor', operation: 'create', service: 'timeline', method: 'POST', path: '/v1/anchors', parameters: { timestamp: '2026-05-01T09:30:00Z' } },
	{ label: 'Anchor → Return To', resource: 'anchor', operation: 'returnTo', service: 'timeline', method: 'POST', path: '/v1/travels', parameters: { anchorId: 'anc_1' } },
	{ label: 'Event → Monitor', resource: 'event', operation: 'monitor', service: 'timeline', method: 'GET', path: '/v1/monitor-events', parameters: { location: 'Rome', rangeStart: '2026-01-01T00:00:00Z', rangeEnd: '2026-02-01T00:00:00Z' } },
	{ label: 'Event → Manipulate', resource: 'event', operation: 'manipulate', service: 'timeline', method: 'POST', path: '/v1/events', parameters: { timelineId: locator('tl_1'), eventAction: 'add', eventTime: '2026-01-01T00:00:00Z', description: 'x' } },
	{ label: 'Timeline → Get Many', resource: 'timeline', operation: 'getAll', service: 'timeline', method: 'GET', path: '/v1/timelines', parameters: { returnAll: true } },
	{ label: 'Timeline → Create', resource: 'timeline', operation: 'create', service: 'timeline', method: 'POST', path: '/v1/timelines', parameters: { name: 'Main line' } },
	{ label: 'Timeline → Delete', resource: 'timeline', operation: 'delete', service: 'timeline', method: 'DELETE', path: '/v1/timeline/', parameters: { timelineId: locator('tl_1') } },
	{ label: 'Timeline → Travel To', resource: 'timeline', operation: 'travelTo', service: 'timeline', method: 'POST', path: '/v1/travels', parameters: { timelineId: locator('tl_1') } },
	{ label: 'Timeline → Check for Paradoxes', resource: 'timeline', operation: 'checkParadoxes', service: 'timeline', method: 'POST', path: '/v1/paradox-checks', parameters: { timelineId: locator('tl_1') } },
	{ label: 'Timeline → Monitor Anomalies', resource: 'timeline', operation: 'monitorAnomalies', service: 'timeline', method: 'GET', path: '/v1/monitor-timeline', parameters: { timelineId: locator('tl_1'), outputMode: 'response' } },
	{ label: 'Item → Register', resource: 'item', operation: 'register', service: 'timeline', method: 'POST', path: '/v1/items', parameters: { timelineId: locator('tl_1'), name: 'Compass' } },
	{ label: 'Message → Send Text', resource: 'message', operation: 'sendText', service: 'messaging', method: 'POST', path: '/v1/messages', parameters: { to: CUSTOMER, text: 'Hello' } },
	{ label: 'Message → Send Template', resource: 'message', operation: 'sendTemplate', service: 'messaging', method: 'POST', path: '/v1/messages', parameters: { to: CUSTOMER, templateId: 'welcome_customer', parametersInput: 'list', templateParameters: { parameter: [{ value: 'Ada' }] } } },
	{ label: 'Message → Send Media', resource: 'message', operation: 'sendMedia', service: 'messaging', method: 'POST', path: '/v1/messages', parameters: { to: CUSTOMER, mediaType: 'image', mediaUrl: 'https://example.com/a.jpg' } },
	{ label: 'Message → Send Location', resource: 'message', operation: 'sendLocation', service: 'messaging', method: 'POST', path: '/v1/messages', parameters: { to: CUSTOMER, latitude: 41.9, longitude: 12.5 } },
	{ label: 'Message → Send Custom', resource: 'message', operation: 'sendCustom', service: 'messaging', method: 'POST', path: '/v1/messages', parameters: { to: CUSTOMER, customPayload: '{"type":"poll"}' } },
	{ label: 'Message → Get Status', resource: 'message', operation: 'getStatus', service: 'messaging', method: 'GET', path: '/v1/messages/', parameters: { messageId: 'msg_1' } },
];

export function operation(label: string): Operation {
	const found = OPERATIONS.find((op) => op.label === label);
	if (!found) throw new Error(`No operation "${label}" in the table`);
	return found;
}

export interface ReliabilityContext {
	sandbox: Sandbox;
	credentials: StoredCredential[];
	/** Runs one operation with its valid parameters, `overrides` on top. */
	run(
		op: Operation,
		overrides?: IDataObject,
		items?: IDataObject[],
		options?: { continueOnFail?: boolean; credentials?: StoredCredential[] },
	): ReturnType<typeof runNode>;
	/** Every /v1 request the sandbox received, in arrival order. */
	apiRequests(): Promise<RecordedRequest[]>;
}

export function credentialsFor(sandbox: Sandbox, keys: { timeline?: string; messaging?: string } = {}): StoredCredential[] {
	return [
		{ id: 'tl', name: 'Timeline', type: 'timelineNavigationApi', data: { baseUrl: sandbox.url, accessToken: keys.timeline ?? sandbox.timelineKey } },
		{ id: 'msg', name: 'Messaging', type: 'chatAppMessagingApi', data: { baseUrl: sandbox.url, apiKey: keys.messaging ?? sandbox.messagingKey } },
	];
}

/** Registers beforeAll/afterAll/beforeEach hooks (a fresh sandbox state per test). */
export function useSandbox(): ReliabilityContext {
	const context = {} as ReliabilityContext;
	beforeAll(async () => {
		context.sandbox = await startSandbox();
		context.credentials = credentialsFor(context.sandbox);
	});
	afterAll(async () => context.sandbox.close());
	beforeEach(async () => context.sandbox.client.reset());

	context.run = (op, overrides = {}, items = [{}], options = {}) =>
		runNode(
			{
				type: NODE_TYPE,
				parameters: { resource: op.resource, operation: op.operation, ...op.parameters, ...overrides } as never,
				credentials:
					op.service === 'timeline'
						? { timelineNavigationApi: { id: 'tl', name: 'Timeline' } }
						: { chatAppMessagingApi: { id: 'msg', name: 'Messaging' } },
				continueOnFail: options.continueOnFail,
			},
			items,
			{ credentials: options.credentials ?? context.credentials },
		);
	context.apiRequests = async () => context.sandbox.client.requests({ pathPrefix: '/v1/' });
	return context;
}

/** Milliseconds `work` took, with its result. */
export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
	const started = performance.now();
	const result = await work();
	return { ms: performance.now() - started, result };
}
