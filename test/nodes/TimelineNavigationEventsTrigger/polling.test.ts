// The Timeline Navigation Events Trigger's promise, poll by poll, in n8n-core's PollContext against the
// sandbox over HTTP (test/support/harness/poll.ts runs the polls and saves static data as n8n's
// leader main process does, on its classic scheduler or its durable one): every new event or
// anomaly starts the workflow exactly once, across polls, restarts (also after polls that found
// nothing), failed polls and outages; the first activation and Fetch Test Event start nothing; a
// change of what is watched starts afresh.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { COPIES_KEY, MEMORY_KEY } from '../../../nodes/shared/timelineNavigation/trigger/store';
import { hostPoller, type HostedPoller } from '../../support/harness/poll';
import type { HostPollerOptions } from '../../../tools/shared/poller';
import { credentialsFor, useSandbox } from '../../support/node-support';

const TRIGGER = 'n8n-nodes-timeline-navigation.timelineNavigationEventsTrigger';
const t = useSandbox();

const HOUR = 60 * 60 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

async function poller(
	parameters: INodeParameters = { event: 'newEvent', location: 'Alexandria' },
	options: Pick<HostPollerOptions, 'scheduler' | 'pollBudgetMs' | 'staticData'> = {},
): Promise<HostedPoller> {
	return await hostPoller({
		type: TRIGGER,
		parameters,
		nodeCredentials: { timelineNavigationApi: { id: 'tl', name: 'Timeline' } },
		credentials: credentialsFor(t.sandbox),
		...options,
	});
}

const seed = (description: string, at: string, location = 'Alexandria') => t.sandbox.client.seedEvent({ location, time: at, description });
const descriptions = (items: IDataObject[] | null) => (items ?? []).map((item) => item.description);
const monitorCalls = async () => await t.sandbox.client.requests({ path: '/v1/monitor-events' });

describe('New Event at a Location', () => {
	it('remembers what is there at activation and starts nothing; then starts once per new event, oldest first, with its location', async () => {
		await seed('Library opens', ago(5 * HOUR));
		const trigger = await poller();

		expect(await trigger.activate()).toEqual({ started: null });
		expect(await trigger.poll()).toEqual({ started: null });

		await seed('Lighthouse lit', ago(1 * HOUR));
		await seed('Ships arrive', ago(2 * HOUR));
		const found = await trigger.poll();
		expect(found.started).toEqual([
			{ location: 'Alexandria', time: expect.any(String), description: 'Ships arrive' },
			{ location: 'Alexandria', time: expect.any(String), description: 'Lighthouse lit' },
		]);
		expect((await trigger.poll()).started).toBeNull();
		expect(trigger.starts.map(descriptions)).toEqual([['Ships arrive', 'Lighthouse lit']]);

		// Each poll asks for the last 24 hours (the default Look Back), up to the moment of the poll.
		const calls = await monitorCalls();
		expect(calls).toHaveLength(4);
		const [start, end] = String(calls[3].query.time_range).split('/').map(Date.parse);
		expect(calls[3].query.location).toBe('Alexandria');
		expect(end - start).toBe(24 * HOUR);
		expect(Math.abs(end - Date.now())).toBeLessThan(60_000);
	});

	it('starts for an event back-dated into the window, and for a changed one (another time or description is another event)', async () => {
		const moved = await seed('Fleet sails', ago(48 * HOUR));
		const renamed = await seed('Fire', ago(3 * HOUR));
		const trigger = await poller();
		await trigger.activate();

		await t.sandbox.client.modifySeededEvent(moved.seed_id, { time: ago(6 * HOUR) });
		await t.sandbox.client.modifySeededEvent(renamed.seed_id, { description: 'Fire at the library' });
		expect(descriptions((await trigger.poll()).started)).toEqual(['Fleet sails', 'Fire at the library']);
		expect((await trigger.poll()).started).toBeNull();
	});

	it('takes two events of the same time and description at one place as one', async () => {
		const at = ago(HOUR);
		const trigger = await poller();
		await trigger.activate();
		await seed('Bells', at);
		await seed('Bells', at);
		expect(descriptions((await trigger.poll()).started)).toEqual(['Bells']);
	});

	it('with Start With Existing, the first activation starts once for what is there', async () => {
		await seed('Library opens', ago(5 * HOUR));
		await seed('Lighthouse lit', ago(HOUR));
		const trigger = await poller({ event: 'newEvent', location: 'Alexandria', options: { startWithExisting: true } });
		expect(descriptions((await trigger.activate()).started)).toEqual(['Library opens', 'Lighthouse lit']);
		expect((await trigger.poll()).started).toBeNull();
	});

	it('looks back as far as Look Back says, and an event before it is not seen', async () => {
		const trigger = await poller({ event: 'newEvent', location: 'Alexandria', lookBackAmount: 90, lookBackUnit: 'minutes' });
		await trigger.activate();
		await seed('Too old', ago(2 * HOUR));
		await seed('Just in', ago(HOUR));
		expect(descriptions((await trigger.poll()).started)).toEqual(['Just in']);
		const [start, end] = String((await monitorCalls())[1].query.time_range).split('/').map(Date.parse);
		expect(end - start).toBe(90 * 60 * 1000);
	});
});

