// Faults on purpose, on every operation: the sandbox answers 5xx, stalls past the timeout,
// drops the connection or sends broken JSON. Each time the node fails with an error naming
// the operation and the status (or the network reason), never crashes or hangs, and sends
// the request exactly once: only a 429 (the service did nothing) is retried, bounded by
// "Max Retries on Rate Limit" and "Max Retry Wait".
import type { FaultSpec } from '../../../../tools/sandbox/server';
import { CUSTOMER, timed, useSandbox } from '../../../support/node-support';
import { OPERATION_CASES, operationCase, type OperationCase } from '../../../support/operation-cases';
import { escapeRegExp } from '../../../support/regexp';

const ctx = useSandbox();
let faultsFired = 0;

afterEach(async () => {
	faultsFired += (await ctx.requests()).filter((request) => request.fault !== undefined).length;
});
afterAll(() => {
	console.log(`reliability-faults: ${faultsFired} faults injected`);
});

/**
 * Milliseconds between consecutive requests as the sandbox received them: how long the node
 * waited before retrying, without n8n's own start-up in the measure.
 */
function gapsMs(requests: Array<{ time: string }>): number[] {
	return requests.slice(1).map((request, index) => Date.parse(request.time) - Date.parse(requests[index].time));
}

/** The operation's requests (Get Status and Delete carry an ID after the prefix). */
async function requestsOf(op: OperationCase) {
	return (await ctx.requests()).filter((request) => request.method === op.method && request.path.startsWith(op.path));
}

/**
 * The timeout set for the delay fault. Other faults keep the default (30 s): a timeout as short
 * as this one could run out on a loaded machine before the fault arrives, and the test would then
 * see a timeout instead of the fault it injected.
 */
const TIMEOUT_MS = 400;

interface FaultCase {
	name: string;
	fault: Omit<FaultSpec, 'method' | 'path' | 'pathPrefix'>;
	/** What the message must say after "<operation> failed: ". */
	says: RegExp;
}

const FAULTS: FaultCase[] = [
	{ name: 'HTTP 500', fault: { kind: 'status', status: 500 }, says: /the service answered HTTP 500: Injected fault/ },
	{ name: 'HTTP 502', fault: { kind: 'status', status: 502 }, says: /the service answered HTTP 502: Injected fault/ },
	{ name: 'HTTP 503 (even with Retry-After)', fault: { kind: 'status', status: 503, retryAfter: 0 }, says: /the service answered HTTP 503: Injected fault/ },
	{ name: 'a delay past the timeout', fault: { kind: 'delay', delayMs: TIMEOUT_MS + 600 }, says: /no answer within the timeout/ },
	{ name: 'a dropped connection', fault: { kind: 'drop' }, says: /the connection was closed before an answer arrived/ },
	{ name: 'a malformed JSON answer', fault: { kind: 'malformed' }, says: /the service answered with a body that is not valid JSON/ },
];


