// "Data to Send: Map Automatically": every send takes its message from fields of the input item
// with documented names (to, text, template_id, parameters, ...) instead of expressions, with the
// same checks as the fields below; an error names the input field and the item.
import type { IDataObject } from 'n8n-workflow';
import { CUSTOMER, useSandbox } from '../../../support/node-support';

const ctx = useSandbox({ resource: 'message', dataToSend: 'autoMapInputData' });

const OTHER = '+14155550199';

beforeEach(async () => {
	// Free-form sends need an open 24-hour window.
	await ctx.sandbox.client.inbound(CUSTOMER, 'Hi');
	await ctx.sandbox.client.inbound(OTHER, 'Hi');
});

async function expectRefused(parameters: IDataObject, items: IDataObject[], message: RegExp | string, description?: RegExp) {
	const result = await ctx.run({ requestOptions: { concurrency: 1 }, ...parameters }, items);
	expect(result.error?.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
	if (description) expect(result.error?.description).toMatch(description);
	return result;
}

describe('Send Text', () => {
	it('sends each item\'s to, text and injected_fields, in input order, paired to its item', async () => {
		const items = [
			{ to: CUSTOMER, text: 'Hi {first_name}', injected_fields: { first_name: 'Ada' } },
			{ to: '+1 (415) 555-0199', text: 'Your code is 42', other: 'ignored' },
		];
		const result = await ctx.run({ operation: 'sendText' }, items);

		expect(result.error).toBeUndefined();
		expect(await ctx.sentBodies()).toEqual([
			{ channel: 'chatapp', to: CUSTOMER, message_type: 'text', text: 'Hi {first_name}', injected_fields: { first_name: 'Ada' } },
			// Normalize Phone Number (on by default) applies as with the field below.
			{ channel: 'chatapp', to: OTHER, message_type: 'text', text: 'Your code is 42' },
		]);
		expect(result.output.map((out) => [out.to, out.sent_as, out.unfilled_placeholders])).toEqual([
			[CUSTOMER, 'text', []],
			[OTHER, 'text', []],
		]);
		expect(result.node.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('ignores the fields below (left over from Define Below) in this mode', async () => {
		const result = await ctx.run({ operation: 'sendText', to: OTHER, text: 'from the field' }, [{ to: CUSTOMER, text: 'from the item' }]);

		expect(result.error).toBeUndefined();
		expect(await ctx.sentBodies()).toEqual([{ channel: 'chatapp', to: CUSTOMER, message_type: 'text', text: 'from the item' }]);
	});

	it.each<[string, IDataObject, RegExp | string]>([
		['no to', { text: 'Hi' }, /^Invalid input field "to" in item 1: got nothing, expected a phone number in E\.164 form/],
		['a to that is no phone number', { to: 'call me', text: 'Hi' }, /^Invalid input field "to" in item 1: got "call me"/],
		['no text', { to: CUSTOMER }, 'Invalid input field "text" in item 1: got nothing, expected a value: this field is required'],
		['a text that is an object', { to: CUSTOMER, text: { a: 1 } }, 'Invalid input field "text" in item 1: got {"a":1}, expected text, not an object'],
		[
			'injected_fields that are a list',
			{ to: CUSTOMER, text: 'Hi', injected_fields: ['Ada'] },
			'Invalid input field "injected_fields" in item 1: got ["Ada"], expected a JSON object such as {"key": "value"}',
		],
		[
			'an injected field whose value is an object',
			{ to: CUSTOMER, text: 'Hi', injected_fields: { first_name: { a: 1 } } },
			'Invalid input field "injected_fields.first_name" in item 1: got {"a":1}, expected text, a number or a boolean: a placeholder is replaced by one value',
		],
	])('refuses an item with %s, naming the input field and the item; the items before it are sent', async (_case, bad, message) => {
		await expectRefused(
			{ operation: 'sendText' },
			[{ to: CUSTOMER, text: 'first' }, bad],
			message,
			/^Fix the field ".+" of input item 1 \(Data to Send is "Map Automatically"\), or set Data to Send to "Define Below"/,
		);
		expect((await ctx.sentBodies()).map((body) => body.text)).toEqual(['first']);
	});
});

describe('Send Template', () => {
	it('sends template_id with the parameters array in order (numbers as text); no parameters is an empty list', async () => {
		const result = await ctx.run({ operation: 'sendTemplate' }, [
			{ to: CUSTOMER, template_id: 'order_update', parameters: ['Ada', 1042] },
			{ to: OTHER, template_id: 'welcome_customer', parameters: '["Grace"]' },
		]);

		expect(result.error).toBeUndefined();
		expect((await ctx.sentBodies()).map((body) => [body.to, body.template])).toEqual([
			[CUSTOMER, { id: 'order_update', parameters: ['Ada', '1042'] }],
			[OTHER, { id: 'welcome_customer', parameters: ['Grace'] }],
		]);
		expect(result.output.map((out) => out.sent_as)).toEqual(['template', 'template']);
	});

	it.each<[string, IDataObject, string]>([
		['no template_id', { to: CUSTOMER }, 'Invalid input field "template_id" in item 0: got nothing, expected the ID of an approved template'],
		[
			'parameters that are no array',
			{ to: CUSTOMER, template_id: 'order_update', parameters: { 1: 'Ada' } },
			'Invalid input field "parameters" in item 0: got {"1":"Ada"}, expected an array of parameter values in template order, such as ["Ada", "#1042"]',
		],
		[
			'an empty parameter',
			{ to: CUSTOMER, template_id: 'order_update', parameters: ['Ada', ' '] },
			'Invalid input field "parameters[1]" in item 0: got " ", expected a value: parameter 2 is empty. Templates fill {{1}}, {{2}}, ... by position, so an empty parameter is neither skipped nor moved; give it a value',
		],
	])('refuses %s before sending anything', async (_case, item, message) => {
		await expectRefused({ operation: 'sendTemplate' }, [item], message);
		expect(await ctx.requests()).toEqual([]);
	});
});

describe('Send Media, Send Location, Send Custom', () => {
	it('sends media_type, media_url, caption and filename as the media object (Extra Media Fields still apply)', async () => {
		const result = await ctx.run(
			{ operation: 'sendMedia', additionalFields: { extraMedia: '{"spoiler": true}' } },
			[{ to: CUSTOMER, media_type: 'file', media_url: 'https://example.com/invoice.pdf', caption: 'Your invoice', filename: 'invoice.pdf' }],
		);

		expect(result.error).toBeUndefined();
		expect(await ctx.sentBodies()).toEqual([
			{
				channel: 'chatapp',
				to: CUSTOMER,
				message_type: 'file',
				file: { caption: 'Your invoice', filename: 'invoice.pdf', spoiler: true, url: 'https://example.com/invoice.pdf' },
			},
		]);
	});

	it('refuses an unknown media_type, naming it', async () => {
		await expectRefused(
			{ operation: 'sendMedia' },
			[{ to: CUSTOMER, media_type: 'gif', media_url: 'https://example.com/a.gif' }],
			'Invalid input field "media_type" in item 0: got "gif", expected one of audio, file, image, video',
		);
		expect(await ctx.requests()).toEqual([]);
	});

	it('sends latitude, longitude, name and address as the location', async () => {
		const result = await ctx.run({ operation: 'sendLocation' }, [
			{ to: CUSTOMER, latitude: 52.52, longitude: '13.405', name: 'Central Station' },
		]);

		expect(result.error).toBeUndefined();
		expect((await ctx.sentBodies())[0].location).toEqual({ latitude: 52.52, longitude: 13.405, name: 'Central Station' });
	});

	it('refuses a missing longitude, naming it', async () => {
		await expectRefused(
			{ operation: 'sendLocation' },
			[{ to: CUSTOMER, latitude: 52.52 }],
			'Invalid input field "longitude" in item 0: got nothing, expected a number from -180 to 180',
		);
	});

	it('sends custom as the custom payload', async () => {
		const custom = { type: 'poll', options: ['yes', 'no'] };
		const result = await ctx.run({ operation: 'sendCustom' }, [{ to: CUSTOMER, custom }]);

		expect(result.error).toBeUndefined();
		expect((await ctx.sentBodies())[0].custom).toEqual(custom);
		expect(result.output[0].custom).toEqual(custom);
	});

	it('refuses an empty custom object, naming it', async () => {
		await expectRefused(
			{ operation: 'sendCustom' },
			[{ to: CUSTOMER, custom: {} }],
			'Invalid input field "custom" in item 0: got {}, expected a JSON object with at least one field, such as {"type": "poll"}',
		);
	});
});

describe('the default stays "Define Below"', () => {
	it('without Data to Send (a node saved before the option existed), the fields below are sent, not the item\'s', async () => {
		const result = await ctx.run({ operation: 'sendText', dataToSend: undefined, to: CUSTOMER, text: 'from the field' }, [
			{ to: OTHER, text: 'from the item' },
		]);

		expect(result.error).toBeUndefined();
		expect(await ctx.sentBodies()).toEqual([{ channel: 'chatapp', to: CUSTOMER, message_type: 'text', text: 'from the field' }]);
	});
});