describe('exactly once across restarts and failures', () => {
	it('after a restart that follows polls which found nothing, starts for what came meanwhile, once', async () => {
		await seed('Library opens', ago(5 * HOUR));
		const trigger = await poller();
		await trigger.activate();
		await trigger.poll();
		await trigger.poll();
		trigger.restart();
		await seed('Came while n8n was down', ago(HOUR));

		expect(descriptions((await trigger.activate('init')).started)).toEqual(['Came while n8n was down']);
		expect((await trigger.poll()).started).toBeNull();
		trigger.restart();
		expect((await trigger.activate('init')).started).toBeNull();
		expect(trigger.starts.map(descriptions)).toEqual([['Came while n8n was down']]);
	});

	it.each([
		['HTTP 503', { kind: 'status', status: 503 }, /failed: the service answered HTTP 503/],
		['HTTP 500', { kind: 'status', status: 500 }, /failed: the service answered HTTP 500/],
		['a dropped connection', { kind: 'drop' }, /failed: the connection was closed before an answer arrived/],
	])('a poll that fails with %s starts nothing, is recorded as an error naming the poll, and the next poll starts what it missed', async (_what, fault, words) => {
		const trigger = await poller();
		await trigger.activate();
		await seed('During the outage', ago(HOUR));
		await t.sandbox.client.injectFault({ ...fault, path: '/v1/monitor-events', count: 1 } as never);

		const failed = await trigger.poll();
		expect(failed.started).toBeNull();
		expect(failed.error?.message).toMatch(new RegExp(`^New events at "Alexandria" ${words.source}`));
		expect(trigger.errors).toHaveLength(1);

		expect(descriptions((await trigger.poll()).started)).toEqual(['During the outage']);
		expect((await trigger.poll()).started).toBeNull();
	});

	it('keeps the service’s own words in the error of a failed poll', async () => {
		const trigger = await poller();
		await trigger.activate();
		await t.sandbox.client.injectFault({ kind: 'status', status: 503, path: '/v1/monitor-events', count: 1 } as never);
		const failed = await trigger.poll();
		expect(failed.error?.message).toMatch(/^New events at "Alexandria" failed: the service answered HTTP 503: \S/);
	});

	it('an activation while the service is down fails, saying so, and remembers nothing', async () => {
		await seed('Library opens', ago(5 * HOUR));
		const trigger = await poller();
		await t.sandbox.client.injectFault({ kind: 'status', status: 503, path: '/v1/monitor-events', count: 1 } as never);
		expect((await trigger.activate()).error?.message).toMatch(/^New events at "Alexandria" failed: the service answered HTTP 503/);
		expect(trigger.savedStaticData()).toEqual({});
		expect((await trigger.activate()).started).toBeNull();
	});
});

describe('Fetch Test Event', () => {
	it('shows the latest event and remembers nothing', async () => {
		await seed('Library opens', ago(5 * HOUR));
		await seed('Lighthouse lit', ago(HOUR));
		const trigger = await poller();
		await trigger.activate();
		const saved = trigger.savedStaticData();
		await seed('Newest', ago(30 * 60 * 1000));

		expect(descriptions((await trigger.fetchTestEvent()).started)).toEqual(['Newest']);
		expect(trigger.savedStaticData()).toEqual(saved);
		expect(descriptions((await trigger.poll()).started)).toEqual(['Newest']);
	});

	it('says there is nothing to show when the window is empty', async () => {
		const trigger = await poller();
		const fetched = await trigger.fetchTestEvent();
		expect(fetched.error?.message).toBe('No event at "Alexandria" in the last 24 hours: nothing to show');
		expect(fetched.error?.description).toMatch(/^Fetch Test Event shows the newest one/);
	});

	it('names the window as set, in the singular for one unit', async () => {
		const trigger = await poller({ event: 'newEvent', location: 'Alexandria', lookBackAmount: 1, lookBackUnit: 'days' });
		expect((await trigger.fetchTestEvent()).error?.message).toBe('No event at "Alexandria" in the last 1 day: nothing to show');
	});
});

