// Item resource: Register (POST /items).
import { byId, sent, useSandbox } from '../../support/node-support';

const t = useSandbox();

const register = (fields: Record<string, unknown>) => ({ resource: 'item', operation: 'register', ...fields });

describe('Item → Register (POST /items)', () => {
	it('sends timeline_id, name, description and extra fields, and outputs the registered item', async () => {
		const id = await t.createTimeline('Prime');
		const result = await t.run(
			register({
				timelineId: { __rl: true, mode: 'list', value: id, cachedResultName: 'Prime' },
				name: 'Pocket watch',
				description: 'Brass, stopped at noon',
				additionalFields: { extraBody: '{"weight_g": 80}' },
			}),
		);
		expect(result.node.error).toBeUndefined();
		expect(result.output).toEqual([
			{
				item_id: expect.stringMatching(/^itm_/),
				timeline_id: id,
				name: 'Pocket watch',
				description: 'Brass, stopped at noon',
				registered_at: expect.any(String),
				created_at: expect.any(String),
				status: 'Item Pocket watch registered.',
			},
		]);
		expect((await t.requests()).map(sent)).toEqual([
			{
				method: 'POST',
				path: '/v1/items',
				query: {},
				body: { timeline_id: id, name: 'Pocket watch', description: 'Brass, stopped at noon', weight_g: 80 },
			},
		]);
	});

	it('registers one item per input item from expressions', async () => {
		const id = await t.createTimeline('Prime');
		const result = await t.run(register({ timelineId: byId('={{ $json.timeline }}'), name: '={{ $json.name }}' }), [
			{ timeline: id, name: 'Key' },
			{ timeline: id, name: 'Map' },
		]);
		expect(result.output.map((json) => json.name)).toEqual(['Key', 'Map']);
		expect(result.node.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		const bodies = (await t.requests()).map((request) => request.body);
		expect(bodies).toHaveLength(2);
		expect(bodies).toEqual(expect.arrayContaining([{ timeline_id: id, name: 'Key' }, { timeline_id: id, name: 'Map' }]));
	});

	it.each([
		['Name', { timelineId: byId('tl_1'), name: '={{ $json.none }}' }, /^Invalid Name in item 0: got nothing, expected a value/],
		['Timeline', { timelineId: byId('={{ null }}'), name: 'Key' }, /^Invalid Timeline in item 0: got null, expected an ID/],
	])('refuses a missing %s before any request', async (_field, fields, message) => {
		const result = await t.run(register(fields));
		expect(result.node.error?.message).toMatch(message);
		expect(await t.requests()).toEqual([]);
	});

	it('surfaces a 404 for an unknown timeline', async () => {
		const result = await t.run(register({ timelineId: byId('tl_void'), name: 'Key' }));
		expect(result.node.error?.message).toBe("Item → Register failed: the service answered HTTP 404: No timeline with timeline_id 'tl_void' exists.");
		expect((await t.requests()).map((request) => request.body)).toEqual([{ timeline_id: 'tl_void', name: 'Key' }]);
	});
});
