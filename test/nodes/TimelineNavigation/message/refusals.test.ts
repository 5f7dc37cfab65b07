// What the messaging service refuses, and what the node makes of it: the closed 24-hour
// window (error, or the template fallback), a business account that is not connected,
// and Continue On Fail keeping the good items of a run.
import type { IDataObject } from 'n8n-workflow';
import { CUSTOMER, useSandbox } from '../../../support/node-support';
import { listedParameters } from '../../../support/operation-cases';

const ctx = useSandbox({ resource: 'message' });
const HOUR = 60 * 60 * 1000;

const text = (extra: IDataObject = {}) => ({ operation: 'sendText', to: CUSTOMER, text: 'Your table is ready', ...extra });
const withFallback = (extra: IDataObject = {}) =>
	text({
		fallbackToTemplate: true,
		fallbackTemplateId: 'welcome_customer',
		fallbackTemplateParameters: listedParameters(['Ada']),
		...extra,
	});

describe('the 24-hour window', () => {
	it('a text while the window is closed fails, says the window is closed and to send a template', async () => {
		const result = await ctx.run(text());

		// One short message; what to do and the service's own words in the description, not twice on screen.
		expect(result.error?.message).toBe(
			'Message → Send Text failed: the 24-hour customer service window for +14155550123 is closed, so a free-form message cannot be sent (HTTP 422)',
		);
		expect(result.error?.description).toMatch(/Use "Send Template", or turn on "Fallback to Template"/);
		expect(result.error?.description).toMatch(/The service said: The 24-hour customer service window for \+14155550123 is closed/);
		expect(result.output).toEqual([]);
		expect(await ctx.sentBodies()).toHaveLength(1);
	});

	it.each([
		['sendMedia', { mediaType: 'image', mediaUrl: 'https://cdn.example.com/a.png' }, 'Send Media'],
		['sendLocation', { latitude: 1, longitude: 2 }, 'Send Location'],
		['sendCustom', { customPayload: '{"type": "poll"}' }, 'Send Custom'],
	])('%s while the window is closed fails the same way', async (operation, fields, label) => {
		const result = await ctx.run({ operation, to: CUSTOMER, ...fields });

		expect(result.error?.message).toMatch(new RegExp(`^Message → ${label} failed: the 24-hour customer service window .* is closed, so a free-form message cannot be sent \\(HTTP 422\\)$`));
		expect(result.error?.description).toMatch(/Use "Send Template"/);
	});

	it('once the customer writes in, the same text is accepted; 24 hours later it is refused again', async () => {
		await ctx.sandbox.client.inbound(CUSTOMER, 'Is my table ready?');
		const open = await ctx.run(text());
		expect(open.error).toBeUndefined();
		expect(open.output[0]).toMatchObject({ to: CUSTOMER, message_type: 'text', sent_as: 'text', text: 'Your table is ready' });

		await ctx.sandbox.client.advanceClock(24 * HOUR);
		const closed = await ctx.run(text());
		expect(closed.error?.message).toMatch(/24-hour customer service window for \+14155550123 is closed/);
	});

	it('recognises a window refusal by the service message alone (the real error codes are unknown)', async () => {
		await ctx.sandbox.client.injectFault({
			kind: 'status',
			status: 400,
			method: 'POST',
			path: '/v1/messages',
			body: { message: 'Message failed to send because more than 24 hours have passed since the customer last replied' },
		});
		const result = await ctx.run(text());

		expect(result.error?.message).toMatch(/24-hour customer service window for \+14155550123 is closed, so a free-form message cannot be sent \(HTTP 400\)$/);
		expect(result.error?.description).toMatch(/The service said: Message failed to send because more than 24 hours/);
	});
});