describe('what starts afresh', () => {
	it('another location: the first poll for it remembers what is there and starts nothing', async () => {
		await seed('Library opens', ago(5 * HOUR), 'Alexandria');
		await seed('Colossus', ago(5 * HOUR), 'Rhodes');
		const trigger = await poller();
		await trigger.activate();
		trigger.setParameters({ event: 'newEvent', location: 'Rhodes' });
		expect((await trigger.activate()).started).toBeNull();
		await seed('Earthquake', ago(HOUR), 'Rhodes');
		expect(descriptions((await trigger.poll()).started)).toEqual(['Earthquake']);
	});

	it.each(['classic', 'durable'] as const)('a renamed node keeps its memory on the %s scheduler: what came before the rename starts once, nothing older again', async (scheduler) => {
		await seed('There at publication', ago(2 * HOUR));
		const trigger = await poller(undefined, { scheduler });
		await trigger.activate();
		await seed('Came before the first scheduled poll', ago(HOUR));
		trigger.rename('Watch Alexandria');
		// The renamed node's publication poll remembers what it remembered, and starts what came since.
		expect(descriptions((await trigger.activate()).started)).toEqual(['Came before the first scheduled poll']);
		expect((await trigger.poll()).started).toBeNull();
		await seed('Came before the second rename', ago(HOUR / 2));
		trigger.rename('Alexandria, Egypt');
		await trigger.activate();
		expect((await trigger.poll()).started).toBeNull();
		expect(trigger.starts.flatMap(descriptions)).toEqual(['Came before the first scheduled poll', 'Came before the second rename']);
	});
});

describe('New Anomaly in a Timeline', () => {
	const anomalies = (items: IDataObject[] | null) => (items ?? []).map((item) => [item.timeline_id, item.type]);

	it('starts once per new anomaly of the timeline, with the timeline it came from', async () => {
		const timelineId = await t.createTimeline('Main line');
		const trigger = await poller({ event: 'newAnomaly', timelineId: { __rl: true, mode: 'id', value: timelineId } });
		expect((await trigger.activate()).started).toBeNull();

		await t.api('POST', '/rewind', { duration: '2h' });
		expect(anomalies((await trigger.poll()).started)).toEqual([[timelineId, 'rewind']]);
		expect((await trigger.poll()).started).toBeNull();
		await t.api('POST', '/rewind', { duration: '3h' });
		expect(anomalies((await trigger.poll()).started)).toEqual([[timelineId, 'rewind']]);
		expect(trigger.starts).toHaveLength(2);

		const calls = await t.sandbox.client.requests({ path: '/v1/monitor-timeline' });
		expect(calls.map((call) => call.query)).toEqual(Array(4).fill({ timeline_id: timelineId }));
	});

	it('Fetch Test Event shows the latest anomaly, and says so when there is none, naming the timeline as it was picked', async () => {
		const timelineId = await t.createTimeline('Quiet line');
		const trigger = await poller({ event: 'newAnomaly', timelineId: { __rl: true, mode: 'id', value: timelineId } });
		expect((await trigger.fetchTestEvent()).error?.message).toBe(`No anomaly in timeline "${timelineId}": nothing to show`);
		const picked = await poller({ event: 'newAnomaly', timelineId: { __rl: true, mode: 'list', value: timelineId, cachedResultName: 'Quiet line' } });
		expect((await picked.fetchTestEvent()).error?.message).toBe(`No anomaly in timeline "Quiet line" (${timelineId}): nothing to show`);
		await t.api('POST', '/rewind', { duration: '1h' });
		expect(anomalies((await trigger.fetchTestEvent()).started)).toEqual([[timelineId, 'rewind']]);
	});

	it('an answer that once lists fewer anomalies does not make the rest new again', async () => {
		const timelineId = await t.createTimeline('Flapping line');
		const trigger = await poller({ event: 'newAnomaly', timelineId: { __rl: true, mode: 'id', value: timelineId } });
		await trigger.activate();
		await t.api('POST', '/rewind', { duration: '2h' });
		await t.api('POST', '/rewind', { duration: '3h' });
		expect(anomalies((await trigger.poll()).started)).toHaveLength(2);
		// A glitch: the service lists none once (a page cut short), then both again.
		await t.sandbox.client.injectFault({ kind: 'status', status: 200, path: '/v1/monitor-timeline', body: { status: 'ok', anomalies: [] }, count: 1 });
		expect((await trigger.poll()).started).toBeNull();
		expect((await trigger.poll()).started).toBeNull();
		await t.api('POST', '/rewind', { duration: '4h' });
		expect(anomalies((await trigger.poll()).started)).toEqual([[timelineId, 'rewind']]);
		expect(trigger.starts.map((items) => items.length)).toEqual([2, 1]);
	});
});

