// What `npm start` seeds in the sandbox. The timeline: the editor's timeline picker lists it, and
// its anchor and item are fixed points of it, so an event added before them is reported as a
// paradox. The contacts: Ada has just written in, so a first text or Send and Wait to her goes
// out; Grace has not, for trying Fallback to Template (the README names her).
import { runListSearch } from '../../support/harness';
import { EXAMPLE_DATA, seedDemo, seedDemoTimeline } from '../../../tools/n8n/examples';
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

describe("npm start's contacts", () => {
	const HOUR = 3600_000;
	const [ada, grace] = EXAMPLE_DATA.contacts;
	const text = (to: string) => ({ resource: 'message', operation: 'sendText', to, text: 'Hi {first_name}, your refund is on its way.' });

	it('Ada wrote in at the start, before n8n listened (no webhook went out for it): her window is open for the next 24 hours; Grace\'s is closed', async () => {
		const before = Date.now();
		await t.sandbox.client.setWebhook('http://127.0.0.1:9/nobody-listens');
		await seedDemo(t.sandbox);
		expect(await t.sandbox.client.webhookDeliveries()).toEqual([]);
		expect(EXAMPLE_DATA.openWindow.phone).toBe(ada.phone);
		expect(EXAMPLE_DATA.closedWindowPhone).toBe(grace.phone);
		const adaWindow = await t.sandbox.client.window(ada.phone);
		expect(adaWindow.open).toBe(true);
		expect(Date.parse(adaWindow.closesAt!)).toBeGreaterThanOrEqual(before + 24 * HOUR);
		expect(await t.sandbox.client.window(grace.phone)).toEqual({ phone: grace.phone, open: false, closesAt: null });
	});

	it('half a day into the demo, a text to Ada goes out as written; one to Grace is refused for her closed window', async () => {
		await seedDemo(t.sandbox);
		await t.sandbox.client.advanceClock(12 * HOUR);

		const toAda = await t.run(text(ada.phone));
		expect(toAda.error).toBeUndefined();
		const [sent] = await t.sandbox.client.messages({ phone: ada.phone }).then((all) => all.filter((m) => m.direction === 'outbound'));
		expect(sent.text).toBe('Hi Ada, your refund is on its way.');

		const toGrace = await t.run(text(grace.phone));
		expect(toGrace.error?.message).toMatch(/24-hour customer service window for \+15551234567 is closed/);
	});
});
