// The Timeline Navigation Events Trigger on both of n8n's schedulers (tools/shared/poller.ts models
// each as n8n 2.41.1 runs it): the classic one, and the durable one (on by default from n8n 2.45
// by n8n's docs), which commits the poll's cursor with the run it starts or after a scheduled poll
// that found nothing, but never after the poll it runs at publication, runs no poll at a restart,
// and gives each scheduled poll about 36 s.
import type { IDataObject } from 'n8n-workflow';
import { MEMORY_KEY } from '../../../nodes/shared/timelineNavigation/trigger/store';
import type { HostPollerOptions } from '../../../tools/shared/poller';
import { hostPoller, type HostedPoller } from '../../support/harness/poll';
import { credentialsFor, useSandbox } from '../../support/node-support';

const TRIGGER = 'n8n-nodes-timeline-navigation.timelineNavigationEventsTrigger';
const t = useSandbox();

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const seed = (description: string, at: string) => t.sandbox.client.seedEvent({ location: 'Alexandria', time: at, description });
const descriptions = (items: IDataObject[] | null) => (items ?? []).map((item) => item.description);

async function poller(parameters: IDataObject, options: Pick<HostPollerOptions, 'scheduler' | 'pollBudgetMs'>): Promise<HostedPoller> {
	return await hostPoller({
		type: TRIGGER,
		parameters: parameters as never,
		nodeCredentials: { timelineNavigationApi: { id: 'tl', name: 'Timeline' } },
		credentials: credentialsFor(t.sandbox),
		...options,
	});
}

describe.each(['classic', 'durable'] as const)("on n8n's %s scheduler", (scheduler) => {
	it('publication remembers what is there; each event after it starts once: before the first scheduled poll, back-dated, across a republication, a restart and a failed poll', async () => {
		await seed('Library opens', ago(5 * HOUR));
		await seed('Lighthouse lit', ago(HOUR));
		const trigger = await poller({ event: 'newEvent', location: 'Alexandria' }, { scheduler });
		expect(await trigger.activate()).toEqual({ started: null });

		// Before n8n's first scheduled poll: the durable scheduler kept nothing of the publication's poll.
		await seed('Before the first scheduled poll', ago(10 * MINUTE));
		expect(descriptions((await trigger.poll()).started)).toEqual(['Before the first scheduled poll']);
		if (scheduler === 'durable') expect(trigger.committedCursor()?.[MEMORY_KEY]).toMatchObject({ subject: 'newEvent|Alexandria|86400000' });
		expect((await trigger.poll()).started).toBeNull();

		await seed('Back-dated three hours', ago(3 * HOUR));
		expect(descriptions((await trigger.poll()).started)).toEqual(['Back-dated three hours']);

		// Unpublished, then published again: what came meanwhile starts once.
		trigger.deactivate();
		await seed('While unpublished', ago(20 * MINUTE));
		await trigger.activate();
		await trigger.poll();

		// n8n restarts (the classic scheduler polls at start-up, the durable one at its next poll).
		trigger.restart();
		await seed('While n8n was down', ago(5 * MINUTE));
		await trigger.activate('init');
		await trigger.poll();

		// A failed poll, then a good one.
		await t.sandbox.client.injectFault({ kind: 'status', status: 503, path: '/v1/monitor-events', count: 1 });
		await seed('During the failed poll', ago(2 * MINUTE));
		expect((await trigger.poll()).error?.message).toMatch(/^New events at "Alexandria" failed: the service answered HTTP 503/);
		expect(descriptions((await trigger.poll()).started)).toEqual(['During the failed poll']);
		expect((await trigger.poll()).started).toBeNull();

		expect(trigger.starts.flatMap(descriptions)).toEqual([
			'Before the first scheduled poll',
			'Back-dated three hours',
			'While unpublished',
			'While n8n was down',
			'During the failed poll',
		]);
	});

	it('a new anomaly after publication starts once, also before the first scheduled poll', async () => {
		const timelineId = await t.createTimeline('Main line');
		await t.api('POST', '/rewind', { duration: '1h' });
		const trigger = await poller({ event: 'newAnomaly', timelineId: { __rl: true, mode: 'id', value: timelineId } }, { scheduler });
		expect(await trigger.activate()).toEqual({ started: null });
		await t.api('POST', '/rewind', { duration: '2h' });
		expect((await trigger.poll()).started).toHaveLength(1);
		expect((await trigger.poll()).started).toBeNull();
		trigger.restart();
		await trigger.activate('init');
		expect((await trigger.poll()).started).toBeNull();
		expect(trigger.starts).toHaveLength(1);
	});

	it('with Start With Existing, publication starts once for what is there', async () => {
		await seed('Library opens', ago(5 * HOUR));
		const trigger = await poller({ event: 'newEvent', location: 'Alexandria', options: { startWithExisting: true } }, { scheduler });
		expect(descriptions((await trigger.activate()).started)).toEqual(['Library opens']);
		expect((await trigger.poll()).started).toBeNull();
	});
});

describe('within the time the durable scheduler gives a poll', () => {
	it('a 429 asking for a longer wait is not waited for: the poll fails at once, saying why, and tells n8n when to ask again', async () => {
		const trigger = await poller({ event: 'newEvent', location: 'Alexandria' }, { scheduler: 'durable', pollBudgetMs: 3000 });
		await trigger.activate();
		await t.sandbox.client.injectFault({ kind: 'status', status: 429, retryAfter: 5, path: '/v1/monitor-events', count: 1 });
		const before = (await t.sandbox.client.requests({ path: '/v1/monitor-events' })).length;
		const failed = await trigger.poll();
		expect(failed.error?.message).toMatch(
			/^New events at "Alexandria" failed: the service answered HTTP 429: .*\(not retried: the service asked to wait 5 s, past the end of the 3 s n8n gives a poll\)$/,
		);
		expect((failed.error as unknown as { failure?: unknown }).failure).toEqual({ cause: 'rate-limited', retryAfterMs: 5000 });
		expect((await t.sandbox.client.requests({ path: '/v1/monitor-events' })).length - before).toBe(1);

		// A wait that fits is waited for, and the event is not missed.
		await t.sandbox.client.injectFault({ kind: 'status', status: 429, retryAfter: 1, path: '/v1/monitor-events', count: 1 });
		await seed('After the rate limit', ago(MINUTE));
		expect(descriptions((await trigger.poll()).started)).toEqual(['After the rate limit']);
	});
});
