// Shared set-up of the Message resource tests: one sandbox per test file, the messaging
// credential pointing at it, and a runner for the action node's Message resource.
import type { IDataObject } from 'n8n-workflow';
import { runNode, type StoredCredential } from './harness';
import { startSandbox, type RecordedRequest, type Sandbox } from './sandbox/server';

export const NODE_TYPE = 'n8n-nodes-timeline-navigation.timelineNavigation';

export interface MessagingTestContext {
	sandbox: Sandbox;
	/** Runs the Message resource with these parameters on these input items. */
	run(parameters: IDataObject, items?: IDataObject[], options?: { continueOnFail?: boolean }): ReturnType<typeof runNode>;
	/** Every request that reached the messaging API (/v1/...), in arrival order. */
	apiRequests(): Promise<RecordedRequest[]>;
	/** The bodies of the POST /v1/messages requests, in arrival order. */
	sentBodies(): Promise<IDataObject[]>;
}

/** Registers beforeAll/afterAll/beforeEach hooks and returns the live context. */
export function useMessagingSandbox(): MessagingTestContext {
	const context = {} as MessagingTestContext;
	let credentials: StoredCredential[];

	beforeAll(async () => {
		context.sandbox = await startSandbox();
		credentials = [
			{
				id: 'msg',
				name: 'Messaging',
				type: 'chatAppMessagingApi',
				data: { baseUrl: context.sandbox.url, apiKey: context.sandbox.messagingKey },
			},
		];
	});
	afterAll(async () => context.sandbox.close());
	beforeEach(async () => context.sandbox.client.reset());

	context.run = (parameters, items = [{}], options = {}) =>
		runNode(
			{
				type: NODE_TYPE,
				parameters: { resource: 'message', ...parameters } as IDataObject as never,
				credentials: { chatAppMessagingApi: { id: 'msg', name: 'Messaging' } },
				continueOnFail: options.continueOnFail,
			},
			items,
			{ credentials },
		);
	context.apiRequests = async () => context.sandbox.client.requests({ pathPrefix: '/v1/' });
	context.sentBodies = async () =>
		(await context.sandbox.client.requests({ method: 'POST', path: '/v1/messages' })).map(
			(request) => request.body as IDataObject,
		);
	return context;
}

export const CUSTOMER = '+14155550123';
