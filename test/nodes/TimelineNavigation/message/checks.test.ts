// Input checks of the Message resource: each fails before any request (the sandbox's request
// log stays empty), names the field, the value and the item, and says what is expected.
import type { IDataObject } from 'n8n-workflow';
import { CUSTOMER, useSandbox } from '../../../support/node-support';
import { listedParameters } from '../../../support/operation-cases';

const ctx = useSandbox({ resource: 'message' });

const text = (extra: IDataObject = {}) => ({ operation: 'sendText', to: CUSTOMER, text: 'Hello', ...extra });

async function expectRejectedBeforeSending(parameters: IDataObject, message: RegExp, items?: IDataObject[]) {
	const result = await ctx.run(parameters, items);
	expect(result.error?.message).toMatch(message);
	expect(result.output).toEqual([]);
	expect(await ctx.requests()).toEqual([]);
	return result;
}

describe('the recipient (to)', () => {
	it.each([
		['12345', /Invalid To in item 0: got "12345", expected a phone number in E\.164 form.*\+14155550123/],
		['+0 415 555 0123', /Invalid To in item 0: got "\+0 415 555 0123".*\+14155550123/],
		['call me', /Invalid To in item 0: got "call me".*\+14155550123/],
		['', /Invalid To in item 0: got "".*\+14155550123/],
	])('refuses %j naming the value and the expected form', async (to, message) => {
		// By expression: an empty field typed in the editor is already refused by n8n itself.
		await expectRejectedBeforeSending(text({ to: '={{ $json.phone }}' }), message, [{ phone: to }]);
	});

	it('names the item whose number is wrong', async () => {
		await ctx.sandbox.client.inbound(CUSTOMER, 'Hi');
		const result = await ctx.run(text({ to: '={{ $json.phone }}', requestOptions: { concurrency: 1 } }), [
			{ phone: CUSTOMER },
			{ phone: '555-0123' },
		]);

		expect(result.error?.message).toMatch(/Invalid To in item 1: got "555-0123"/);
		expect((await ctx.sentBodies()).map((body) => body.to)).toEqual([CUSTOMER]);
	});

	it.each([
		['+1 (415) 555-0123', '+14155550123'],
		['+1.415.555.0123', '+14155550123'],
		['0044 20 7946 0958', '+442079460958'],
	])('normalises %j into %s when Normalize Phone Number is on (the default)', async (raw, e164) => {
		const result = await ctx.run({
			operation: 'sendTemplate',
			to: raw,
			templateId: 'welcome_customer',
			templateParameters: listedParameters(['Ada']),
		});

		expect(result.error).toBeUndefined();
		expect((await ctx.sentBodies()).map((body) => body.to)).toEqual([e164]);
		expect(result.output[0].to).toBe(e164);
	});

	it('refuses a formatted number when Normalize Phone Number is off, and says how to fix it', async () => {
		await expectRejectedBeforeSending(
			text({ to: '+1 415 555 0123', normalizePhoneNumber: false }),
			/Invalid To in item 0: got "\+1 415 555 0123".*turn on "Normalize Phone Number"/,
		);
	});
});

