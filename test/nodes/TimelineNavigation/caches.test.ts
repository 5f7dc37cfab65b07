// What a run of the action node reads once, and what it must not carry over. The credential is
// read and decrypted once per run and service (nodes/shared/execution.ts), which relies on n8n
// handing every run of a node a context of its own; parameters are read from n8n for each item,
// without n8n's check of the value (which no field of the node asks for). These tests fail if
// anything read for one run (a parameter, a key) reaches another run or another node of the same
// execution, or if a field starts asking n8n to check its value.
import { TimelineNavigation } from '../../../nodes/TimelineNavigation/TimelineNavigation.node';
import { runWorkflow } from '../../support/harness';
import { credentialsFor, NODE_TYPE, nodeCredentialsFor, useSandbox } from '../../support/node-support';

const ctx = useSandbox({ resource: 'time', operation: 'travel', destinationTime: '2030-01-01T00:00:00Z' });

describe('what one run reads', () => {
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

	it("loses nothing by skipping n8n's own check of a value: no field declares the validateType it checks", () => {
		const declaring = (value: unknown): string[] => {
			if (Array.isArray(value)) return value.flatMap(declaring);
			if (value === null || typeof value !== 'object') return [];
			const field = value as { name?: string; validateType?: unknown };
			return [...(field.validateType === undefined ? [] : [String(field.name)]), ...Object.values(value).flatMap(declaring)];
		};
		const properties = new TimelineNavigation().description.properties;

		expect(properties.length).toBeGreaterThan(50);
		expect(declaring(properties)).toEqual([]);
	});
});

describe('the credential, read once per run', () => {
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
