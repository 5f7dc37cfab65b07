// Time resource (Group A): travel, pause, resume, fast-forward, rewind.
import { sent, useSandbox } from '../../support/node-support';

const t = useSandbox();

describe('Time → Travel (POST /travel)', () => {
	it('sends the destination as ISO 8601 UTC and the location, and outputs the answer', async () => {
		const result = await t.run({
			resource: 'time',
			operation: 'travel',
			destinationTime: '1969-07-20T20:17:00+02:00',
			location: 'Sea of Tranquility',
		});
		expect(result.node.error).toBeUndefined();
		expect(result.output).toEqual([
			{
				status: 'Arrived at Sea of Tranquility on 1969-07-20T18:17:00.000Z.',
				current_time: '1969-07-20T18:17:00.000Z',
				location: 'Sea of Tranquility',
			},
		]);
		expect((await t.requests()).map(sent)).toEqual([
			{
				method: 'POST',
				path: '/v1/travel',
				query: {},
				body: { destination_time: '1969-07-20T18:17:00.000Z', location: 'Sea of Tranquility' },
			},
		]);
	});

	it.each([
		['Europe/Berlin', '2030-01-15T09:00:00', '2030-01-15T08:00:00.000Z'],
		['Europe/Berlin', '2030-07-15T09:00:00', '2030-07-15T07:00:00.000Z'],
		['America/New_York', '2030-01-15T09:00:00', '2030-01-15T14:00:00.000Z'],
		['Asia/Kolkata', '2030-01-15T09:00', '2030-01-15T03:30:00.000Z'],
		['Europe/Berlin', '2030-01-15T09:00:00Z', '2030-01-15T09:00:00.000Z'],
	])('in a workflow set to %s, reads %s as the instant %s', async (timezone, written, instant) => {
		const result = await t.run(
			{ resource: 'time', operation: 'travel', destinationTime: written, location: 'Berlin' },
			[{}],
			{ settings: { timezone } },
		);
		expect(result.node.error).toBeUndefined();
		const [request] = await t.requests();
		expect((request.body as { destination_time: string }).destination_time).toBe(instant);
	});

	it('runs once per input item with expressions, output in input order with pairedItem', async () => {
		const items = [
			{ location: 'Rome', when: '0044-03-15T10:00:00Z' },
			{ location: 'Paris', when: '1889-05-06T12:00:00Z' },
			{ location: 'Tokyo', when: '1964-10-10T14:00:00Z' },
		];
		const result = await t.run(
			{ resource: 'time', operation: 'travel', destinationTime: '={{ $json.when }}', location: '={{ $json.location }}' },
			items,
		);
		expect(result.node.error).toBeUndefined();
		expect(result.output.map((json) => json.location)).toEqual(['Rome', 'Paris', 'Tokyo']);
		expect(result.node.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		const bodies = (await t.requests()).map((request) => request.body);
		expect(bodies).toHaveLength(3);
		expect(bodies).toEqual(
			expect.arrayContaining([
				{ destination_time: '0044-03-15T10:00:00.000Z', location: 'Rome' },
				{ destination_time: '1889-05-06T12:00:00.000Z', location: 'Paris' },
				{ destination_time: '1964-10-10T14:00:00.000Z', location: 'Tokyo' },
			]),
		);
	});

	it.each([
		['a location expression resolving to empty text', { destinationTime: '2030-01-01T00:00:00Z', location: '={{ "  " }}' }, 'Invalid Location in item 0: got "  ", expected a value: this field is required'],
		['a location expression reading a missing field', { destinationTime: '2030-01-01T00:00:00Z', location: '={{ $json.place }}' }, 'Invalid Location in item 0: got'],
		['a location expression resolving to null', { destinationTime: '2030-01-01T00:00:00Z', location: '={{ null }}' }, 'Invalid Location in item 0: got null'],
		['an empty destination time from an expression', { destinationTime: '={{ "" }}', location: 'Rome' }, 'Invalid Destination Time in item 0: got "", expected an ISO 8601 date-time'],
		['a destination time that is not a date', { destinationTime: '={{ "next tuesday" }}', location: 'Rome' }, 'Invalid Destination Time in item 0: got "next tuesday"'],
		['an impossible date', { destinationTime: '2030-02-30T00:00:00Z', location: 'Rome' }, 'expected a real calendar date-time'],
	])('refuses %s before any request', async (_case, fields, message) => {
		const result = await t.run({ resource: 'time', operation: 'travel', ...fields });
		expect(result.node.error?.message).toContain(message);
		expect(result.node.error?.name).toBe('NodeOperationError');
		expect(await t.requests()).toEqual([]);
	});
});

describe('Time → Pause and Resume', () => {
	it('pauses (POST /pause-time, no body) and resumes from the paused moment (POST /resume-time)', async () => {
		const paused = await t.run({ resource: 'time', operation: 'pause' });
		expect(paused.node.error).toBeUndefined();
		expect(paused.output).toEqual([{ status: 'Time paused. Actions now run in isolation.', paused_at: expect.any(String) }]);
		const pausedAt = paused.output[0].paused_at as string;
		expect(Number.isNaN(Date.parse(pausedAt))).toBe(false);

		await t.sandbox.client.advanceClock(3_600_000);
		const resumed = await t.run({ resource: 'time', operation: 'resume' });
		expect(resumed.output).toEqual([{ status: 'Time resumed from the paused moment.', current_time: pausedAt }]);

		expect((await t.requests()).map(sent)).toEqual([
			{ method: 'POST', path: '/v1/pause-time', query: {}, body: null },
			{ method: 'POST', path: '/v1/resume-time', query: {}, body: null },
		]);
	});
});

describe('Time → Fast-Forward and Rewind', () => {
	it('turns Amount and Unit into the service duration (15m) and moves time later', async () => {
		// Paused first, so the sandbox clock does not move the traveller between the calls.
		await t.run({ resource: 'time', operation: 'pause' });
		await t.run({ resource: 'time', operation: 'travel', destinationTime: '2030-01-01T00:00:00Z', location: 'Oslo' });
		await t.sandbox.client.clearRequests();

		const result = await t.run({ resource: 'time', operation: 'fastForward', durationAmount: 15, durationUnit: 'minutes' });
		expect(result.output).toEqual([{ status: 'Fast-forwarded 15m. Time is paused.', new_time: '2030-01-01T00:15:00.000Z' }]);
		expect((await t.requests()).map(sent)).toEqual([
			{ method: 'POST', path: '/v1/fast-forward', query: {}, body: { duration: '15m' } },
		]);
	});

	it('rewinds by days (3d)', async () => {
		await t.run({ resource: 'time', operation: 'pause' });
		await t.run({ resource: 'time', operation: 'travel', destinationTime: '2030-01-10T00:00:00Z', location: 'Oslo' });
		await t.sandbox.client.clearRequests();

		const result = await t.run({ resource: 'time', operation: 'rewind', durationAmount: 3, durationUnit: 'days' });
		expect(result.output).toEqual([{ status: 'Rewound 3d. Time is paused.', new_time: '2030-01-07T00:00:00.000Z' }]);
		expect((await t.requests()).map(sent)).toEqual([{ method: 'POST', path: '/v1/rewind', query: {}, body: { duration: '3d' } }]);
	});

	it.each([
		[0, 'Invalid Amount in item 0: got 0, expected a whole number of at least 1'],
		[-2, 'Invalid Amount in item 0: got -2, expected a whole number of at least 1'],
		[1.5, 'Invalid Amount in item 0: got 1.5, expected a whole number of at least 1'],
		['={{ "two" }}', 'Invalid Amount in item 0: got "two", expected a whole number of at least 1'],
		['={{ null }}', 'Invalid Amount in item 0: got null, expected a whole number of at least 1'],
	])('refuses the amount %p before any request', async (amount, message) => {
		const result = await t.run({ resource: 'time', operation: 'rewind', durationAmount: amount, durationUnit: 'hours' });
		expect(result.node.error?.message).toBe(message);
		expect(await t.requests()).toEqual([]);
	});

	it('refuses an unknown unit from an expression', async () => {
		const result = await t.run({ resource: 'time', operation: 'fastForward', durationAmount: 2, durationUnit: '={{ "weeks" }}' });
		expect(result.node.error?.message).toBe('Invalid Unit in item 0: got "weeks", expected the unit minutes, hours or days');
		expect(await t.requests()).toEqual([]);
	});

	it('with On Error → Continue (using error output): failed items leave by the error output, with the error; the others by the first', async () => {
		await t.sandbox.client.injectFault({ kind: 'status', status: 503, path: '/v1/fast-forward', count: 1 });
		const result = await t.run(
			{ resource: 'time', operation: 'fastForward', durationAmount: '={{ $json.amount }}', durationUnit: 'hours', requestOptions: { concurrency: 1 } },
			[{ amount: 2 }, { amount: 0 }, { amount: 3 }],
			{ errorOutput: true },
		);
		expect(result.node.error).toBeUndefined();
		const [success, failed] = result.node.outputs;
		expect(success.map((item) => item.json)).toEqual([{ status: 'Fast-forwarded 3h.', new_time: expect.any(String) }]);
		expect(failed.map((item) => item.json.error)).toEqual([
			expect.stringMatching(/^Time → Fast-Forward failed: the service answered HTTP 503/),
			'Invalid Amount in item 1: got 0, expected a whole number of at least 1',
		]);
		expect(failed.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('with Continue On Fail: good items reach the service, bad items become error items and send nothing', async () => {
		const result = await t.run(
			{ resource: 'time', operation: 'fastForward', durationAmount: '={{ $json.amount }}', durationUnit: 'hours' },
			[{ amount: 2 }, { amount: 0 }, { amount: 'soon' }, { amount: 3 }],
			{ continueOnFail: true },
		);
		expect(result.node.error).toBeUndefined();
		expect(result.node.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(result.output[0]).toEqual({ status: 'Fast-forwarded 2h.', new_time: expect.any(String) });
		expect(result.output[1]).toEqual({
			error: 'Invalid Amount in item 1: got 0, expected a whole number of at least 1',
			description: 'Fix "Amount" (or the expression that fills it) for item 1. Nothing was sent for this item.',
		});
		expect(result.output[2].error).toBe('Invalid Amount in item 2: got "soon", expected a whole number of at least 1');
		expect(result.output[3]).toEqual({ status: 'Fast-forwarded 3h.', new_time: expect.any(String) });
		const bodies = (await t.requests()).map((request) => request.body);
		expect(bodies.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([{ duration: '2h' }, { duration: '3h' }]);
	});
});
