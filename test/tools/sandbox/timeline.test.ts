import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { startSandbox } from '../../../tools/sandbox/server';
import { HOUR, api, rawRequest } from '../../../tools/sandbox/testkit';
import { sandboxPerFile } from '../../support/sandbox';

const sandbox = sandboxPerFile();
const tl = () => api(sandbox.url, sandbox.timelineKey);

const T0 = '2030-01-01T12:00:00.000Z';
const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/** Freezes time at T0 so arithmetic on the answers is exact. */
async function frozenAt(iso = T0) {
	await tl().post('/pause-time');
	await tl().post('/travel', { destination_time: iso, location: 'Rome' });
}

describe('Group A: travel, pause, resume, fast-forward, rewind', () => {
	test('travel sets current time and location; answer carries status', async () => {
		const res = await tl().post('/travel', { destination_time: '2030-01-01T12:00:00+02:00', location: 'Rome' });
		expect(res.status).toBe(200);
		expect(res.data).toEqual({ status: expect.any(String), current_time: '2030-01-01T10:00:00.000Z', location: 'Rome' });
	});

	test.each([
		[{ location: 'Rome' }, 'destination_time'],
		[{ destination_time: 'tomorrow', location: 'Rome' }, 'destination_time'],
		[{ destination_time: '2030-13-45T00:00:00Z', location: 'Rome' }, 'destination_time'],
		[{ destination_time: T0 }, 'location'],
		[{ destination_time: T0, location: '' }, 'location'],
		[{ destination_time: T0, location: 42 }, 'location'],
	])('travel %j -> 400 naming %s', async (body, field) => {
		const res = await tl().post('/travel', body);
		expect(res.status).toBe(400);
		expect(res.data.error.code).toBe('validation_error');
		expect(res.data.error.field).toBe(field);
		expect(res.data.error.message).toContain(field);
	});

	test('time flows while running (sandbox clock)', async () => {
		await tl().post('/travel', { destination_time: T0, location: 'Rome' });
		await sandbox.client.advanceClock(2 * HOUR);
		const res = await tl().post('/fast-forward', { duration: '1m' });
		const expected = Date.parse(T0) + 2 * HOUR + 60_000;
		expect(Math.abs(Date.parse(res.data.new_time) - expected)).toBeLessThan(2000);
	});

	test('pause answers paused_at; resume answers exactly that moment, however long the pause', async () => {
		await tl().post('/travel', { destination_time: T0, location: 'Rome' });
		const paused = await tl().post('/pause-time');
		expect(paused.status).toBe(200);
		expect(paused.data).toEqual({ status: expect.any(String), paused_at: expect.any(String) });
		await sandbox.client.advanceClock(5 * HOUR);
		await sleep(30); // and some real time too: neither counts while paused
		const resumed = await tl().post('/resume-time');
		expect(resumed.status).toBe(200);
		expect(resumed.data).toEqual({ status: expect.any(String), current_time: paused.data.paused_at });
	});

	test('after resume, time continues from the paused moment (the pause is not counted)', async () => {
		await tl().post('/travel', { destination_time: T0, location: 'Rome' });
		const paused = await tl().post('/pause-time');
		await sandbox.client.advanceClock(5 * HOUR);
		await tl().post('/resume-time');
		await sandbox.client.advanceClock(HOUR);
		const again = await tl().post('/pause-time');
		const elapsed = Date.parse(again.data.paused_at) - Date.parse(paused.data.paused_at);
		expect(elapsed).toBeGreaterThanOrEqual(HOUR);
		expect(elapsed).toBeLessThan(HOUR + 2000);
	});

	test('pause while paused is idempotent (same paused_at); resume while running answers current_time', async () => {
		const first = await tl().post('/pause-time');
		await sandbox.client.advanceClock(HOUR);
		const second = await tl().post('/pause-time');
		expect(second.status).toBe(200);
		expect(second.data.paused_at).toBe(first.data.paused_at);
		expect(second.data.status).toMatch(/already paused/i);
		await tl().post('/resume-time');
		const again = await tl().post('/resume-time');
		expect(again.status).toBe(200);
		expect(again.data.status).toMatch(/already running/i);
		expect(Date.parse(again.data.current_time)).not.toBeNaN();
	});

	test('fast-forward and rewind move by the duration (m, h, d)', async () => {
		await frozenAt();
		expect((await tl().post('/fast-forward', { duration: '15m' })).data.new_time).toBe(plus(T0, 15 * 60_000));
		expect((await tl().post('/fast-forward', { duration: '2h' })).data.new_time).toBe(plus(T0, 15 * 60_000 + 2 * HOUR));
		const rw = await tl().post('/rewind', { duration: '3d' });
		expect(rw.status).toBe(200);
		expect(rw.data).toEqual({ status: expect.any(String), new_time: plus(T0, 15 * 60_000 + 2 * HOUR - 72 * HOUR) });
	});

	test.each(['0h', '01h', '1.5h', '-2h', '2H', '2w', 'h', '2', ' 2h', '2h ', '', 5, null])('duration %j -> 400 naming duration', async (duration) => {
		for (const path of ['/fast-forward', '/rewind']) {
			const res = await tl().post(path, { duration });
			expect(res.status).toBe(400);
			expect(res.data.error).toMatchObject({ code: 'validation_error', field: 'duration' });
		}
	});

	test('property: a duration is accepted exactly when it matches ^[1-9][0-9]*[mhd]$, and moves time by that much', async () => {
		await frozenAt();
		let previous = T0;
		const unit: Record<string, number> = { m: 60_000, h: HOUR, d: 24 * HOUR };
		const duration = fc.oneof(
			fc.tuple(fc.integer({ min: 1, max: 100_000 }), fc.constantFrom('m', 'h', 'd')).map(([n, u]) => `${n}${u}`),
			fc.tuple(fc.integer({ min: -5, max: 50 }), fc.constantFrom('m', 'h', 'd', 's', 'M', '', 'hh')).map(([n, u]) => `${n}${u}`),
			fc.string({ maxLength: 6 }),
		);
		await fc.assert(
			fc.asyncProperty(duration, async (d) => {
				const res = await tl().post('/fast-forward', { duration: d });
				if (/^[1-9][0-9]*[mhd]$/.test(d)) {
					expect(res.status).toBe(200);
					expect(Date.parse(res.data.new_time) - Date.parse(previous)).toBe(Number(d.slice(0, -1)) * unit[d.slice(-1)]);
					previous = res.data.new_time;
				} else {
					expect(res.status).toBe(400);
					expect(res.data.error.field).toBe('duration');
				}
			}),
			{ numRuns: 60 },
		);
	});

	test('missing duration -> 400 naming duration', async () => {
		const res = await tl().post('/rewind', {});
		expect(res.data.error.field).toBe('duration');
	});

	test('set-anchor: timestamp defaults to now, description optional', async () => {
		const res = await tl().post('/set-anchor', {});
		expect(res.status).toBe(200);
		expect(res.data).toMatchObject({ anchor_id: expect.stringMatching(/^anc_/), status: expect.any(String) });
		expect(Math.abs(Date.parse(res.data.timestamp) - Date.now())).toBeLessThan(5000);
		const explicit = await tl().post('/set-anchor', { timestamp: T0, description: 'before the trip' });
		expect(explicit.data).toMatchObject({ timestamp: T0, description: 'before the trip' });
		expect(explicit.data.anchor_id).not.toBe(res.data.anchor_id);
		expect((await tl().post('/set-anchor', { timestamp: 'yesterday' })).data.error.field).toBe('timestamp');
	});

	test('the control surface shows each key\'s traveller: paused, the frozen or flowing time, location, timeline', async () => {
		expect(await sandbox.client.travellers()).toEqual([]);
		await frozenAt();
		expect(await sandbox.client.travellers()).toEqual([{ keyIndex: 0, paused: true, currentTime: T0, location: 'Rome', timelineId: null }]);
		await tl().post('/resume-time');
		await sandbox.client.advanceClock(HOUR);
		const [running] = await sandbox.client.travellers();
		expect(running).toEqual({ keyIndex: 0, paused: false, currentTime: expect.any(String), location: 'Rome', timelineId: null });
		// time flows with the sandbox clock (moved an hour) and the wall clock (a few ms)
		const flowed = Date.parse(running.currentTime) - Date.parse(T0);
		expect(flowed).toBeGreaterThanOrEqual(HOUR);
		expect(flowed).toBeLessThan(HOUR + 5000);
	});

	test('each key has its own traveller', async () => {
		const other = await startSandbox({ timelineKeys: ['key-a', 'key-b'] });
		try {
			await api(other.url, 'key-a').post('/pause-time');
			await api(other.url, 'key-a').post('/travel', { destination_time: T0, location: 'Rome' });
			const b = await api(other.url, 'key-b').post('/pause-time');
			expect(b.data.paused_at).not.toBe(T0);
			await api(other.url, 'key-a').post('/timelines', { name: 'only A' });
			expect((await api(other.url, 'key-b').get('/timelines')).data.timelines).toEqual([]);
		} finally {
			await other.close();
		}
	});
});

