// Anchor resource: Set (Group A), Create and Return To (Group B).
import { sent, useSandbox } from '../../support/node-support';

const t = useSandbox();

describe('Anchor → Set (POST /set-anchor)', () => {
	it('sends the timestamp as ISO 8601 UTC and the description, and outputs the new anchor', async () => {
		const result = await t.run({
			resource: 'anchor',
			operation: 'set',
			timestamp: '2030-06-01T12:00:00-04:00',
			description: 'Before the detour',
		});
		expect(result.node.error).toBeUndefined();
		expect(result.output).toEqual([
			{
				anchor_id: expect.stringMatching(/^anc_/),
				status: 'Anchor set at 2030-06-01T16:00:00.000Z.',
				timestamp: '2030-06-01T16:00:00.000Z',
				description: 'Before the detour',
			},
		]);
		expect((await t.requests()).map(sent)).toEqual([
			{
				method: 'POST',
				path: '/v1/set-anchor',
				query: {},
				body: { timestamp: '2030-06-01T16:00:00.000Z', description: 'Before the detour' },
			},
		]);
	});

	it('anchors the moment the node runs when Timestamp is empty, and sends an empty description', async () => {
		const before = Date.now();
		const result = await t.run({ resource: 'anchor', operation: 'set' });
		const after = Date.now();
		expect(result.node.error).toBeUndefined();
		const [request] = await t.requests();
		const body = request.body as { timestamp: string; description: string };
		expect(Object.keys(body).sort()).toEqual(['description', 'timestamp']);
		expect(body.description).toBe('');
		expect(body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
		expect(Date.parse(body.timestamp)).toBeGreaterThanOrEqual(before);
		expect(Date.parse(body.timestamp)).toBeLessThanOrEqual(after);
		expect(result.output[0].timestamp).toBe(body.timestamp);
	});

	it('refuses a timestamp that is not a date-time, naming the item', async () => {
		const result = await t.run(
			{ resource: 'anchor', operation: 'set', timestamp: '={{ $json.when }}' },
			[{ when: '2030-01-01T00:00:00Z' }, { when: 'yesterday' }],
		);
		expect(result.node.error?.message).toBe(
			'Invalid Timestamp in item 1: got "yesterday", expected an ISO 8601 date-time such as 2026-05-01T09:30:00Z',
		);
	});
});

describe('Anchor → Create (POST /anchors)', () => {
	it('sends timestamp, description and the additional fields, and outputs the anchor', async () => {
		const timelineId = await t.createTimeline('Prime');
		const result = await t.run({
			resource: 'anchor',
			operation: 'create',
			timestamp: '2031-01-01T00:00:00Z',
			description: 'New year',
			additionalFields: { timeline_id: timelineId, extraBody: '{"tag":"trip-1"}' },
		});
		expect(result.node.error).toBeUndefined();
		expect(result.output).toEqual([
			{
				anchor_id: expect.stringMatching(/^anc_/),
				timestamp: '2031-01-01T00:00:00.000Z',
				description: 'New year',
				timeline_id: timelineId,
				created_at: expect.any(String),
				status: 'Anchor set at 2031-01-01T00:00:00.000Z.',
			},
		]);
		expect((await t.requests()).map(sent)).toEqual([
			{
				method: 'POST',
				path: '/v1/anchors',
				query: {},
				body: { timestamp: '2031-01-01T00:00:00.000Z', description: 'New year', timeline_id: timelineId, tag: 'trip-1' },
			},
		]);
	});

	it('leaves out an empty description and defaults the timestamp to now', async () => {
		const before = Date.now();
		const result = await t.run({ resource: 'anchor', operation: 'create' });
		expect(result.node.error).toBeUndefined();
		const [request] = await t.requests();
		expect(Object.keys(request.body as object)).toEqual(['timestamp']);
		expect(Date.parse((request.body as { timestamp: string }).timestamp)).toBeGreaterThanOrEqual(before);
	});

	it('refuses Extra Body Fields that are not a JSON object, before any request', async () => {
		const result = await t.run({
			resource: 'anchor',
			operation: 'create',
			additionalFields: { extraBody: '{"tag": ' },
		});
		expect(result.node.error?.message).toBe(
			'Invalid Extra Body Fields (JSON) in item 0: got "{"tag": ", expected a JSON object, but it is not valid JSON (Unexpected end of JSON input)',
		);
		expect(await t.requests()).toEqual([]);
	});
});

describe('Anchor → Return To (POST /travels with anchor_id)', () => {
	it('sends the anchor ID and returns to the anchored moment', async () => {
		const anchor = await t.api<{ anchor_id: string }>('POST', '/set-anchor', {
			timestamp: '2030-03-03T03:03:03Z',
			description: 'home',
		});
		await t.sandbox.client.clearRequests();
		const result = await t.run({ resource: 'anchor', operation: 'returnTo', anchorId: anchor.anchor_id });
		expect(result.node.error).toBeUndefined();
		expect(result.output).toEqual([
			{
				travel_id: expect.stringMatching(/^trv_/),
				status: `Returned to anchor ${anchor.anchor_id}.`,
				timeline_id: null,
				anchor_id: anchor.anchor_id,
				current_time: expect.stringMatching(/^2030-03-03T03:03:03/),
				location: 'origin',
			},
		]);
		expect((await t.requests()).map(sent)).toEqual([
			{ method: 'POST', path: '/v1/travels', query: {}, body: { anchor_id: anchor.anchor_id } },
		]);
	});

	it('sends an optional destination time', async () => {
		const anchor = await t.api<{ anchor_id: string }>('POST', '/anchors', { timestamp: '2030-03-03T00:00:00Z' });
		await t.sandbox.client.clearRequests();
		const result = await t.run({
			resource: 'anchor',
			operation: 'returnTo',
			anchorId: anchor.anchor_id,
			destinationTime: '2030-03-04T00:00:00Z',
		});
		expect(result.node.error).toBeUndefined();
		expect(result.output[0].current_time).toMatch(/^2030-03-04T00:00:0/);
		expect((await t.requests()).map((request) => request.body)).toEqual([
			{ anchor_id: anchor.anchor_id, destination_time: '2030-03-04T00:00:00.000Z' },
		]);
	});

	it('surfaces the service error for an unknown anchor: status, operation and message', async () => {
		const result = await t.run({ resource: 'anchor', operation: 'returnTo', anchorId: 'anc_missing' });
		expect(result.node.error?.name).toBe('NodeApiError');
		expect(result.node.error?.message).toBe(
			"Anchor → Return To failed: the service answered HTTP 404: No anchor with anchor_id 'anc_missing' exists.",
		);
		expect((result.node.error as { httpCode?: string }).httpCode).toBe('404');
		expect(await t.requests()).toHaveLength(1);
	});

	it.each([
		['an expression resolving to null', '={{ null }}', 'got null'],
		['an expression resolving to blanks', '={{ "   " }}', 'got "   "'],
	])('refuses an Anchor ID from %s before any request', async (_case, anchorId, got) => {
		const result = await t.run({ resource: 'anchor', operation: 'returnTo', anchorId });
		expect(result.node.error?.message).toBe(`Invalid Anchor ID in item 0: ${got}, expected a value: this field is required`);
		expect(await t.requests()).toEqual([]);
	});
});