describe('a service that answers loosely', () => {
	const answerEvents = async (events: IDataObject[], count: number) =>
		await t.sandbox.client.injectFault({ kind: 'status', status: 200, path: '/v1/monitor-events', body: { status: 'ok', events }, count });
	const hourly = { event: 'newEvent', location: 'Alexandria', lookBackAmount: 1, lookBackUnit: 'hours' };

	it('an event from before the window asked for starts nothing, however often the service returns it; new ones still start once', async () => {
		const trigger = await poller(hourly);
		const tooOld = { time: ago(3 * HOUR), description: 'Three hours old' };
		await answerEvents([tooOld], 4);
		await trigger.activate();
		const perPoll = [];
		for (let poll = 0; poll < 3; poll++) perPoll.push(((await trigger.poll()).started ?? []).length);
		expect(perPoll).toEqual([0, 0, 0]);
		await answerEvents([tooOld, { time: ago(10 * 60 * 1000), description: 'Ten minutes old' }], 2);
		expect(descriptions((await trigger.poll()).started)).toEqual(['Ten minutes old']);
		expect((await trigger.poll()).started).toBeNull();
	});

	it('a time without a zone is read as UTC, whatever n8n\'s time zone: the event starts once (TZ=Europe/Berlin)', () => {
		// jest cannot change a test's time zone: the polls run in a process of their own.
		const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'zone-less-process.ts')], {
			env: { ...process.env, TZ: 'Europe/Berlin' },
			encoding: 'utf8',
			timeout: 60_000,
		});
		expect(child.stderr).toBe('');
		const { timeZone, perPoll } = JSON.parse(child.stdout.trim().split('\n').at(-1)!);
		expect(timeZone).toBe('Europe/Berlin');
		expect(perPoll).toEqual([1, 0, 0, 0]);
	});

	it('Fetch Test Event shows the newest event with a time, not one without', async () => {
		const trigger = await poller();
		await answerEvents([{ description: 'No time' }, { time: ago(20 * 60 * 1000), description: 'Twenty minutes ago' }, { time: ago(HOUR), description: 'An hour ago' }, { description: 'No time either' }], 1);
		expect(descriptions((await trigger.fetchTestEvent()).started)).toEqual(['Twenty minutes ago']);
	});
});

