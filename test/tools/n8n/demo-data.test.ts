// The timeline `npm start` seeds: the editor's timeline picker lists it, and its anchor and item
// are fixed points of it, so an event added before them is reported as a paradox.
import { runListSearch } from '../../support/harness';
import { EXAMPLE_DATA, seedDemoTimeline } from '../../../tools/n8n/examples';
import { byId, NODE_TYPE, nodeCredentialsFor, useSandbox } from '../../support/node-support';

const t = useSandbox();

describe("npm start's seeded timeline", () => {
	it('is listed by the timeline picker, by name', async () => {
		const { timelineId } = await seedDemoTimeline(t.sandbox);
		const listed = await runListSearch({
			nodeType: NODE_TYPE,
			method: 'searchTimelines',
			nodeCredentials: nodeCredentialsFor('timeline'),
			credentials: t.credentials,
			parameters: { resource: 'item', operation: 'register' },
		});
		expect(listed).toEqual({ results: [{ name: EXAMPLE_DATA.timeline.name, value: timelineId }] });
	});

	it('holds the anchor and the item: an event added before them is a paradox with each', async () => {
		const { timelineId, anchorId, itemId } = await seedDemoTimeline(t.sandbox);
		const added = await t.run({
			resource: 'event',
			operation: 'manipulate',
			timelineId: byId(timelineId),
			eventAction: 'add',
			eventTime: '2000-01-01T00:00:00Z',
			description: 'Meddling with the past',
		});
		expect(added.node.error).toBeUndefined();

		const checked = await t.run({ resource: 'timeline', operation: 'checkParadoxes', timelineId: byId(timelineId) });
		expect(checked.node.error).toBeUndefined();
		const conflicts = (checked.output[0].paradoxes as Array<{ conflicts_with: { type: string; id: string } }>).map(
			(paradox) => paradox.conflicts_with,
		);
		expect(conflicts).toEqual(
			expect.arrayContaining([expect.objectContaining({ type: 'anchor', id: anchorId }), expect.objectContaining({ type: 'item', id: itemId })]),
		);
	});
});
