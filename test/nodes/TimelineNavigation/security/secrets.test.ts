// The bearer keys never leave the credential: not in node output, error messages or
// descriptions, error items, the node's description, or anything the harness returns from a
// run (the execution data n8n saves), whether the key is right or wrong and whatever fails:
// a 5xx, a 401, a timeout, a dropped connection, a service that echoes the key back.
import { inspect } from 'node:util';
import { NodeHelpers } from 'n8n-workflow';
import { getPackage, testCredential } from '../../../support/harness';
import { runListSearch } from '../../../support/harness/listSearch';
import { CUSTOMER, NODE_TYPE, credentialsFor, useSandbox } from '../../../support/node-support';
import { OPERATION_CASES, operationCase } from '../../../support/operation-cases';
import { escapeRegExp } from '../../../support/regexp';
import { startSandbox } from '../../../../tools/sandbox/server';

const ctx = useSandbox();
let searches = 0;

/** Everything reachable from a value, errors' hidden properties (message, stack, cause) included. */
function everything(value: unknown): string {
	return `${JSON.stringify(value, (_key, inner: unknown) =>
		inner instanceof Error ? { ...inner, message: inner.message, stack: inner.stack, cause: inner.cause } : inner,
	)}\n${inspect(value, { depth: Infinity, showHidden: true, maxArrayLength: Infinity, maxStringLength: Infinity })}`;
}

let found = 0;

function expectNoSecret(value: unknown, ...keys: string[]) {
	const text = everything(value);
	for (const key of keys) {
		searches++;
		if (text.includes(key)) found++;
		expect(text.includes(key)).toBe(false);
	}
}

afterAll(() => {
	console.log(`security-secrets: ${searches} searches for a key, ${found} found`);
});

const WRONG_TIMELINE_KEY = 'tl_wrong_9f8e7d6c5b4a39281706';
const WRONG_MESSAGING_KEY = 'msg_wrong_0a1b2c3d4e5f60718293';

describe('good keys', () => {
	it.each(OPERATION_CASES.map((op) => [op.label, op] as const))('%s: a successful run shows neither key', async (_label, op) => {
		await ctx.sandbox.client.inbound(CUSTOMER, 'hi');
		const result = await ctx.runCase(op, {}, [{}], { continueOnFail: true });
		expect(result.error).toBeUndefined();
		expectNoSecret(result, ctx.sandbox.timelineKey, ctx.sandbox.messagingKey);
	});

	it.each([
		['HTTP 500', { kind: 'status', status: 500 }],
		['HTTP 429 past the retries', { kind: 'status', status: 429, retryAfter: 0, count: 5 }],
		['a timeout', { kind: 'delay', delayMs: 400 }],
		['a dropped connection', { kind: 'drop' }],
		['a malformed answer', { kind: 'malformed' }],
	] as const)('%s: the error, with and without Continue On Fail, shows neither key', async (_name, fault) => {
		for (const label of ['Time → Travel', 'Message → Send Text']) {
			const op = operationCase(label);
			for (const continueOnFail of [false, true]) {
				await ctx.sandbox.client.injectFault({ ...fault, method: op.method, path: op.path });
				const result = await ctx.runCase(op, { requestOptions: { timeout: 150, maxRetries: 1 } }, [{}], { continueOnFail });
				expect(continueOnFail ? result.output[0].error : result.error?.message).toMatch(/failed/);
				expectNoSecret(result, ctx.sandbox.timelineKey, ctx.sandbox.messagingKey);
				await ctx.sandbox.client.clearFaults();
			}
		}
	});

	it('a service that echoes the key back in its error does not get it into the error', async () => {
		for (const [label, key] of [
			['Time → Travel', ctx.sandbox.timelineKey],
			['Message → Send Text', ctx.sandbox.messagingKey],
		] as const) {
			const op = operationCase(label);
			for (const said of [`Header was: Authorization: Bearer ${key}`, `Key ${key} is suspended`]) {
				await ctx.sandbox.client.injectFault({ kind: 'status', status: 403, path: op.path, body: { error: { code: 'forbidden', message: said } } });
				const result = await ctx.runCase(op);
				expect(result.error?.message).toMatch(/HTTP 403: .*\*\*\*\*/);
				expectNoSecret(result, key);
			}
		}
	});
});

