// Event resource: Monitor (GET /monitor-events) and Manipulate (POST /events).
import { byId, sent, useSandbox } from '../../support/node-support';

const t = useSandbox();

const monitor = (fields: Record<string, unknown>) => ({ resource: 'event', operation: 'monitor', ...fields });

async function seedAlexandria() {
	await t.sandbox.client.seedEvent({ location: 'Alexandria', time: '2030-01-01T10:00:00Z', description: 'Library opens' });
	await t.sandbox.client.seedEvent({ location: 'Alexandria', time: '2030-01-03T10:00:00Z', description: 'Lighthouse lit' });
	await t.sandbox.client.seedEvent({ location: 'Alexandria', time: '2030-02-01T10:00:00Z', description: 'Out of range' });
	await t.sandbox.client.seedEvent({ location: 'Rhodes', time: '2030-01-02T10:00:00Z', description: 'Colossus' });
}

const JANUARY = '2030-01-01T00:00:00.000Z/2030-01-31T00:00:00.000Z';

describe('Event → Monitor (GET /monitor-events)', () => {
	it('sends location and time_range in the query string (n8n drops GET bodies) and outputs one item per event', async () => {
		await seedAlexandria();
		const result = await t.run(
			monitor({ location: 'Alexandria', rangeStart: '2030-01-01T00:00:00Z', rangeEnd: '2030-01-31T00:00:00Z' }),
		);
		expect(result.node.error).toBeUndefined();
		expect(result.output).toEqual([
			// each event carries what it answers: the location and time range asked for
			{ time: '2030-01-01T10:00:00.000Z', description: 'Library opens', location: 'Alexandria', time_range: JANUARY },
			{ time: '2030-01-03T10:00:00.000Z', description: 'Lighthouse lit', location: 'Alexandria', time_range: JANUARY },
		]);
		expect(result.node.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
		// What arrived: the node also passes the parameters as a JSON body, but n8n's HTTP
		// helper removes the body of a GET, so the request carries none.
		const requests = await t.requests();
		expect(requests.map(sent)).toEqual([
			{
				method: 'GET',
				path: '/v1/monitor-events',
				query: { location: 'Alexandria', time_range: '2030-01-01T00:00:00.000Z/2030-01-31T00:00:00.000Z' },
				body: null,
			},
		]);
		expect(requests[0].headers['content-length']).toBeUndefined();
	});

	it('outputs the whole response as one item when asked', async () => {
		await seedAlexandria();
		const result = await t.run(
			monitor({
				location: 'Rhodes',
				rangeStart: '2030-01-01T00:00:00Z',
				rangeEnd: '2030-01-31T00:00:00Z',
				outputMode: 'response',
			}),
		);
		expect(result.output).toEqual([
			{ status: '1 event(s) found at Rhodes.', events: [{ time: '2030-01-02T10:00:00.000Z', description: 'Colossus' }] },
		]);
	});

	it('outputs no item when nothing happened there', async () => {
		const result = await t.run(monitor({ location: 'Nowhere', rangeStart: '2030-01-01T00:00:00Z', rangeEnd: '2030-01-02T00:00:00Z' }));
		expect(result.node.error).toBeUndefined();
		expect(result.output).toEqual([]);
		expect(await t.requests()).toHaveLength(1);
	});

	it('accepts a start equal to the end', async () => {
		await seedAlexandria();
		const result = await t.run(monitor({ location: 'Alexandria', rangeStart: '2030-01-01T10:00:00Z', rangeEnd: '2030-01-01T10:00:00Z' }));
		expect(result.output).toEqual([
			{
				time: '2030-01-01T10:00:00.000Z',
				description: 'Library opens',
				location: 'Alexandria',
				time_range: '2030-01-01T10:00:00.000Z/2030-01-01T10:00:00.000Z',
			},
		]);
	});

	it('runs once per input item with expressions', async () => {
		await seedAlexandria();
		const result = await t.run(
			monitor({ location: '={{ $json.location }}', rangeStart: '={{ $json.from }}', rangeEnd: '={{ $json.to }}' }),
			[
				{ location: 'Rhodes', from: '2030-01-01T00:00:00Z', to: '2030-01-31T00:00:00Z' },
				{ location: 'Alexandria', from: '2030-01-02T00:00:00Z', to: '2030-12-31T00:00:00Z' },
			],
		);
		expect(result.node.error).toBeUndefined();
		expect(result.output.map((json) => json.description)).toEqual(['Colossus', 'Lighthouse lit', 'Out of range']);
		expect(result.node.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 1 }]);
		const queries = (await t.requests()).map((request) => request.query);
		expect(queries).toHaveLength(2);
		expect(queries).toEqual(
			expect.arrayContaining([
				{ location: 'Rhodes', time_range: '2030-01-01T00:00:00.000Z/2030-01-31T00:00:00.000Z' },
				{ location: 'Alexandria', time_range: '2030-01-02T00:00:00.000Z/2030-12-31T00:00:00.000Z' },
			]),
		);
	});

	it('refuses a start after the end before any request', async () => {
		const result = await t.run(monitor({ location: 'Alexandria', rangeStart: '2030-02-01T00:00:00Z', rangeEnd: '2030-01-01T00:00:00Z' }));
		expect(result.node.error?.name).toBe('NodeOperationError');
		expect(result.node.error?.message).toBe(
			'Invalid Start in item 0: got "2030-02-01T00:00:00.000Z", the start (2030-02-01T00:00:00.000Z) is after the end (2030-01-01T00:00:00.000Z)',
		);
		expect(await t.requests()).toEqual([]);
	});

	it.each([
		['Location', { location: '={{ $json.nothing }}', rangeStart: '2030-01-01T00:00:00Z', rangeEnd: '2030-01-02T00:00:00Z' }],
		['Start', { location: 'Rhodes', rangeStart: '={{ "" }}', rangeEnd: '2030-01-02T00:00:00Z' }],
		['End', { location: 'Rhodes', rangeStart: '2030-01-01T00:00:00Z', rangeEnd: '={{ "soon" }}' }],
	])('refuses a missing or invalid %s before any request', async (field, fields) => {
		const result = await t.run(monitor(fields));
		expect(result.node.error?.message).toMatch(new RegExp(`^Invalid ${field} in item 0: got `));
		expect(await t.requests()).toEqual([]);
	});

	it('with Continue On Fail: a bad range becomes an error item, the good items are monitored', async () => {
		await seedAlexandria();
		const result = await t.run(
			monitor({ location: 'Alexandria', rangeStart: '={{ $json.from }}', rangeEnd: '={{ $json.to }}' }),
			[
				{ from: '2030-01-01T00:00:00Z', to: '2030-01-02T00:00:00Z' },
				{ from: '2030-03-01T00:00:00Z', to: '2030-01-01T00:00:00Z' },
				{ from: '2030-01-31T00:00:00Z', to: '2030-02-28T00:00:00Z' },
			],
			{ continueOnFail: true },
		);
		expect(result.node.error).toBeUndefined();
		expect(result.node.items.map((item) => [item.pairedItem, item.json.error ?? item.json.description])).toEqual([
			[{ item: 0 }, 'Library opens'],
			[
				{ item: 1 },
				'Invalid Start in item 1: got "2030-03-01T00:00:00.000Z", the start (2030-03-01T00:00:00.000Z) is after the end (2030-01-01T00:00:00.000Z)',
			],
			[{ item: 2 }, 'Out of range'],
		]);
		expect((await t.requests()).map((request) => request.query.time_range).sort()).toEqual([
			'2030-01-01T00:00:00.000Z/2030-01-02T00:00:00.000Z',
			'2030-01-31T00:00:00.000Z/2030-02-28T00:00:00.000Z',
		]);
	});
});

