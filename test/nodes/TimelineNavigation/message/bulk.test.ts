// 1,000 input items in one execution: the service receives exactly 1,000 messages, each
// once, and every output item is paired with the input item it was sent for.
import { useSandbox } from '../../../support/node-support';

const ctx = useSandbox({ resource: 'message' });
const COUNT = 1000;

const phoneOf = (index: number) => `+1415555${String(index).padStart(4, '0')}`;
const textOf = (index: number) => `Order update ${index} for ${phoneOf(index)}`;

it('sends 1,000 items, each exactly once, each output paired to its input', async () => {
	const items = Array.from({ length: COUNT }, (_, index) => ({ index, phone: phoneOf(index) }));
	// Every customer has written in, so each window is open for a free-form text.
	for (let start = 0; start < COUNT; start += 50) {
		await Promise.all(items.slice(start, start + 50).map((item) => ctx.sandbox.client.inbound(item.phone, 'Hi')));
	}

	const result = await ctx.run(
		{
			operation: 'sendText',
			to: '={{ $json.phone }}',
			text: '={{ "Order update " + $json.index + " for " + $json.phone }}',
		},
		items,
	);

	expect(result.error).toBeUndefined();
	const bodies = await ctx.sentBodies();
	expect(bodies).toHaveLength(COUNT);
	const texts = bodies.map((body) => body.text as string);
	expect(new Set(texts).size).toBe(COUNT);
	expect([...texts].sort()).toEqual(items.map((item) => textOf(item.index)).sort());
	for (const body of bodies) {
		const index = Number(/^Order update (\d+) /.exec(body.text as string)?.[1]);
		expect(body.to).toBe(phoneOf(index));
	}

	expect(result.node.items).toHaveLength(COUNT);
	result.node.items.forEach((item, index) => {
		expect(item.pairedItem).toEqual({ item: index });
		expect(item.json.to).toBe(phoneOf(index));
		expect(item.json.text).toBe(textOf(index));
		expect(item.json.message_type).toBe('text');
	});
	const messageIds = new Set(result.output.map((out) => out.message_id));
	expect(messageIds.size).toBe(COUNT);
}, 120_000);