describe('wrong keys', () => {
	const wrong = () => credentialsFor(ctx.sandbox, { timeline: WRONG_TIMELINE_KEY, messaging: WRONG_MESSAGING_KEY });

	it.each(OPERATION_CASES.map((op) => [op.label, op] as const))('%s: a 401 names the status and shows no key', async (_label, op) => {
		const result = await ctx.runCase(op, {}, [{}], { credentials: wrong() });
		expect(result.error?.message).toMatch(new RegExp(`^${escapeRegExp(op.label)} failed: the service answered HTTP 401`));
		// The hint names the credential's own field: "Access Token" (timeline) or "API Key" (messaging).
		expect(result.error?.description).toBe(
			`The service refused the key: open the credential and enter its ${op.service === 'timeline' ? 'Access Token' : 'API Key'} again.`,
		);
		expectNoSecret(result, WRONG_TIMELINE_KEY, WRONG_MESSAGING_KEY, ctx.sandbox.timelineKey, ctx.sandbox.messagingKey);
	});

	it('a dropped connection with a wrong key shows no key', async () => {
		for (const label of ['Timeline → Create', 'Message → Send Template']) {
			const op = operationCase(label);
			await ctx.sandbox.client.injectFault({ kind: 'drop', path: op.path });
			const result = await ctx.runCase(op, {}, [{}], { credentials: wrong(), continueOnFail: true });
			expect(result.output[0].error).toMatch(/connection was closed/);
			expectNoSecret(result, WRONG_TIMELINE_KEY, WRONG_MESSAGING_KEY);
		}
	});

	it('a service that cannot be reached shows no key', async () => {
		const closed = await startSandbox();
		const url = closed.url;
		await closed.close();
		const credentials = credentialsFor(ctx.sandbox, { timeline: WRONG_TIMELINE_KEY, messaging: WRONG_MESSAGING_KEY }).map((credential) => ({
			...credential,
			data: { ...credential.data, baseUrl: url },
		}));
		const result = await ctx.runCase(operationCase('Time → Pause'), {}, [{}], { credentials });
		expect(result.error?.message).toMatch(/^Time → Pause failed: the service could not be reached \(the connection was refused\): check the Base URL/);
		expectNoSecret(result, WRONG_TIMELINE_KEY);
	});

	it('the credential tests and the timeline list search show no key', async () => {
		const timeline = await testCredential('timelineNavigationApi', { baseUrl: ctx.sandbox.url, accessToken: WRONG_TIMELINE_KEY });
		const messaging = await testCredential('chatAppMessagingApi', { baseUrl: ctx.sandbox.url, apiKey: WRONG_MESSAGING_KEY });
		expect(timeline.status).toBe('Error');
		expect(messaging.status).toBe('Error');
		expectNoSecret([timeline, messaging], WRONG_TIMELINE_KEY, WRONG_MESSAGING_KEY);

		const search = runListSearch({
			nodeType: NODE_TYPE,
			method: 'searchTimelines',
			nodeCredentials: { timelineNavigationApi: { id: 'tl', name: 'Timeline' } },
			credentials: wrong(),
			parameters: { resource: 'timeline', operation: 'delete' },
		});
		const failure = await search.then(
			() => undefined,
			(error: unknown) => error,
		);
		expect(failure).toBeDefined();
		expect(String((failure as Error).message)).toMatch(/401/);
		expectNoSecret(failure, WRONG_TIMELINE_KEY);
	});
});

describe('the package itself', () => {
	it('the node descriptions and the requests the sandbox logged hold no key', async () => {
		const pkg = await getPackage();
		for (const type of [NODE_TYPE, 'n8n-nodes-timeline-navigation.chatAppMessagingTrigger']) {
			const description = NodeHelpers.getVersionedNodeType(pkg.nodeTypes.getByName(type)).description;
			expectNoSecret(description, ctx.sandbox.timelineKey, ctx.sandbox.messagingKey);
		}
		await ctx.sandbox.client.inbound(CUSTOMER, 'hi');
		await ctx.runCase(operationCase('Message → Send Text'));
		await ctx.runCase(operationCase('Time → Travel'));
		const requests = await ctx.requests();
		expect(requests.map((request) => request.headers.authorization)).toEqual(['Bearer ****', 'Bearer ****']);
	});
});