describe('Event → Manipulate (POST /events)', () => {
	const manipulate = (fields: Record<string, unknown>) => ({ resource: 'event', operation: 'manipulate', ...fields });

	it('adds an event with time, description and a location from Additional Fields; Monitor then finds it', async () => {
		const timelineId = await t.createTimeline('Prime');
		const result = await t.run(
			manipulate({
				timelineId: { __rl: true, mode: 'list', value: timelineId, cachedResultName: 'Prime' },
				eventAction: 'add',
				eventTime: '2030-05-05T05:05:05Z',
				description: 'Comet seen',
				additionalFields: { location: 'Giza' },
			}),
		);
		expect(result.node.error).toBeUndefined();
		expect(result.output).toEqual([
			{
				event_id: expect.stringMatching(/^evt_/),
				timeline_id: timelineId,
				action: 'add',
				status: 'Event added.',
				event: {
					event_id: expect.stringMatching(/^evt_/),
					timeline_id: timelineId,
					time: '2030-05-05T05:05:05.000Z',
					description: 'Comet seen',
					location: 'Giza',
				},
				paradox: false,
			},
		]);
		expect((await t.requests()).map(sent)).toEqual([
			{
				method: 'POST',
				path: '/v1/events',
				query: {},
				body: {
					timeline_id: timelineId,
					action: 'add',
					time: '2030-05-05T05:05:05.000Z',
					description: 'Comet seen',
					location: 'Giza',
				},
			},
		]);
		const watched = await t.run(monitor({ location: 'Giza', rangeStart: '2030-05-01T00:00:00Z', rangeEnd: '2030-05-31T00:00:00Z' }));
		expect(watched.output).toEqual([
			{
				time: '2030-05-05T05:05:05.000Z',
				description: 'Comet seen',
				location: 'Giza',
				time_range: '2030-05-01T00:00:00.000Z/2030-05-31T00:00:00.000Z',
			},
		]);
	});

	it('modifies an event: sends event_id and only the changed fields', async () => {
		const timelineId = await t.createTimeline('Prime');
		const added = await t.api<{ event_id: string }>('POST', '/events', {
			timeline_id: timelineId,
			action: 'add',
			time: '2030-01-01T00:00:00Z',
			description: 'Old',
		});
		await t.sandbox.client.clearRequests();
		const result = await t.run(
			manipulate({ timelineId: byId(timelineId), eventAction: 'modify', eventId: added.event_id, description: 'New' }),
		);
		expect(result.node.error).toBeUndefined();
		expect(result.output[0]).toMatchObject({ action: 'modify', status: 'Event modified.', event: { description: 'New', time: '2030-01-01T00:00:00.000Z' } });
		expect((await t.requests()).map(sent)).toEqual([
			{
				method: 'POST',
				path: '/v1/events',
				query: {},
				body: { timeline_id: timelineId, action: 'modify', event_id: added.event_id, description: 'New' },
			},
		]);
	});

	it('removes an event: sends only timeline_id, action and event_id', async () => {
		const timelineId = await t.createTimeline('Prime');
		const added = await t.api<{ event_id: string }>('POST', '/events', { timeline_id: timelineId, action: 'add', time: '2030-01-01T00:00:00Z' });
		await t.sandbox.client.clearRequests();
		const result = await t.run(
			manipulate({ timelineId: byId(timelineId), eventAction: 'remove', eventId: added.event_id, description: 'ignored' }),
		);
		expect(result.output[0]).toMatchObject({ event_id: added.event_id, action: 'remove', status: 'Event removed.' });
		expect((await t.requests()).map((request) => request.body)).toEqual([
			{ timeline_id: timelineId, action: 'remove', event_id: added.event_id },
		]);
	});

	it.each([
		['modify', { eventAction: 'modify', eventId: '={{ $json.missing }}', description: 'x' }, /^Invalid Event ID in item 0: got /],
		['remove', { eventAction: 'remove', eventId: '={{ "" }}' }, /^Invalid Event ID in item 0: got ""/],
		['add', { eventAction: 'add', eventTime: '={{ "" }}' }, /^Invalid Time in item 0: got "", expected an ISO 8601 date-time/],
		['modify', { eventAction: 'modify', eventId: 'evt_1' }, /^Invalid Time in item 0: got "", expected a change: set a new Time, a Description or an Additional Field/],
		['any action', { timelineId: byId('={{ $json.timeline }}'), eventAction: 'add', eventTime: '2030-01-01T00:00:00Z' }, /^Invalid Timeline in item 0: got nothing, expected an ID/],
		['any action', { eventAction: '={{ "delete" }}', eventId: 'evt_1', eventTime: '2030-01-01T00:00:00Z' }, /^Invalid Action in item 0: got "delete", expected add, modify or remove$/],
	])('refuses incomplete input for %s before any request', async (_action, fields, message) => {
		const result = await t.run(manipulate({ timelineId: byId('tl_any'), ...fields }));
		expect(result.node.error?.message).toMatch(message);
		expect(await t.requests()).toEqual([]);
	});

	it('surfaces a 404 for an unknown timeline', async () => {
		const result = await t.run(manipulate({ timelineId: byId('tl_missing'), eventAction: 'add', eventTime: '2030-01-01T00:00:00Z' }));
		expect(result.node.error?.message).toBe(
			"Event → Manipulate failed: the service answered HTTP 404: No timeline with timeline_id 'tl_missing' exists.",
		);
	});
});
