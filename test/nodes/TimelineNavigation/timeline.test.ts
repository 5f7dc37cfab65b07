// Timeline resource (Group B) and the timeline picker's list search.
import { runListSearch } from '../../support/harness';
import { byId, NODE_TYPE, nodeCredentialsFor, sent, useSandbox } from '../../support/node-support';

const t = useSandbox();

const timeline = (operation: string, fields: Record<string, unknown> = {}) => ({ resource: 'timeline', operation, ...fields });
const TIMELINE = { timeline_id: expect.stringMatching(/^tl_/), name: expect.any(String), description: null, created_at: expect.any(String) };

describe('Timeline → Get Many (GET /timelines)', () => {
	it.each(['object', 'array'] as const)('reads the list when the service answers with an %s, one item per timeline', async (shape) => {
		await t.sandbox.client.configure({ timelinesListShape: shape });
		const ids = [await t.createTimeline('Alpha'), await t.createTimeline('Beta'), await t.createTimeline('Gamma')];
		const result = await t.run(timeline('getAll', { returnAll: true }));
		expect(result.node.error).toBeUndefined();
		expect(result.output).toEqual([
			{ ...TIMELINE, timeline_id: ids[0], name: 'Alpha' },
			{ ...TIMELINE, timeline_id: ids[1], name: 'Beta' },
			{ ...TIMELINE, timeline_id: ids[2], name: 'Gamma' },
		]);
		expect((await t.requests()).map(sent)).toEqual([{ method: 'GET', path: '/v1/timelines', query: {}, body: null }]);
	});

	it('applies Limit to the list (the service shows no paging)', async () => {
		for (const name of ['A', 'B', 'C']) await t.createTimeline(name);
		const result = await t.run(timeline('getAll', { returnAll: false, limit: 2 }));
		expect(result.output.map((json) => json.name)).toEqual(['A', 'B']);
		expect((await t.requests()).map(sent)).toEqual([{ method: 'GET', path: '/v1/timelines', query: {}, body: null }]);
	});

	it('outputs nothing when there are no timelines', async () => {
		const result = await t.run(timeline('getAll', { returnAll: true }));
		expect(result.node.error).toBeUndefined();
		expect(result.output).toEqual([]);
	});

	it('refuses a Limit below 1 from an expression before any request', async () => {
		const result = await t.run(timeline('getAll', { returnAll: false, limit: '={{ 0 }}' }));
		expect(result.node.error?.message).toBe('Invalid Limit in item 0: got 0, expected a whole number of at least 1');
		expect(await t.requests()).toEqual([]);
	});
});

describe('Timeline → Create (POST /timelines)', () => {
	it('sends name, description and extra body fields, and outputs the new timeline', async () => {
		const result = await t.run(
			timeline('create', { name: 'Prime', description: 'The main line', additionalFields: { extraBody: '{"color":"blue"}' } }),
		);
		expect(result.node.error).toBeUndefined();
		expect(result.output).toEqual([{ ...TIMELINE, name: 'Prime', description: 'The main line' }]);
		expect((await t.requests()).map(sent)).toEqual([
			{ method: 'POST', path: '/v1/timelines', query: {}, body: { name: 'Prime', description: 'The main line', color: 'blue' } },
		]);
	});

	it('creates one timeline per input item from expressions, leaving out an empty description', async () => {
		const result = await t.run(timeline('create', { name: '={{ $json.name }}', description: '={{ $json.about }}' }), [
			{ name: 'One', about: 'first' },
			{ name: 'Two' },
		]);
		expect(result.output.map((json) => [json.name, json.description])).toEqual([
			['One', 'first'],
			['Two', null],
		]);
		const bodies = (await t.requests()).map((request) => request.body);
		expect(bodies).toEqual(expect.arrayContaining([{ name: 'One', description: 'first' }, { name: 'Two' }]));
		expect(bodies).toHaveLength(2);
	});

	it('refuses an empty name before any request', async () => {
		const result = await t.run(timeline('create', { name: '={{ $json.name }}' }), [{ name: '' }]);
		expect(result.node.error?.message).toBe('Invalid Name in item 0: got "", expected a value: this field is required');
		expect(await t.requests()).toEqual([]);
	});
});