describe('Group A: monitor-events', () => {
	const range = '2030-01-01T00:00:00Z/2030-01-02T00:00:00Z';
	beforeEach(async () => {
		await sandbox.client.seedEvent({ location: 'Rome', time: '2030-01-01T10:00:00Z', description: 'Senate meets' });
		await sandbox.client.seedEvent({ location: 'Rome', time: '2030-01-03T10:00:00Z', description: 'Too late' });
		await sandbox.client.seedEvent({ location: 'Paris', time: '2030-01-01T10:00:00Z', description: 'Elsewhere' });
	});

	const auth = () => ({ Authorization: `Bearer ${sandbox.timelineKey}` });

	test('reads its parameters from a JSON body on the GET', async () => {
		const res = await rawRequest(sandbox.url, 'GET', '/v1/monitor-events', {
			headers: auth(),
			body: JSON.stringify({ location: 'Rome', time_range: range }),
		});
		expect(res.status).toBe(200);
		expect(res.json).toEqual({ status: expect.any(String), events: [{ time: '2030-01-01T10:00:00.000Z', description: 'Senate meets' }] });
		const [logged] = await sandbox.client.requests({ path: '/v1/monitor-events' });
		expect(logged.body).toEqual({ location: 'Rome', time_range: range });
	});

	test('reads the same parameters from the query string', async () => {
		const res = await tl().get('/monitor-events', { params: { location: 'rome', time_range: range } });
		expect(res.status).toBe(200);
		expect(res.data.events).toHaveLength(1);
	});

	test('the body wins over the query', async () => {
		const res = await rawRequest(sandbox.url, 'GET', `/v1/monitor-events?location=Paris&time_range=${encodeURIComponent(range)}`, {
			headers: auth(),
			body: JSON.stringify({ location: 'Rome' }),
		});
		expect(res.json.events).toEqual([{ time: '2030-01-01T10:00:00.000Z', description: 'Senate meets' }]);
	});

	test('events added through POST /events with a location are returned, removed ones are not', async () => {
		const { data: t } = await tl().post('/timelines', { name: 'Main' });
		const { data: added } = await tl().post('/events', { timeline_id: t.timeline_id, action: 'add', time: '2030-01-01T08:00:00Z', description: 'Market', location: 'Rome' });
		let res = await tl().get('/monitor-events', { params: { location: 'Rome', time_range: range } });
		expect(res.data.events.map((e: { description: string }) => e.description)).toEqual(['Market', 'Senate meets']);
		await tl().post('/events', { timeline_id: t.timeline_id, action: 'remove', event_id: added.event_id });
		res = await tl().get('/monitor-events', { params: { location: 'Rome', time_range: range } });
		expect(res.data.events).toHaveLength(1);
	});

	test.each([
		[{ time_range: range }, 'location'],
		[{ location: 'Rome' }, 'time_range'],
		[{ location: 'Rome', time_range: '2030-01-02T00:00:00Z/2030-01-01T00:00:00Z' }, 'time_range'],
		[{ location: 'Rome', time_range: '2030-01-01T00:00:00Z' }, 'time_range'],
		[{ location: 'Rome', time_range: 'a/b' }, 'time_range'],
		[{ location: 'Rome', time_range: '2030-01-01/2030-01-02/2030-01-03' }, 'time_range'],
	])('%j -> 400 naming %s', async (params, field) => {
		const res = await tl().get('/monitor-events', { params });
		expect(res.status).toBe(400);
		expect(res.data.error).toMatchObject({ code: 'validation_error', field });
	});

	test('start after end is called out in the message', async () => {
		const res = await tl().get('/monitor-events', { params: { location: 'Rome', time_range: '2030-01-02T00:00:00Z/2030-01-01T00:00:00Z' } });
		expect(res.data.error.message).toMatch(/start.*after.*end/i);
	});

	test('an unencoded + offset in the query string still parses', async () => {
		const res = await rawRequest(sandbox.url, 'GET', '/v1/monitor-events?location=Rome&time_range=2030-01-01T01:00:00+01:00/2030-01-01T12:00:00+01:00', {
			headers: auth(),
		});
		expect(res.status).toBe(200);
		expect(res.json.events).toHaveLength(1);
	});

	test('start equal to end is allowed', async () => {
		const res = await tl().get('/monitor-events', { params: { location: 'Rome', time_range: '2030-01-01T10:00:00Z/2030-01-01T10:00:00Z' } });
		expect(res.status).toBe(200);
		expect(res.data.events).toHaveLength(1);
	});
});

