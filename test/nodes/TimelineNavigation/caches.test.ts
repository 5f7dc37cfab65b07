// The action node keeps two caches for one run of a node, both keyed on the context object
// n8n-core hands to `execute()`:
// - parameters (helpers/parameters.ts): a value that holds no expression is resolved once per
//   run and reused for every item; it relies on n8n evaluating only strings that start with "="
//   and on a fresh context for every run of a node;
// - the credential (transport/request.ts): read and decrypted once per run and service; it relies
//   on the same fresh context per run.
// These tests fail if n8n-core changes either: the cached reads must equal n8n's own for every
// kind of parameter and item, and nothing may carry over from one run or node to another.
import { PARAMETER_PROBE_NODE_TYPE, runNode, runWorkflow } from '../../support/harness';
import { PROBED_PARAMETERS } from '../../support/harness/ParameterProbe.node';
import { credentialsFor, NODE_TYPE, nodeCredentialsFor, useSandbox } from '../../support/node-support';

const ctx = useSandbox({ resource: 'time', operation: 'travel', destinationTime: '2030-01-01T00:00:00Z' });

describe('the parameter cache', () => {
	it('reads every kind of parameter, for every item, exactly as n8n does', async () => {
		const items = [{ n: 1 }, { n: 2 }, { n: 3 }];
		const result = await runNode(
			{
				type: PARAMETER_PROBE_NODE_TYPE,
				parameters: {
					fixed: 'the same for all',
					expression: '={{ "item " + $json.n }}',
					// Not an expression for n8n today (no "="): should n8n start evaluating such text,
					// the cache would keep the first item's value and this test would fail.
					templateLike: '{{ $json.n }}',
					count: 5,
					flag: true,
					payload: '={{ JSON.stringify({ n: $json.n }) }}',
					options: { label: 'fixed label', deep: '={{ $json.n * 2 }}' },
					pairs: { pair: [{ name: 'a', value: '={{ $json.n }}' }, { name: 'b', value: 'static' }] },
					locator: { __rl: true, mode: 'id', value: '={{ "tl_" + $json.n }}' },
				},
			},
			items,
		);

		expect(result.error).toBeUndefined();
		expect(result.output).toHaveLength(items.length * PROBED_PARAMETERS.length);
		for (const read of result.output) {
			expect({ name: read.name, item: read.itemIndex, value: read.cached }).toEqual({ name: read.name, item: read.itemIndex, value: read.direct });
			expect({ name: read.name, item: read.itemIndex, value: read.cachedValueOnly }).toEqual({
				name: read.name,
				item: read.itemIndex,
				value: read.directValueOnly,
			});
		}
		// The expressions did give each item its own value: the comparison above covered both paths.
		const expressionValues = result.output.filter((read) => read.name === 'expression').map((read) => read.direct);
		expect(expressionValues).toEqual(['item 1', 'item 2', 'item 3']);
	});

	it('reads a parameter changed between two executions anew', async () => {
		await ctx.run({ location: 'Rome' });
		await ctx.run({ location: 'Paris' });

		expect((await ctx.requests()).map((request) => (request.body as { location: string }).location)).toEqual(['Rome', 'Paris']);
	});

	it('keeps two nodes of one execution apart', async () => {
		const node = (name: string, location: string, x: number) => ({
			id: name,
			name,
			type: NODE_TYPE,
			typeVersion: 1,
			position: [x, 0] as [number, number],
			parameters: { resource: 'time', operation: 'travel', destinationTime: '2030-01-01T00:00:00Z', location },
			credentials: nodeCredentialsFor('time'),
		});
		const result = await runWorkflow(
			{
				nodes: [node('First', 'Rome', 0), node('Second', 'Oslo', 200)],
				connections: { First: { main: [[{ node: 'Second', type: 'main', index: 0 }]] } },
			},
			{ credentials: ctx.credentials },
		);

		expect(result.error).toBeUndefined();
		expect((await ctx.requests()).map((request) => (request.body as { location: string }).location)).toEqual(['Rome', 'Oslo']);
	});
});

describe('the credential cache', () => {
	it('reads the credential anew for each execution: a key changed between runs is used at once', async () => {
		const right = ctx.credentials;
		const wrong = credentialsFor(ctx.sandbox, { timeline: 'not-the-key' });

		const first = await ctx.run({ location: 'Rome' }, [{}], { credentials: right });
		const second = await ctx.run({ location: 'Rome' }, [{}], { credentials: wrong });
		const third = await ctx.run({ location: 'Rome' }, [{}], { credentials: right });

		expect([first.error, second.error?.message, third.error]).toEqual([
			undefined,
			expect.stringMatching(/^Time → Travel failed: the service answered HTTP 401/),
			undefined,
		]);
		// The sandbox's log blanks keys; its answers (accepted, refused, accepted) show which key each run sent.
		expect(await ctx.requests()).toHaveLength(3);
	});
});
