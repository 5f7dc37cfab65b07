// Saved workflows hold the node's parameters as they were saved. An option value this version
// does not offer (saved by another version, or given by an expression) is refused naming the
// field; it is never turned into a silent default (such as a template sent with no parameters).
import { CUSTOMER, useSandbox } from '../../../support/node-support';
import { listedParameters } from '../../../support/operation-cases';

const ctx = useSandbox({ resource: 'message' });

const sendTemplate = (templateParameters: object, extra: object = {}) => ({
	operation: 'sendTemplate',
	to: CUSTOMER,
	templateId: 'order_update',
	parametersInput: 'list',
	templateParameters,
	...extra,
});

describe('options a saved workflow holds that this version does not offer', () => {
	it('refuses an unknown Parameters Input, naming it, instead of reading it as One by One', async () => {
		const result = await ctx.run(sendTemplate(listedParameters(['Ada']), { parametersInput: 'positional' }));

		expect(result.error?.message).toBe(
			'Invalid Parameters Input in item 0: got "positional", expected one of "array" (From an Array), "list" (One by One)',
		);
		expect(await ctx.sentBodies()).toEqual([]);
	});

	it('refuses an unknown Output choice of Event → Monitor, naming it', async () => {
		const result = await ctx.run({
			resource: 'event',
			operation: 'monitor',
			location: 'Alexandria, Egypt',
			rangeStart: '2026-01-01T00:00:00Z',
			rangeEnd: '2026-01-02T00:00:00Z',
			outputMode: 'flat',
		});

		expect(result.error?.message).toMatch(/^Invalid Output in item 0: got "flat", expected one of "split" \(One Item per Event\), "response"/);
	});

	it('refuses an unknown Data to Send, naming it, instead of reading the fields below', async () => {
		const result = await ctx.run({ operation: 'sendText', dataToSend: 'autoMap', to: CUSTOMER, text: 'Hi' });

		expect(result.error?.message).toMatch(/^Invalid Data to Send in item 0: got "autoMap", expected one of "defineBelow"/);
		expect(await ctx.sentBodies()).toEqual([]);
	});
});
