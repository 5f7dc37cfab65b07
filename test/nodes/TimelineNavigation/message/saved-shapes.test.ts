// Saved workflows hold the node's parameters as they were saved. A shape an earlier build
// saved is read as what it meant or refused naming the field; it is never turned into a
// silent default (such as a template sent with no parameters).
import { CUSTOMER, useSandbox } from '../../../support/node-support';
import { listedParameters } from '../../../support/operation-cases';

const ctx = useSandbox({ resource: 'message' });

/** "One by One" as builds before the numbered placeholders saved it: a list of values. */
const earlierList = (values: string[]) => ({ parameter: values.map((value) => ({ value })) });

const sendTemplate = (templateParameters: object, extra: object = {}) => ({
	operation: 'sendTemplate',
	to: CUSTOMER,
	templateId: 'order_update',
	parametersInput: 'list',
	templateParameters,
	...extra,
});

describe('Send Template saved with the earlier "One by One" list (version 1)', () => {
	it('sends the saved values in their saved order', async () => {
		const result = await ctx.run(sendTemplate(earlierList(['Ada', '#1042'])), [{}], { typeVersion: 1 });

		expect(result.error).toBeUndefined();
		expect((await ctx.sentBodies()).map((body) => body.template)).toEqual([
			{ id: 'order_update', parameters: ['Ada', '#1042'] },
		]);
	});

	it('sends the saved fallback list when the window is closed', async () => {
		const result = await ctx.run(
			{
				operation: 'sendText',
				to: CUSTOMER,
				text: 'Hello',
				fallbackToTemplate: true,
				fallbackTemplateId: 'order_update',
				fallbackParametersInput: 'list',
				fallbackTemplateParameters: earlierList(['Ada', '#7']),
			},
			[{}],
			{ typeVersion: 1 },
		);

		expect(result.error).toBeUndefined();
		expect(result.output[0]).toMatchObject({ sent_as: 'template', requested_message_type: 'text' });
		expect((await ctx.sentBodies()).at(-1)?.template).toEqual({ id: 'order_update', parameters: ['Ada', '#7'] });
	});

	it('refuses a list that also has numbered parameters, naming the field, and sends nothing', async () => {
		const both = { ...earlierList(['Ada']), ...listedParameters(['Grace']) };
		const result = await ctx.run(sendTemplate(both), [{}], { typeVersion: 1 });

		expect(result.error?.message).toMatch(/^Invalid Parameters in item 0: got .*expected one form/);
		expect(await ctx.sentBodies()).toEqual([]);
	});

	it('still sends numbered parameters saved at version 1', async () => {
		const result = await ctx.run(sendTemplate(listedParameters(['Ada', '#1042'])), [{}], { typeVersion: 1 });

		expect(result.error).toBeUndefined();
		expect((await ctx.sentBodies())[0].template).toEqual({ id: 'order_update', parameters: ['Ada', '#1042'] });
	});
});

describe('options a saved workflow holds that this version does not offer', () => {
	it('refuses an unknown Parameters Input, naming it, instead of reading it as One by One', async () => {
		const result = await ctx.run(sendTemplate(listedParameters(['Ada']), { parametersInput: 'positional' }), [{}], {
			typeVersion: 1.1,
		});

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
