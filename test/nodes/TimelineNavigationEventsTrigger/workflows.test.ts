// The Timeline Navigation Events Trigger as users combine it: several in one workflow, their polls
// at the same moment (n8n runs a publication's polls side by side, and scheduled ones meet), on both
// of n8n's schedulers (tools/shared/poller.ts models each as n8n 2.41.1 runs it); a trigger renamed
// or deleted; a poll that starts while the previous one of the same trigger still runs; the static
// data at the longest Look Back.
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { MAX_LOOK_BACK_MS } from '../../../nodes/shared/timelineNavigation/trigger/memory';
import { COPIES_KEY, COPY_KEPT_MS, MEMORY_KEY } from '../../../nodes/shared/timelineNavigation/trigger/store';
import type { HostWorkflowOptions } from '../../../tools/shared/poller';
import { hostWorkflow, type HostedWorkflow } from '../../support/harness/poll';
import { credentialsFor, useSandbox } from '../../support/node-support';

const TRIGGER = 'n8n-nodes-timeline-navigation.timelineNavigationEventsTrigger';
const t = useSandbox();

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const descriptions = (runs: IDataObject[][]) => runs.map((items) => items.map((item) => item.description));
const eventsAt = (location: string): INodeParameters => ({ event: 'newEvent', location });
const anomaliesIn = (timelineId: string): INodeParameters => ({ event: 'newAnomaly', timelineId: { __rl: true, mode: 'id', value: timelineId } });

async function workflowOf(triggers: Array<{ name: string; parameters: INodeParameters }>, options: Omit<HostWorkflowOptions, 'triggers'> = {}): Promise<HostedWorkflow> {
	return await hostWorkflow({
		triggers: triggers.map(({ name, parameters }, index) => ({
			type: TRIGGER,
			name,
			id: `node-${index + 1}`,
			parameters,
			nodeCredentials: { timelineNavigationApi: { id: 'tl', name: 'Timeline' } },
		})),
		credentials: credentialsFor(t.sandbox),
		...options,
	});
}

const seed = async (location: string, description: string, msAgo: number) => await t.sandbox.client.seedEvent({ location, time: ago(msAgo), description });
const anomaly = async (timelineId: string, description: string) => await t.sandbox.client.addAnomaly({ timelineId, description, time: ago(HOUR) });

describe.each(['classic', 'durable'] as const)("on n8n's %s scheduler", (scheduler) => {
	it('an event trigger and an anomaly trigger in one workflow, polled at the same moment: each new item starts once', async () => {
		const timelineId = await t.createTimeline('Watched beside events');
		await seed('Alexandria', 'There at publication', HOUR);
		await anomaly(timelineId, 'An anomaly there at publication');
		const workflow = await workflowOf([
			{ name: 'New Event', parameters: eventsAt('Alexandria') },
			{ name: 'New Anomaly', parameters: anomaliesIn(timelineId) },
		], { scheduler });
		expect(await workflow.activate()).toEqual({ 'New Event': { started: null }, 'New Anomaly': { started: null } });

		await seed('Alexandria', 'A new event', 10 * MINUTE);
		await anomaly(timelineId, 'A new anomaly');
		await workflow.poll();
		await workflow.poll();
		expect(descriptions(workflow.starts['New Event'])).toEqual([['A new event']]);
		expect(descriptions(workflow.starts['New Anomaly'])).toEqual([['A new anomaly']]);

		// A restart, then the same at the next polls: nothing again, and the next new ones once.
		workflow.restart();
		await workflow.activate('init');
		await seed('Alexandria', 'After the restart', 5 * MINUTE);
		await anomaly(timelineId, 'An anomaly after the restart');
		await workflow.poll();
		await workflow.poll();
		expect(descriptions(workflow.starts['New Event'])).toEqual([['A new event'], ['After the restart']]);
		expect(descriptions(workflow.starts['New Anomaly'])).toEqual([['A new anomaly'], ['An anomaly after the restart']]);
	});

	it('three event triggers at three locations in one workflow: each new event starts once, at its own trigger', async () => {
		const places = ['Rhodes', 'Pharos', 'Memphis'];
		for (const place of places) await seed(place, `There at ${place}`, HOUR);
		const workflow = await workflowOf(places.map((place) => ({ name: `Events at ${place}`, parameters: eventsAt(place) })), { scheduler });
		await workflow.activate();
		for (const place of places) await seed(place, `New at ${place}`, 10 * MINUTE);
		await workflow.poll();
		await workflow.poll();
		for (const place of places) expect(descriptions(workflow.starts[`Events at ${place}`])).toEqual([[`New at ${place}`]]);
	});

	it('a trigger renamed between publication and its first scheduled poll keeps its memory, beside another trigger', async () => {
		await seed('Rhodes', 'There at Rhodes', HOUR);
		await seed('Pharos', 'There at Pharos', HOUR);
		const workflow = await workflowOf([
			{ name: 'Rhodes', parameters: eventsAt('Rhodes') },
			{ name: 'Pharos', parameters: eventsAt('Pharos') },
		], { scheduler });
		await workflow.activate();
		await seed('Rhodes', 'New at Rhodes', 10 * MINUTE);
		workflow.rename('Rhodes', 'Events at Rhodes');
		await workflow.activate();
		await workflow.poll();
		expect(descriptions(workflow.starts['Events at Rhodes'])).toEqual([['New at Rhodes']]);
		expect(workflow.starts.Pharos).toEqual([]);
	});

	it('two polls of one trigger at once (a slow answer, short Poll Times): the second does nothing, and the event starts once', async () => {
		const workflow = await workflowOf([{ name: 'Slow', parameters: eventsAt('Knossos') }], { scheduler });
		await workflow.activate();
		await seed('Knossos', 'One event', 10 * MINUTE);
		await t.sandbox.client.injectFault({ kind: 'delay', delayMs: 1500, path: '/v1/monitor-events', count: 1 });
		const before = (await t.sandbox.client.requests({ path: '/v1/monitor-events' })).length;
		await Promise.all([workflow.poll(), new Promise((resolve) => setTimeout(resolve, 200)).then(async () => await workflow.poll())]);
		expect((await t.sandbox.client.requests({ path: '/v1/monitor-events' })).length - before).toBe(1);
		expect(descriptions(workflow.starts.Slow)).toEqual([['One event']]);
		await workflow.poll();
		expect(descriptions(workflow.starts.Slow)).toEqual([['One event']]);
	});
});