describe('outages longer than Look Back', () => {
	const everyMinute = { event: 'newEvent', location: 'Alexandria', lookBackAmount: 1, lookBackUnit: 'minutes' };
	const MINUTE = 60 * 1000;

	/** The static data n8n saved at the last good poll (one that started the workflow), `ago` ms before now (n8n down since). */
	async function savedBefore(agoMs: number): Promise<IDataObject> {
		const first = await poller(everyMinute);
		await first.activate();
		await seed('Before the outage', ago(10_000));
		expect(descriptions((await first.poll()).started)).toEqual(['Before the outage']);
		const saved = first.savedStaticData();
		const memory = (saved[`node:${first.node.name}`] as IDataObject)[MEMORY_KEY] as { answeredUntil: number };
		memory.answeredUntil -= agoMs;
		await t.sandbox.client.clearRequests();
		return saved;
	}
	const askedFrom = async () => Date.parse(String((await monitorCalls()).at(-1)?.query.time_range).split('/')[0]);

	it('the next good poll asks from where the last answered window ended, and starts what came in the gap once', async () => {
		const staticData = await savedBefore(10 * MINUTE);
		const answeredUntil = ((staticData['node:Timeline Navigation Events Trigger'] as IDataObject)[MEMORY_KEY] as { answeredUntil: number }).answeredUntil;
		await seed('During the outage', ago(5 * MINUTE));
		const trigger = await poller(everyMinute, { staticData });
		expect(descriptions((await trigger.activate('init')).started)).toEqual(['During the outage']);
		expect(await askedFrom()).toBe(answeredUntil);
		expect((await trigger.poll()).started).toBeNull();
		expect(Date.now() - (await askedFrom())).toBeLessThan(2 * MINUTE);
	});

	it('reaches back 7 days at most', async () => {
		const staticData = await savedBefore(30 * 24 * HOUR);
		await seed('Eight days ago', ago(8 * 24 * HOUR));
		await seed('Six days ago', ago(6 * 24 * HOUR));
		const trigger = await poller(everyMinute, { staticData });
		expect(descriptions((await trigger.activate('init')).started)).toEqual(['Six days ago']);
		const from = await askedFrom();
		expect(Math.abs(Date.now() - 7 * 24 * HOUR - from)).toBeLessThan(MINUTE);
	});
});

describe('wrong settings fail the activation, naming the field', () => {
	it.each([
		[{ event: 'newEvent', location: '  ' }, 'Invalid Location: got "  ", expected a value: this field is required'],
		[{ event: 'newEvent', location: 'Rome', lookBackAmount: 0 }, 'Invalid Look Back: got 0, expected a whole number of at least 1'],
		[{ event: 'newEvent', location: 'Rome', lookBackUnit: 'weeks' }, 'Invalid Look Back Unit: got "weeks", expected the unit minutes, hours or days'],
		[
			{ event: 'newEvent', location: 'Rome', lookBackAmount: 8, lookBackUnit: 'days' },
			'Invalid Look Back: got "8 days", expected at most 7 days (168 hours or 10,080 minutes): the trigger remembers every event of the window, and n8n reads that memory for every poll',
		],
		[
			{ event: 'newEvent', location: 'Rome', lookBackAmount: 10_081, lookBackUnit: 'minutes' },
			'Invalid Look Back: got "10081 minutes", expected at most 7 days (168 hours or 10,080 minutes): the trigger remembers every event of the window, and n8n reads that memory for every poll',
		],
		[{ event: 'newAnomaly', timelineId: { __rl: true, mode: 'id', value: '' } }, 'Invalid Timeline: got "", expected a value: this field is required'],
		[{ event: 'everything' }, 'Invalid Trigger On: got "everything", expected "newEvent" (New Event at a Location) or "newAnomaly" (New Anomaly in a Timeline)'],
	])('%j', async (parameters, message) => {
		const trigger = await poller(parameters as INodeParameters);
		const outcome = await trigger.activate();
		expect(outcome.error?.message).toBe(message);
		expect(trigger.savedStaticData()[`node:${trigger.node.name}`]).toBeUndefined();
		expect(await t.requests()).toEqual([]);
	});
});

it('keeps its memory in the node’s static data and a copy in the workflow’s, by node ID, under the keys the docs name', async () => {
	await seed('Library opens', ago(HOUR));
	const trigger = await poller();
	await trigger.activate();
	const published = trigger.savedStaticData();
	const memory = (published[`node:${trigger.node.name}`] as IDataObject)[MEMORY_KEY];
	expect(memory).toMatchObject({ subject: 'newEvent|Alexandria|86400000' });
	expect(published.global).toEqual({ [COPIES_KEY]: { [trigger.node.id]: { keptAt: expect.any(Number), memory } } });
	await seed('Lighthouse lit', ago(HOUR / 2));
	expect(descriptions((await trigger.poll()).started)).toEqual(['Lighthouse lit']);
	const saved = trigger.savedStaticData();
	expect(Object.keys(saved[`node:${trigger.node.name}`] as IDataObject)).toEqual([MEMORY_KEY]);
	expect((saved.global as IDataObject)[COPIES_KEY]).toEqual({ [trigger.node.id]: { keptAt: expect.any(Number), memory: (saved[`node:${trigger.node.name}`] as IDataObject)[MEMORY_KEY] } });
});