describe.each(FAULTS)('$name', ({ fault, says }) => {
	it.each(OPERATION_CASES.map((op) => [op.label, op] as const))(
		'%s fails once, clearly, without a retry',
		async (_label, op) => {
			await ctx.sandbox.client.injectFault({ ...fault, method: op.method, pathPrefix: op.path });
			const requestOptions = fault.kind === 'delay' ? { timeout: TIMEOUT_MS } : {};
			const { ms, result } = await timed(() => ctx.runCase(op, { requestOptions }));

			expect(result.output).toEqual([]);
			const message = result.error?.message ?? '';
			expect(message).toMatch(new RegExp(`^${escapeRegExp(op.label)} failed: ${says.source}`));
			// Error descriptions must never be a stack trace or an object dump.
			expect(String(result.error?.description ?? '')).not.toMatch(/\bat \w+ \(|\[object Object\]/);
			// Exactly one request reached the service: 5xx, timeouts, drops and broken answers are not repeated.
			const requests = await requestsOf(op);
			expect(requests).toHaveLength(1);
			expect(requests[0].fault).toBe(fault.kind);
			// Never a hang: the item ends soon after the timeout or the fault (slack for a loaded machine).
			expect(ms).toBeLessThan(TIMEOUT_MS + 10_000);
		},
	);
});

describe('Continue On Fail under faults', () => {
	it('turns the faulty item into an error item and keeps the others, each sent once', async () => {
		const op = operationCase('Time → Travel');
		// The 2nd request answers 502.
		await ctx.sandbox.client.injectFault({ kind: 'status', status: 502, path: op.path, everyNth: 2, count: 1 });
		const items = ['Rome', 'Paris', 'Oslo'].map((location) => ({ location }));
		const result = await ctx.runCase(
			op,
			{ location: '={{ $json.location }}', requestOptions: { concurrency: 1 } },
			items,
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(result.output).toHaveLength(3);
		expect(result.output[1]).toEqual({
			error: expect.stringMatching(/^Time → Travel failed: the service answered HTTP 502/),
			description: expect.stringMatching(/not repeated automatically/),
		});
		expect(result.output[0].error).toBeUndefined();
		expect(result.output[2].error).toBeUndefined();
		expect(result.node.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		const bodies = (await requestsOf(op)).map((request) => (request.body as { location: string }).location);
		expect(bodies).toEqual(['Rome', 'Paris', 'Oslo']);
	});

	it('names the failing item when the node stops', async () => {
		const op = operationCase('Time → Travel');
		await ctx.sandbox.client.injectFault({ kind: 'status', status: 500, path: op.path, everyNth: 2, count: 1 });
		const result = await ctx.runCase(op, { requestOptions: { concurrency: 1 } }, [{}, {}, {}]);
		expect(result.error?.message).toMatch(/^Time → Travel failed: the service answered HTTP 500/);
		expect((result.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(1);
		// No new item starts after the failure.
		expect(await requestsOf(op)).toHaveLength(2);
	});
});

describe('429: retried after Retry-After, bounded by Request Options', () => {
	it('waits the Retry-After of 1 s, then succeeds with one retry', async () => {
		const op = operationCase('Time → Travel');
		await ctx.sandbox.client.injectFault({ kind: 'status', status: 429, retryAfter: 1, path: op.path });
		const result = await ctx.runCase(op);
		expect(result.error).toBeUndefined();
		expect(result.output).toHaveLength(1);
		expect(result.output[0].error).toBeUndefined();
		const requests = await requestsOf(op);
		expect(requests.map((request) => request.responseStatus)).toEqual([429, 200]);
		expect(gapsMs(requests)[0]).toBeGreaterThanOrEqual(950);
	});

	it('waits until a Retry-After HTTP date', async () => {
		const op = operationCase('Time → Pause');
		const inAboutOneSecond = new Date(Math.ceil(Date.now() / 1000) * 1000 + 1000).toUTCString();
		await ctx.sandbox.client.injectFault({ kind: 'status', status: 429, retryAfter: inAboutOneSecond, path: op.path });
		const result = await ctx.runCase(op);
		expect(result.error).toBeUndefined();
		const requests = await requestsOf(op);
		expect(requests.map((request) => request.responseStatus)).toEqual([429, 200]);
		// the retry did not arrive before the date
		expect(Date.parse(requests[1].time)).toBeGreaterThanOrEqual(Date.parse(inAboutOneSecond));
	});

	it('retries at once when Retry-After is 0 or a date in the past', async () => {
		const op = operationCase('Time → Resume');
		await ctx.sandbox.client.injectFault({ kind: 'status', status: 429, retryAfter: 0, path: op.path });
		await ctx.sandbox.client.injectFault({ kind: 'status', status: 429, retryAfter: 'Wed, 21 Oct 2015 07:28:00 GMT', path: op.path });
		const result = await ctx.runCase(op);
		expect(result.error).toBeUndefined();
		const requests = await requestsOf(op);
		expect(requests.map((request) => request.responseStatus)).toEqual([429, 429, 200]);
		// well under the 1 s the node waits when no Retry-After is given
		for (const gap of gapsMs(requests)) expect(gap).toBeLessThan(900);
	});

	it('without Retry-After, waits 1 s before the first retry', async () => {
		const op = operationCase('Time → Travel');
		await ctx.sandbox.client.injectFault({ kind: 'status', status: 429, path: op.path });
		const result = await ctx.runCase(op);
		expect(result.error).toBeUndefined();
		const requests = await requestsOf(op);
		expect(requests.map((request) => request.responseStatus)).toEqual([429, 200]);
		expect(gapsMs(requests)[0]).toBeGreaterThanOrEqual(950);
	});

	it('gives up after "Max Retries on Rate Limit" retries, with a message that says so', async () => {
		const op = operationCase('Time → Travel');
		await ctx.sandbox.client.injectFault({ kind: 'status', status: 429, retryAfter: 0, path: op.path, count: 10 });
		const result = await ctx.runCase(op, { requestOptions: { maxRetries: 2 } });
		expect(result.error?.message).toBe(
			'Time → Travel failed: the service answered HTTP 429: Injected fault: the sandbox answered HTTP 429 on purpose. (gave up after 2 retries ("Max Retries on Rate Limit" is 2))',
		);
		expect(result.error?.description).toMatch(/rate limiting/);
		expect(await requestsOf(op)).toHaveLength(3);
	});

	it('does not retry at all with "Max Retries on Rate Limit" 0', async () => {
		const op = operationCase('Time → Travel');
		await ctx.sandbox.client.injectFault({ kind: 'status', status: 429, retryAfter: 0, path: op.path });
		const result = await ctx.runCase(op, { requestOptions: { maxRetries: 0 } });
		expect(result.error?.message).toMatch(/^Time → Travel failed: the service answered HTTP 429.*gave up after 0 retries/);
		expect(await requestsOf(op)).toHaveLength(1);
	});

	it('fails at once when Retry-After is longer than "Max Retry Wait", saying so', async () => {
		const op = operationCase('Time → Travel');
		await ctx.sandbox.client.injectFault({ kind: 'status', status: 429, retryAfter: 30, path: op.path });
		const result = await ctx.runCase(op, { requestOptions: { maxRetryWait: 2 } });
		expect(result.error?.message).toMatch(
			/^Time → Travel failed: the service answered HTTP 429.*not retried: the service asked to wait 30 s, longer than "Max Retry Wait" \(2 s\)/,
		);
		expect(result.error?.description).toMatch(/Raise "Max Retry Wait"/);
		expect(await requestsOf(op)).toHaveLength(1);
	});

	it('retries a send after 429 and stores the message exactly once', async () => {
		const op = operationCase('Message → Send Text');
		await ctx.sandbox.client.inbound(CUSTOMER, 'hi');
		await ctx.sandbox.client.injectFault({ kind: 'status', status: 429, retryAfter: 1, method: 'POST', path: op.path });
		const result = await ctx.runCase(op, { text: 'Your order shipped' });
		expect(result.error).toBeUndefined();
		const requests = await requestsOf(op);
		expect(requests.map((request) => request.responseStatus)).toEqual([429, 200]);
		expect(gapsMs(requests)[0]).toBeGreaterThanOrEqual(950);
		const stored = await ctx.sandbox.client.message(String(result.output[0].message_id));
		expect(stored.text).toBe('Your order shipped');
	});

	it('never retries a send that answered 5xx: one request, no duplicate', async () => {
		const op = operationCase('Message → Send Text');
		await ctx.sandbox.client.inbound(CUSTOMER, 'hi');
		await ctx.sandbox.client.injectFault({ kind: 'status', status: 503, retryAfter: 0, method: 'POST', path: op.path });
		const result = await ctx.runCase(op);
		expect(result.error?.message).toMatch(/^Message → Send Text failed: the service answered HTTP 503/);
		expect(result.error?.description).toMatch(/not repeated automatically because it may have been acted on/);
		expect(await requestsOf(op)).toHaveLength(1);
	});
});

describe('a service that cannot be reached', () => {
	it('names the operation and the reason in words (n8n would otherwise replace a message naming ECONNREFUSED)', async () => {
		const credentials = ctx.credentials.map((credential) => ({
			...credential,
			data: { ...credential.data, baseUrl: 'http://127.0.0.1:9' },
		}));
		const result = await ctx.runCase(operationCase('Timeline → Get Many'), {}, [{}], { credentials });
		expect(result.error?.message).toBe(
			'Timeline → Get Many failed: the service could not be reached (the connection was refused): check the Base URL of the credential',
		);
	});
});