describe('template parameters', () => {
	const template = (parameters: IDataObject) => ({
		operation: 'sendTemplate',
		to: CUSTOMER,
		templateId: 'event_alert',
		...parameters,
	});

	it('refuses an empty parameter in the list and names its position', async () => {
		await expectRejectedBeforeSending(
			template({ templateParameters: listedParameters(['Berlin', '', 'Fire drill']) }),
			/Invalid Parameters → Parameter \{\{2\}\} in item 0: got "", expected a value: parameter 2 is empty/,
		);
	});

	it('refuses a blank parameter (spaces only) too', async () => {
		await expectRejectedBeforeSending(
			template({ templateParameters: listedParameters(['Berlin', 'noon', '   ']) }),
			/Parameters → Parameter \{\{3\}\}.*parameter 3 is empty/,
		);
	});

	it.each([
		[['Berlin', null, 'Fire drill'], /Parameters \(Array\) in item 0: got null, expected text for the template's placeholder \{\{2\}\}/],
		[['Berlin', 'noon', ''], /Parameters \(Array\) in item 0: got "", expected a value: parameter 3 is empty/],
		[['Berlin', { at: 'noon' }, 'x'], /Parameters \(Array\) in item 0: got \{"at":"noon"\}, expected text for the template's placeholder \{\{2\}\}/],
	])('refuses %j from an expression array and names the position', async (params, message) => {
		await expectRejectedBeforeSending(
			template({ parametersInput: 'array', templateParametersArray: '={{ $json.params }}' }),
			message,
			[{ params }],
		);
	});

	it('refuses an expression that does not yield an array', async () => {
		await expectRejectedBeforeSending(
			template({ parametersInput: 'array', templateParametersArray: '={{ $json.params }}' }),
			/Invalid Parameters \(Array\) in item 0: got "Berlin", expected an array of parameter values in template order/,
			[{ params: 'Berlin' }],
		);
	});

	it('refuses a missing template ID', async () => {
		await expectRejectedBeforeSending(
			{ operation: 'sendTemplate', to: CUSTOMER, templateId: '  ' },
			/Invalid Template ID in item 0: got "  ", expected the ID of an approved template/,
		);
	});
});

describe('text, injected fields, media, location and custom', () => {
	it('refuses an empty text', async () => {
		await expectRejectedBeforeSending(
			text({ text: '={{ $json.body }}' }),
			/Invalid Text in item 0: got "", expected a value/,
			[{ body: '' }],
		);
	});

	it('refuses injected fields that are not valid JSON', async () => {
		await expectRejectedBeforeSending(
			text({ injectedFieldsInput: 'json', injectedFieldsJson: '{first_name: Ada}' }),
			/Invalid Injected Fields \(JSON\) in item 0: .*not valid JSON/,
		);
	});

	it('refuses an injected field whose value is an object', async () => {
		await expectRejectedBeforeSending(
			text({ injectedFieldsInput: 'json', injectedFieldsJson: '{"name": {"first": "Ada"}}' }),
			/Invalid Injected Fields \(JSON\) "name" in item 0: got \{"first":"Ada"\}, expected text, a number or a boolean/,
		);
	});

	it('refuses an injected field without a name, and one listed twice', async () => {
		await expectRejectedBeforeSending(
			text({ injectedFields: { field: [{ name: 'a', value: '1' }, { name: '', value: '2' }] } }),
			/Invalid Injected Fields 2 → Name in item 0/,
		);
		await expectRejectedBeforeSending(
			text({ injectedFields: { field: [{ name: 'a', value: '1' }, { name: 'a', value: '2' }] } }),
			/Invalid Injected Fields 2 → Name in item 0: got "a", expected each name once/,
		);
	});

	it.each(['ftp://cdn.example.com/a.png', 'not a url', ''])('refuses the media URL %j', async (url) => {
		await expectRejectedBeforeSending(
			{ operation: 'sendMedia', to: CUSTOMER, mediaType: 'image', mediaUrl: '={{ $json.url }}' },
			/Invalid Media URL in item 0: .*expected an http or https URL/,
			[{ url }],
		);
	});

	it.each([
		[{ latitude: 90.5, longitude: 0 }, /Invalid Latitude in item 0: got 90\.5, expected a number from -90 to 90/],
		[{ latitude: -91, longitude: 0 }, /Invalid Latitude in item 0: got -91, expected a number from -90 to 90/],
		[{ latitude: 0, longitude: 180.1 }, /Invalid Longitude in item 0: got 180\.1, expected a number from -180 to 180/],
		[{ latitude: 0, longitude: -181 }, /Invalid Longitude in item 0: got -181, expected a number from -180 to 180/],
	])('refuses coordinates %j', async (coordinates, message) => {
		await expectRejectedBeforeSending({ operation: 'sendLocation', to: CUSTOMER, ...coordinates }, message);
	});

	it('refuses a coordinate from an expression that is not a number', async () => {
		await expectRejectedBeforeSending(
			{ operation: 'sendLocation', to: CUSTOMER, latitude: '={{ $json.lat }}', longitude: 0 },
			/Invalid Latitude in item 0: got "north", expected a number from -90 to 90/,
			[{ lat: 'north' }],
		);
	});

	it('refuses a custom payload that is not valid JSON, saying so', async () => {
		await expectRejectedBeforeSending(
			{ operation: 'sendCustom', to: CUSTOMER, customPayload: '{"type": "poll",}' },
			/Invalid Custom Payload \(JSON\) in item 0: .*expected a JSON object, but it is not valid JSON/,
		);
	});

	it.each([['[1, 2]'], ['{}']])('refuses the custom payload %s', async (customPayload) => {
		await expectRejectedBeforeSending(
			{ operation: 'sendCustom', to: CUSTOMER, customPayload },
			/Invalid Custom Payload \(JSON\) in item 0: .*expected a JSON object/,
		);
	});

	it('refuses Extra Body Fields that are not valid JSON', async () => {
		await expectRejectedBeforeSending(
			text({ additionalFields: { extraBody: '{"opt_out": }' } }),
			/Invalid Extra Body Fields \(JSON\) in item 0: .*not valid JSON/,
		);
	});

	it('refuses Extra Body Fields that would replace a field the node sets', async () => {
		await expectRejectedBeforeSending(
			text({ additionalFields: { extraBody: '{"to": "+14155550199"}' } }),
			/Invalid Extra Body Fields \(JSON\) in item 0: .*remove "to"/,
		);
	});

	it('checks the fallback template before sending anything', async () => {
		await expectRejectedBeforeSending(
			text({
				fallbackToTemplate: true,
				fallbackTemplateId: 'welcome_customer',
				fallbackTemplateParameters: listedParameters(['']),
			}),
			/Invalid Fallback Parameters → Parameter \{\{1\}\} in item 0: got "", expected a value: parameter 1 is empty/,
		);
		await expectRejectedBeforeSending(
			text({ fallbackToTemplate: true, fallbackTemplateId: '={{ $json.template }}' }),
			/Invalid Fallback Template ID in item 0: got null/,
			[{ template: null }],
		);
	});

	it('refuses an empty message ID for Get Status', async () => {
		await expectRejectedBeforeSending(
			{ operation: 'getStatus', messageId: '={{ $json.id }}' },
			/Invalid Message ID in item 0: got "  "/,
			[{ id: '  ' }],
		);
	});
});