describe('Timeline → Delete (DELETE /timeline/{timeline_id})', () => {
	it('deletes on the singular path and outputs the answer', async () => {
		const id = await t.createTimeline('Doomed');
		const result = await t.run(timeline('delete', { timelineId: byId(id) }));
		expect(result.node.error).toBeUndefined();
		expect(result.output).toEqual([{ timeline_id: id, deleted: true, status: `Timeline ${id} deleted.` }]);
		expect((await t.requests()).map(sent)).toEqual([{ method: 'DELETE', path: `/v1/timeline/${id}`, query: {}, body: null }]);
	});

	it('surfaces a 404 for an unknown timeline with the status, the operation and the service message', async () => {
		const result = await t.run(timeline('delete', { timelineId: byId('tl_nope') }));
		expect(result.node.error?.name).toBe('NodeApiError');
		expect(result.node.error?.message).toBe("Timeline → Delete failed: the service answered HTTP 404: No timeline with timeline_id 'tl_nope' exists.");
		expect((result.node.error as { httpCode?: string }).httpCode).toBe('404');
		expect(result.node.error?.description).toContain('check the ID');
	});

	it('keeps an ID with slashes and dots inside its own path segment', async () => {
		const result = await t.run(timeline('delete', { timelineId: byId('../timelines?x=1') }));
		expect(result.node.error?.message).toContain('HTTP 404');
		expect((await t.requests()).map(sent)).toEqual([
			{ method: 'DELETE', path: '/v1/timeline/%2E%2E%2Ftimelines%3Fx%3D1', query: {}, body: null },
		]);
	});

	it('with Continue On Fail: deletes the good ones; an empty ID sends nothing, an unknown ID gets the 404 as an error item', async () => {
		const a = await t.createTimeline('A');
		const b = await t.createTimeline('B');
		const result = await t.run(
			timeline('delete', { timelineId: byId('={{ $json.id }}') }),
			[{ id: a }, { id: '' }, { id: 'tl_unknown' }, { id: b }],
			{ continueOnFail: true },
		);
		expect(result.node.error).toBeUndefined();
		expect(result.node.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(result.output[0]).toMatchObject({ timeline_id: a, deleted: true });
		expect(result.output[1]).toEqual({
			error: 'Invalid Timeline in item 1: got "", expected an ID: choose one from the list or enter it',
			description: 'Fix "Timeline" (or the expression that fills it) for item 1. Nothing was sent for this item.',
		});
		expect(result.output[2].error).toBe("Timeline → Delete failed: the service answered HTTP 404: No timeline with timeline_id 'tl_unknown' exists.");
		expect(result.output[3]).toMatchObject({ timeline_id: b, deleted: true });
		expect((await t.requests()).map((request) => request.path).sort()).toEqual(
			[`/v1/timeline/${a}`, `/v1/timeline/${b}`, '/v1/timeline/tl_unknown'].sort(),
		);
	});
});

describe('Timeline → Travel To (POST /travels with timeline_id)', () => {
	it('sends the timeline ID and the optional destination time', async () => {
		const id = await t.createTimeline('Elsewhere');
		const result = await t.run(timeline('travelTo', { timelineId: byId(id), destinationTime: '2040-04-04T04:04:04Z' }));
		expect(result.node.error).toBeUndefined();
		expect(result.output).toEqual([
			{
				travel_id: expect.stringMatching(/^trv_/),
				status: 'Travelled to timeline Elsewhere.',
				timeline_id: id,
				anchor_id: null,
				current_time: expect.stringMatching(/^2040-04-04T04:04:0/),
				location: 'origin',
			},
		]);
		expect((await t.requests()).map(sent)).toEqual([
			{ method: 'POST', path: '/v1/travels', query: {}, body: { timeline_id: id, destination_time: '2040-04-04T04:04:04.000Z' } },
		]);
	});

	it('sends only the timeline ID when no destination time is given', async () => {
		const id = await t.createTimeline('Elsewhere');
		await t.run(timeline('travelTo', { timelineId: byId(id) }));
		expect((await t.requests()).map((request) => request.body)).toEqual([{ timeline_id: id }]);
	});

	it('surfaces a 404 for an unknown timeline', async () => {
		const result = await t.run(timeline('travelTo', { timelineId: byId('tl_ghost') }));
		expect(result.node.error?.message).toBe("Timeline → Travel To failed: the service answered HTTP 404: No timeline with timeline_id 'tl_ghost' exists.");
		expect((result.node.error as { httpCode?: string }).httpCode).toBe('404');
	});
});

describe('Timeline → Check for Paradoxes (POST /paradox-checks)', () => {
	it('reports the paradox an event before a registered item causes', async () => {
		const id = await t.createTimeline('Fragile');
		await t.api('POST', '/travel', { destination_time: '2030-06-01T00:00:00Z', location: 'Lab' });
		await t.api('POST', '/items', { timeline_id: id, name: 'Watch' });
		await t.api('POST', '/events', { timeline_id: id, action: 'add', time: '2020-01-01T00:00:00Z', description: 'Meddling' });
		await t.sandbox.client.clearRequests();

		const result = await t.run(timeline('checkParadoxes', { timelineId: byId(id) }));
		expect(result.node.error).toBeUndefined();
		expect(result.output).toHaveLength(1);
		expect(result.output[0]).toMatchObject({ timeline_id: id, paradox_found: true, status: '1 paradox(es) found.' });
		expect((await t.requests()).map(sent)).toEqual([{ method: 'POST', path: '/v1/paradox-checks', query: {}, body: { timeline_id: id } }]);
	});

	it('reports no paradox on a quiet timeline', async () => {
		const id = await t.createTimeline('Quiet');
		const result = await t.run(timeline('checkParadoxes', { timelineId: byId(id) }));
		expect(result.output).toEqual([
			{ check_id: expect.stringMatching(/^chk_/), timeline_id: id, paradox_found: false, paradoxes: [], status: 'No paradox found.' },
		]);
	});
});

describe('Timeline → Monitor Anomalies (GET /monitor-timeline)', () => {
	async function timelineWithRewind() {
		const id = await t.createTimeline('Watched');
		await t.api('POST', '/rewind', { duration: '2h' });
		await t.api('POST', '/rewind', { duration: '1d' });
		await t.sandbox.client.clearRequests();
		return id;
	}

	it('outputs one item per anomaly, asking with timeline_id in the query', async () => {
		const id = await timelineWithRewind();
		const result = await t.run(timeline('monitorAnomalies', { timelineId: byId(id) }));
		expect(result.node.error).toBeUndefined();
		expect(result.output).toEqual([
			expect.objectContaining({ anomaly_id: expect.stringMatching(/^anm_/), type: 'rewind', description: expect.stringMatching(/^Rewind of 2h/) }),
			expect.objectContaining({ type: 'rewind', description: expect.stringMatching(/^Rewind of 1d/) }),
		]);
		// each anomaly says which timeline it was found in
		expect(result.output.map((anomaly) => anomaly.timeline_id)).toEqual([id, id]);
		expect((await t.requests()).map(sent)).toEqual([
			{ method: 'GET', path: '/v1/monitor-timeline', query: { timeline_id: id }, body: null },
		]);
	});

	it('outputs the whole response as one item when asked, with extra query parameters', async () => {
		const id = await timelineWithRewind();
		const result = await t.run(
			timeline('monitorAnomalies', { timelineId: byId(id), outputMode: 'response', extraQuery: '{"since":"2030-01-01"}' }),
		);
		expect(result.output).toEqual([{ timeline_id: id, status: '2 anomaly(ies) detected.', anomalies: expect.any(Array) }]);
		expect((await t.requests()).map((request) => request.query)).toEqual([{ since: '2030-01-01', timeline_id: id }]);
	});

	it('surfaces a 404 for an unknown timeline', async () => {
		const result = await t.run(timeline('monitorAnomalies', { timelineId: byId('tl_lost') }));
		expect(result.node.error?.message).toBe(
			"Timeline → Monitor Anomalies failed: the service answered HTTP 404: No timeline with timeline_id 'tl_lost' exists.",
		);
	});
});

describe('the timeline picker (listSearch searchTimelines)', () => {
	const search = (filter?: string) =>
		runListSearch({
			nodeType: NODE_TYPE,
			method: 'searchTimelines',
			nodeCredentials: nodeCredentialsFor('timeline'),
			credentials: t.credentials,
			filter,
			parameters: { resource: 'timeline', operation: 'delete' },
		});

	it('lists every timeline by name, sorted, with its ID as the value', async () => {
		const beta = await t.createTimeline('Beta');
		const alpha = await t.createTimeline('alpha branch');
		expect(await search()).toEqual({
			results: [
				{ name: 'alpha branch', value: alpha },
				{ name: 'Beta', value: beta },
			],
		});
		expect((await t.requests()).map(sent)).toEqual([{ method: 'GET', path: '/v1/timelines', query: {}, body: null }]);
	});

	it.each(['array', 'object'] as const)('narrows to the typed text, by name or ID, in any case (list as %s)', async (shape) => {
		await t.sandbox.client.configure({ timelinesListShape: shape });
		const main = await t.createTimeline('Main Line');
		const side = await t.createTimeline('Side quest');
		expect((await search('LINE')).results).toEqual([{ name: 'Main Line', value: main }]);
		expect((await search(side.slice(3, 10))).results).toEqual([{ name: 'Side quest', value: side }]);
		expect((await search('nothing like it')).results).toEqual([]);
	});

	it('fails with the service message when the key is refused', async () => {
		await expect(
			runListSearch({
				nodeType: NODE_TYPE,
				method: 'searchTimelines',
				nodeCredentials: nodeCredentialsFor('timeline'),
				credentials: [{ ...t.credentials[0], data: { baseUrl: t.sandbox.url, accessToken: 'wrong-key' } }],
			}),
		).rejects.toThrow(/^Timeline → Search failed: the service answered HTTP 401/);
	});
});
