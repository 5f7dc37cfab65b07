// Soak: many sends through faults. Rate limits (429) are retried and lose or double nothing;
// 5xx and dropped connections are not retried, so with Continue On Fail every item is either
// sent once or reported as an error item: successes + errors = inputs, nothing twice.
import type { IDataObject } from 'n8n-workflow';
import { CUSTOMER, timed, useSandbox } from '../../../support/node-support';
import { operationCase } from '../../../support/operation-cases';

const ctx = useSandbox();
const sendText = operationCase('Message → Send Text');

/** The texts the sandbox stored (one per successful POST /v1/messages) and the faults it applied. */
async function sandboxTally() {
	const posts = await ctx.sandbox.client.requests({ method: 'POST', path: '/v1/messages' });
	return {
		posts: posts.length,
		stored: posts.filter((request) => request.responseStatus === 200).map((request) => String((request.body as IDataObject).text)),
		faults: posts.filter((request) => request.fault !== undefined).length,
	};
}

/**
 * Counted, not assumed: inputs whose message was neither stored nor reported as an error item
 * (lost), and messages stored more than once (twice).
 */
function lostAndTwice(input: IDataObject[], stored: string[], reported: IDataObject[] = []) {
	const storedSet = new Set(stored);
	const reportedTexts = new Set(reported.map((json) => String(json.text)));
	return {
		lost: input.filter((item) => !storedSet.has(String(item.text)) && !reportedTexts.has(String(item.text))).length,
		twice: stored.length - storedSet.size,
	};
}

function items(count: number, prefix: string): IDataObject[] {
	return Array.from({ length: count }, (_, index) => ({ text: `${prefix} #${index}` }));
}

beforeEach(async () => {
	await ctx.sandbox.client.inbound(CUSTOMER, 'hello');
});

it('1,000 sends with every 10th request rate limited (Retry-After 1 s): exactly 1,000 messages, none twice', async () => {
	await ctx.sandbox.client.injectFault({ kind: 'status', status: 429, retryAfter: 1, method: 'POST', path: '/v1/messages', everyNth: 10 });
	const input = items(1000, 'Soak 429');
	const { ms, result } = await timed(() =>
		// Up to 10 retries: with every 10th request refused, one item's retries can meet the refusal several times in a row.
		ctx.runCase(sendText, { text: '={{ $json.text }}', requestOptions: { concurrency: 25, maxRetries: 10 } }, input),
	);

	expect(result.error).toBeUndefined();
	expect(result.output).toHaveLength(1000);
	expect(result.output.filter((json) => json.error !== undefined)).toEqual([]);
	// In input order, one output per item, each with its own message.
	expect(result.output.map((json) => json.text)).toEqual(input.map((item) => item.text));
	expect(new Set(result.output.map((json) => json.message_id)).size).toBe(1000);

	const tally = await sandboxTally();
	expect(tally.faults).toBeGreaterThanOrEqual(100);
	expect(tally.posts).toBe(1000 + tally.faults);
	expect(tally.stored).toHaveLength(1000);
	expect(new Set(tally.stored)).toEqual(new Set(input.map((item) => item.text)));
	// Each message the node reports is stored with its own text.
	const sample = [0, 9, 10, 499, 999].map((index) => result.output[index]);
	for (const json of sample) {
		expect((await ctx.sandbox.client.message(String(json.message_id))).text).toBe(json.text);
	}
	const { lost, twice } = lostAndTwice(input, tally.stored);
	expect({ lost, twice }).toEqual({ lost: 0, twice: 0 });
	console.log(`soak 429: 1000 items, ${tally.faults} injected 429s, ${tally.stored.length} stored, ${lost} lost, ${twice} twice, ${Math.round(ms)} ms`);
}, 60_000);

it('1,000 sends with injected 5xx and dropped connections under Continue On Fail: every item sent once or reported, none lost', async () => {
	await ctx.sandbox.client.injectFault({ kind: 'status', status: 503, method: 'POST', path: '/v1/messages', everyNth: 7 });
	await ctx.sandbox.client.injectFault({ kind: 'status', status: 500, method: 'POST', path: '/v1/messages', everyNth: 11 });
	await ctx.sandbox.client.injectFault({ kind: 'drop', method: 'POST', path: '/v1/messages', everyNth: 13 });
	await ctx.sandbox.client.injectFault({ kind: 'status', status: 429, retryAfter: 0, method: 'POST', path: '/v1/messages', everyNth: 17 });
	const input = items(1000, 'Soak 5xx');
	const result = await ctx.runCase(
		sendText,
		{ text: '={{ $json.text }}', requestOptions: { concurrency: 10 } },
		input,
		{ continueOnFail: true },
	);

	expect(result.error).toBeUndefined();
	expect(result.output).toHaveLength(1000);
	expect(result.node.items.map((item) => item.pairedItem)).toEqual(input.map((_, index) => ({ item: index })));
	const sent = result.output.filter((json) => json.error === undefined);
	const failed = result.output.filter((json) => json.error !== undefined);
	const tally = await sandboxTally();

	expect(sent.length + failed.length).toBe(1000);
	expect(sent.length).toBe(tally.stored.length);
	expect(new Set(tally.stored).size).toBe(tally.stored.length);
	expect(new Set(sent.map((json) => json.text))).toEqual(new Set(tally.stored));
	// Each failure says what happened; none was retried (only the 429s were).
	for (const json of failed) {
		expect(json.error).toMatch(/^Message → Send Text failed: (the service answered HTTP 50[03]|the connection was closed before an answer arrived)/);
	}
	const retried429 = (await ctx.sandbox.client.requests({ method: 'POST', path: '/v1/messages' })).filter((request) => request.responseStatus === 429).length;
	expect(tally.posts).toBe(1000 + retried429);
	expect(failed.length).toBe(tally.faults - retried429);
	expect(failed.length).toBeGreaterThan(100);
	// An error item carries no text: match it back to its input through pairedItem.
	const failedInputs = result.node.items.filter((item) => item.json.error !== undefined).map((item) => input[(item.pairedItem as { item: number }).item]);
	const { lost, twice } = lostAndTwice(input, tally.stored, failedInputs);
	expect({ lost, twice }).toEqual({ lost: 0, twice: 0 });
	console.log(`soak 5xx: 1000 items, ${tally.faults} injected faults, ${sent.length} sent once, ${failed.length} error items, ${lost} lost, ${twice} twice`);
}, 60_000);