describe('Group B', () => {
	async function timeline(name = 'Main') {
		const res = await tl().post('/timelines', { name, description: `${name} line` });
		expect(res.status).toBe(201);
		return res.data as { timeline_id: string; name: string; description: string; created_at: string };
	}

	test('create and list timelines (object shape by default, bare array when configured)', async () => {
		const t = await timeline('Main');
		expect(t).toEqual({ timeline_id: expect.stringMatching(/^tl_/), name: 'Main', description: 'Main line', created_at: expect.any(String) });
		expect((await tl().get('/timelines')).data).toEqual({ timelines: [t] });
		await sandbox.client.configure({ timelinesListShape: 'array' });
		expect((await tl().get('/timelines')).data).toEqual([t]);
	});

	test('create timeline requires name', async () => {
		for (const body of [{}, { name: '' }, { name: 3 }]) {
			const res = await tl().post('/timelines', body);
			expect(res.status).toBe(400);
			expect(res.data.error.field).toBe('name');
		}
		const noDescription = await tl().post('/timelines', { name: 'x' });
		expect(noDescription.data.description).toBeNull();
	});

	test('delete on the singular path; unknown id 404; the id stays inside its segment', async () => {
		const t = await timeline();
		const del = await tl().delete(`/timeline/${encodeURIComponent(t.timeline_id)}`);
		expect(del.status).toBe(200);
		expect(del.data).toMatchObject({ timeline_id: t.timeline_id, deleted: true });
		expect((await tl().get('/timelines')).data.timelines).toEqual([]);
		const again = await tl().delete(`/timeline/${t.timeline_id}`);
		expect(again.status).toBe(404);
		expect(again.data.error).toMatchObject({ code: 'not_found', field: 'timeline_id' });
		expect((await tl().delete('/timelines/x')).status).toBe(404); // only the singular path deletes
		expect((await tl().delete('/timelines')).status).toBe(405);
		const encoded = await rawRequest(sandbox.url, 'DELETE', '/v1/timeline/..%2Ftimelines', { headers: { Authorization: `Bearer ${sandbox.timelineKey}` } });
		expect(encoded.status).toBe(404);
		expect(encoded.json.error.message).toContain("'../timelines'");
		const dotdot = await rawRequest(sandbox.url, 'DELETE', '/v1/timeline/../timelines', { headers: { Authorization: `Bearer ${sandbox.timelineKey}` } });
		expect(dotdot.status).toBe(404);
	});

	test('travels: to a timeline, to an anchor; exactly one id; unknown ids 404', async () => {
		const t = await timeline();
		const toTimeline = await tl().post('/travels', { timeline_id: t.timeline_id, destination_time: T0 });
		expect(toTimeline.status).toBe(201);
		expect(toTimeline.data).toMatchObject({ travel_id: expect.stringMatching(/^trv_/), timeline_id: t.timeline_id, anchor_id: null, status: expect.any(String) });
		expect(Math.abs(Date.parse(toTimeline.data.current_time) - Date.parse(T0))).toBeLessThan(2000);

		const { data: anchor } = await tl().post('/anchors', { timestamp: '2025-05-05T05:05:05Z', description: 'home' });
		await tl().post('/pause-time');
		const back = await tl().post('/travels', { anchor_id: anchor.anchor_id });
		expect(back.data).toMatchObject({ anchor_id: anchor.anchor_id, current_time: '2025-05-05T05:05:05.000Z' });

		const both = await tl().post('/travels', { timeline_id: t.timeline_id, anchor_id: anchor.anchor_id });
		expect(both.status).toBe(400);
		expect(both.data.error.message).toMatch(/exactly one/i);
		const neither = await tl().post('/travels', { destination_time: T0 });
		expect(neither.status).toBe(400);
		expect(neither.data.error.field).toBe('timeline_id');
		expect((await tl().post('/travels', { timeline_id: 'tl_nope' })).status).toBe(404);
		const noAnchor = await tl().post('/travels', { anchor_id: 'anc_nope' });
		expect(noAnchor.status).toBe(404);
		expect(noAnchor.data.error.field).toBe('anchor_id');
		expect((await tl().post('/travels', { timeline_id: t.timeline_id, destination_time: 'soon' })).data.error.field).toBe('destination_time');
	});

	test('items: register with ids; required fields; unknown timeline 404', async () => {
		const t = await timeline();
		const item = await tl().post('/items', { timeline_id: t.timeline_id, name: 'Pocket watch', description: 'brass' });
		expect(item.status).toBe(201);
		expect(item.data).toMatchObject({ item_id: expect.stringMatching(/^itm_/), timeline_id: t.timeline_id, name: 'Pocket watch', description: 'brass', registered_at: expect.any(String) });
		expect((await tl().post('/items', { name: 'x' })).data.error.field).toBe('timeline_id');
		expect((await tl().post('/items', { timeline_id: t.timeline_id })).data.error.field).toBe('name');
		expect((await tl().post('/items', { timeline_id: 'tl_nope', name: 'x' })).status).toBe(404);
	});

	test('events: add, modify, remove with their ids and field rules', async () => {
		const t = await timeline();
		const add = await tl().post('/events', { timeline_id: t.timeline_id, action: 'add', time: T0, description: 'Launch' });
		expect(add.status).toBe(201);
		expect(add.data).toMatchObject({ event_id: expect.stringMatching(/^evt_/), timeline_id: t.timeline_id, action: 'add', event: { time: T0, description: 'Launch' }, paradox: false });
		const id = add.data.event_id;
		const mod = await tl().post('/events', { timeline_id: t.timeline_id, action: 'modify', event_id: id, description: 'Delayed launch', time: plus(T0, HOUR) });
		expect(mod.status).toBe(200);
		expect(mod.data.event).toMatchObject({ event_id: id, description: 'Delayed launch', time: plus(T0, HOUR) });
		const rm = await tl().post('/events', { timeline_id: t.timeline_id, action: 'remove', event_id: id });
		expect(rm.status).toBe(200);
		expect(rm.data).toMatchObject({ event_id: id, action: 'remove' });
		expect((await tl().post('/events', { timeline_id: t.timeline_id, action: 'remove', event_id: id })).status).toBe(404);

		const cases: Array<[object, string]> = [
			[{ action: 'add', time: T0 }, 'timeline_id'],
			[{ timeline_id: t.timeline_id, time: T0 }, 'action'],
			[{ timeline_id: t.timeline_id, action: 'explode', time: T0 }, 'action'],
			[{ timeline_id: t.timeline_id, action: 'add' }, 'time'],
			[{ timeline_id: t.timeline_id, action: 'add', time: 'noon' }, 'time'],
			[{ timeline_id: t.timeline_id, action: 'modify', description: 'x' }, 'event_id'],
			[{ timeline_id: t.timeline_id, action: 'remove' }, 'event_id'],
		];
		for (const [body, field] of cases) {
			const res = await tl().post('/events', body);
			expect([res.status, res.data.error.field]).toEqual([400, field]);
		}
		const other = await tl().post('/events', { timeline_id: t.timeline_id, action: 'add', time: T0 });
		const nothing = await tl().post('/events', { timeline_id: t.timeline_id, action: 'modify', event_id: other.data.event_id });
		expect(nothing.status).toBe(400);
		expect((await tl().post('/events', { timeline_id: 'tl_nope', action: 'add', time: T0 })).status).toBe(404);
	});

	test('anchors: default timestamp now, optional description and timeline', async () => {
		const res = await tl().post('/anchors', {});
		expect(res.status).toBe(201);
		expect(res.data).toMatchObject({ anchor_id: expect.stringMatching(/^anc_/), description: '', timeline_id: null });
		expect(Math.abs(Date.parse(res.data.timestamp) - Date.now())).toBeLessThan(5000);
		const t = await timeline();
		const withTl = await tl().post('/anchors', { timeline_id: t.timeline_id, timestamp: T0, description: 'x' });
		expect(withTl.data).toMatchObject({ timeline_id: t.timeline_id, timestamp: T0 });
		expect((await tl().post('/anchors', { timeline_id: 'tl_nope' })).status).toBe(404);
		expect((await tl().post('/anchors', { timestamp: 12 })).data.error.field).toBe('timestamp');
	});

	describe('paradox rule', () => {
		test('no fixed points: no paradox', async () => {
			const t = await timeline();
			await tl().post('/events', { timeline_id: t.timeline_id, action: 'add', time: '1900-01-01T00:00:00Z' });
			const res = await tl().post('/paradox-checks', { timeline_id: t.timeline_id });
			expect(res.status).toBe(200);
			expect(res.data).toMatchObject({ timeline_id: t.timeline_id, paradox_found: false, paradoxes: [] });
		});

		test('an event added before an anchor of the same timeline is a paradox; after it is not', async () => {
			const t = await timeline();
			const { data: anchor } = await tl().post('/anchors', { timeline_id: t.timeline_id, timestamp: '2020-01-01T00:00:00Z' });
			const later = await tl().post('/events', { timeline_id: t.timeline_id, action: 'add', time: '2021-01-01T00:00:00Z' });
			expect(later.data.paradox).toBe(false);
			expect((await tl().post('/paradox-checks', { timeline_id: t.timeline_id })).data.paradox_found).toBe(false);
			const earlier = await tl().post('/events', { timeline_id: t.timeline_id, action: 'add', time: '2019-01-01T00:00:00Z' });
			expect(earlier.data.paradox).toBe(true);
			const check = await tl().post('/paradox-checks', { timeline_id: t.timeline_id });
			expect(check.data.paradox_found).toBe(true);
			expect(check.data.paradoxes).toEqual([
				expect.objectContaining({
					action: 'add',
					event_id: earlier.data.event_id,
					conflicts_with: { type: 'anchor', id: anchor.anchor_id, time: '2020-01-01T00:00:00.000Z' },
					reason: expect.stringContaining(anchor.anchor_id),
				}),
			]);
		});

		test('modifying or removing an event dated before an item registration is a paradox', async () => {
			const t = await timeline();
			const { data: ev } = await tl().post('/events', { timeline_id: t.timeline_id, action: 'add', time: '2000-01-01T00:00:00Z' });
			const { data: ev2 } = await tl().post('/events', { timeline_id: t.timeline_id, action: 'add', time: '2001-01-01T00:00:00Z' });
			const { data: item } = await tl().post('/items', { timeline_id: t.timeline_id, name: 'Watch' }); // registered now
			const mod = await tl().post('/events', { timeline_id: t.timeline_id, action: 'modify', event_id: ev.event_id, description: 'changed' });
			expect(mod.data.paradox).toBe(true);
			const rm = await tl().post('/events', { timeline_id: t.timeline_id, action: 'remove', event_id: ev2.event_id });
			expect(rm.data.paradox).toBe(true);
			const check = await tl().post('/paradox-checks', { timeline_id: t.timeline_id });
			expect(check.data.paradoxes.map((p: { action: string }) => p.action)).toEqual(['modify', 'remove']);
			expect(check.data.paradoxes[0].conflicts_with).toMatchObject({ type: 'item', id: item.item_id });
		});

		test('moving an event to before an anchor is a paradox', async () => {
			const t = await timeline();
			const { data: ev } = await tl().post('/events', { timeline_id: t.timeline_id, action: 'add', time: '2040-01-01T00:00:00Z' });
			await tl().post('/anchors', { timeline_id: t.timeline_id, timestamp: '2030-01-01T00:00:00Z' });
			const mod = await tl().post('/events', { timeline_id: t.timeline_id, action: 'modify', event_id: ev.event_id, time: '2029-01-01T00:00:00Z' });
			expect(mod.data.paradox).toBe(true);
		});

		test('fixed points of other timelines do not count', async () => {
			const a = await timeline('A');
			const b = await timeline('B');
			await tl().post('/anchors', { timeline_id: a.timeline_id, timestamp: '2030-01-01T00:00:00Z' });
			const res = await tl().post('/events', { timeline_id: b.timeline_id, action: 'add', time: '2000-01-01T00:00:00Z' });
			expect(res.data.paradox).toBe(false);
		});

		test('paradox-checks needs a known timeline_id', async () => {
			expect((await tl().post('/paradox-checks', {})).data.error.field).toBe('timeline_id');
			expect((await tl().post('/paradox-checks', { timeline_id: 'tl_nope' })).status).toBe(404);
		});
	});

	describe('monitor-timeline', () => {
		test('a rewind in the current timeline is reported as an anomaly', async () => {
			const t = await timeline();
			await tl().post('/travels', { timeline_id: t.timeline_id });
			expect((await tl().get('/monitor-timeline', { params: { timeline_id: t.timeline_id } })).data).toEqual({
				timeline_id: t.timeline_id,
				status: expect.any(String),
				anomalies: [],
			});
			const rw = await tl().post('/rewind', { duration: '2h' });
			const res = await tl().get('/monitor-timeline', { params: { timeline_id: t.timeline_id } });
			expect(res.status).toBe(200);
			expect(res.data.anomalies).toEqual([expect.objectContaining({ type: 'rewind', time: rw.data.new_time, description: expect.stringContaining('2h') })]);
		});

		test('a rewind outside any timeline is reported in every timeline; fast-forward is not an anomaly', async () => {
			const a = await timeline('A');
			const b = await timeline('B');
			await tl().post('/fast-forward', { duration: '1d' });
			await tl().post('/rewind', { duration: '1d' });
			for (const t of [a, b]) {
				const res = await tl().get('/monitor-timeline', { params: { timeline_id: t.timeline_id } });
				expect(res.data.anomalies.map((x: { type: string }) => x.type)).toEqual(['rewind']);
			}
		});

		test('paradox-causing manipulations are anomalies', async () => {
			const t = await timeline();
			await tl().post('/anchors', { timeline_id: t.timeline_id, timestamp: '2030-01-01T00:00:00Z' });
			await tl().post('/events', { timeline_id: t.timeline_id, action: 'add', time: '2029-01-01T00:00:00Z' });
			const res = await tl().get('/monitor-timeline', { params: { timeline_id: t.timeline_id } });
			expect(res.data.anomalies).toEqual([expect.objectContaining({ type: 'paradox', time: '2029-01-01T00:00:00.000Z' })]);
		});

		test('timeline_id required (query or GET body), unknown 404', async () => {
			expect((await tl().get('/monitor-timeline')).data.error.field).toBe('timeline_id');
			expect((await tl().get('/monitor-timeline', { params: { timeline_id: 'tl_nope' } })).status).toBe(404);
			const t = await timeline();
			const viaBody = await rawRequest(sandbox.url, 'GET', '/v1/monitor-timeline', {
				headers: { Authorization: `Bearer ${sandbox.timelineKey}` },
				body: JSON.stringify({ timeline_id: t.timeline_id }),
			});
			expect(viaBody.status).toBe(200);
		});
	});
});