describe('copies of triggers no longer in the workflow', () => {
	it(`a deleted trigger's copy is dropped by another trigger's poll once ${COPY_KEPT_MS / DAY} days old; a younger one stays`, async () => {
		const memory = { subject: 'newEvent|Gone|86400000', hours: {}, untimed: '', answeredUntil: Date.now() - 40 * DAY };
		const staticData = {
			global: {
				[COPIES_KEY]: {
					deleted: { keptAt: Date.now() - COPY_KEPT_MS - HOUR, memory },
					'recently deleted': { keptAt: Date.now() - COPY_KEPT_MS + HOUR, memory },
				},
			},
		};
		const workflow = await workflowOf([{ name: 'Stays', parameters: eventsAt('Delos') }], { staticData });
		await workflow.activate();
		const copies = (workflow.savedStaticData().global as IDataObject)[COPIES_KEY] as IDataObject;
		expect(Object.keys(copies).sort()).toEqual(['node-1', 'recently deleted']);
	});

	it('removing a trigger from the workflow leaves the other its memory, and nothing starts twice', async () => {
		await seed('Delos', 'There at Delos', HOUR);
		await seed('Naxos', 'There at Naxos', HOUR);
		const workflow = await workflowOf([
			{ name: 'Delos', parameters: eventsAt('Delos') },
			{ name: 'Naxos', parameters: eventsAt('Naxos') },
		]);
		await workflow.activate();
		await seed('Naxos', 'New at Naxos', 10 * MINUTE);
		workflow.remove('Delos');
		await workflow.activate();
		await workflow.poll();
		await workflow.poll();
		expect(descriptions(workflow.starts.Naxos)).toEqual([['New at Naxos']]);
	});
});

it('at the longest Look Back (7 days) with 1,000 events a day, the static data is about 130,000 characters', async () => {
	// 7,000 events, one every 86.4 s, answered by the service as one listing.
	const events = Array.from({ length: 7000 }, (_, index) => ({ time: ago(index * 86_400 + 1000), description: `Event ${index} at the lighthouse` }));
	await t.sandbox.client.injectFault({ kind: 'status', status: 200, path: '/v1/monitor-events', body: { status: 'ok', events }, count: 2 });
	const workflow = await workflowOf([{ name: 'Busy', parameters: { ...eventsAt('Pharos'), lookBackAmount: 7, lookBackUnit: 'days' } }]);
	await workflow.activate();
	const saved = workflow.savedStaticData();
	const memory = (saved['node:Busy'] as IDataObject)[MEMORY_KEY] as { hours: Record<string, string> };
	expect(Object.values(memory.hours).join('').length / 9).toBe(7000);
	const characters = JSON.stringify(saved).length;
	// The memory (9 characters an event, plus its hours) and its copy in the workflow's static data.
	expect(characters).toBeGreaterThan(2 * 7000 * 9);
	expect(characters).toBeGreaterThan(125_000);
	expect(characters).toBeLessThan(135_000);
	console.log(`static data at Look Back 7 days with 7,000 events: ${characters.toLocaleString('en')} characters`);
	expect(MAX_LOOK_BACK_MS).toBe(7 * DAY);
});