describe('Fallback to Template', () => {
	it('sends the named template instead, and the output says so', async () => {
		const result = await ctx.run(withFallback());

		expect(result.error).toBeUndefined();
		expect(await ctx.sentBodies()).toEqual([
			{ channel: 'chatapp', to: CUSTOMER, message_type: 'text', text: 'Your table is ready' },
			{
				channel: 'chatapp',
				to: CUSTOMER,
				message_type: 'template',
				template: { id: 'welcome_customer', parameters: ['Ada'] },
			},
		]);
		const [out] = result.output;
		expect(out).toMatchObject({
			to: CUSTOMER,
			message_type: 'template',
			sent_as: 'template',
			requested_message_type: 'text',
			template: { id: 'welcome_customer', parameters: ['Ada'] },
		});
		expect(out.fallback_reason).toMatch(/^Template "welcome_customer" was sent instead of the text message: the 24-hour customer service window for \+14155550123 is closed\./);
		expect(out.text).toBeUndefined();
		const stored = await ctx.sandbox.client.message(out.message_id as string);
		expect(stored.message_type).toBe('template');
		expect(stored.text).toBe('Hi Ada, welcome! We are glad to have you.');
	});

	it('after the customer writes in, the text itself is sent and no fallback happens', async () => {
		await ctx.sandbox.client.inbound(CUSTOMER, 'Hi!');
		const result = await ctx.run(withFallback());

		expect(result.error).toBeUndefined();
		expect(await ctx.sentBodies()).toEqual([
			{ channel: 'chatapp', to: CUSTOMER, message_type: 'text', text: 'Your table is ready' },
		]);
		expect(result.output[0]).toMatchObject({ message_type: 'text', sent_as: 'text' });
		expect(result.output[0].fallback_reason).toBeUndefined();
	});

	it('takes the fallback parameters from an expression array, for a media message', async () => {
		const result = await ctx.run(
			{
				operation: 'sendMedia',
				to: CUSTOMER,
				mediaType: 'image',
				mediaUrl: 'https://cdn.example.com/a.png',
				fallbackToTemplate: true,
				fallbackTemplateId: 'order_update',
				fallbackParametersInput: 'array',
				fallbackTemplateParametersArray: '={{ $json.params }}',
			},
			[{ params: ['Ada', '#1042'] }],
		);

		expect(result.error).toBeUndefined();
		const bodies = await ctx.sentBodies();
		expect(bodies.map((body) => body.message_type)).toEqual(['image', 'template']);
		expect(bodies[1].template).toEqual({ id: 'order_update', parameters: ['Ada', '#1042'] });
		expect(result.output[0]).toMatchObject({ sent_as: 'template', requested_message_type: 'image' });
	});

	it('explains it when the service also rejects the fallback template', async () => {
		const result = await ctx.run(withFallback({ fallbackTemplateId: 'order_update' }));

		expect(await ctx.sentBodies()).toHaveLength(2);
		expect(result.error?.message).toMatch(
			/Message → Send Text \(fallback template "order_update"\) failed: the service rejected template "order_update": a parameter is missing/,
		);
	});

	it('does not fall back for other failures: a server error fails the item and nothing else is sent', async () => {
		await ctx.sandbox.client.injectFault({ kind: 'status', status: 500, method: 'POST', path: '/v1/messages' });
		const result = await ctx.run(withFallback());

		expect(result.error?.message).toMatch(/Message → Send Text failed: the service answered HTTP 500/);
		expect(await ctx.sentBodies()).toHaveLength(1);
	});
});

describe('business account not connected', () => {
	beforeEach(async () => {
		await ctx.sandbox.client.setBusinessConnected(false);
	});

	it('a template send fails saying so in plain words, with the service message attached', async () => {
		const result = await ctx.run({
			operation: 'sendTemplate',
			to: CUSTOMER,
			templateId: 'welcome_customer',
			templateParameters: listedParameters(['Ada']),
		});

		expect(result.error?.message).toBe(
			'Message → Send Template failed: the business account is not connected to the chat-app channel, so nothing can be sent (HTTP 403)',
		);
		expect(result.error?.description).toMatch(/^Connect a business account.*The service said: Business account not connected/);
	});

	it('a text with the fallback on fails the same way and sends no template', async () => {
		const result = await ctx.run(withFallback());

		expect(result.error?.message).toMatch(/the business account is not connected to the chat-app channel/);
		expect(await ctx.sentBodies()).toHaveLength(1);
	});
});

describe('Continue On Fail', () => {
	it('keeps the good items and turns each bad one into an error item paired with its input', async () => {
		const items = [
			{ phone: '+14155550101', params: ['Ada'] },
			{ phone: 'not a number', params: ['Bob'] },
			{ phone: '+14155550103', params: [] },
			{ phone: '+1 415 555 0104', params: ['Dee'] },
		];
		const result = await ctx.run(
			{
				operation: 'sendTemplate',
				to: '={{ $json.phone }}',
				templateId: 'welcome_customer',
				parametersInput: 'array',
				templateParametersArray: '={{ $json.params }}',
			},
			items,
			{ continueOnFail: true },
		);

		expect(result.error).toBeUndefined();
		expect(result.node.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		const [first, second, third, fourth] = result.output;
		expect(first).toMatchObject({ to: '+14155550101', message_type: 'template' });
		expect(second.error).toMatch(/Invalid To in item 1: got "not a number"/);
		expect(third.error).toMatch(/rejected template "welcome_customer": a parameter is missing/);
		expect(fourth).toMatchObject({ to: '+14155550104', message_type: 'template' });
		// The bad number was never sent; the other three were, each once.
		expect((await ctx.sentBodies()).map((body) => body.to).sort()).toEqual([
			'+14155550101',
			'+14155550103',
			'+14155550104',
		]);
	});

	it('without it, the run stops with the error of the failing item', async () => {
		const result = await ctx.run(text({ to: '={{ $json.phone }}' }), [{ phone: '123' }]);

		expect(result.error?.message).toMatch(/Invalid To in item 0: got "123"/);
		expect(result.output).toEqual([]);
	});
});
