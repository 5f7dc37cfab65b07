// The Message resource against the sandbox over HTTP: every message type with the exact body
// the service received, template parameter order, placeholder reporting, and the output a
// next node relies on (message_id, conversation_id, to, message_type).
import type { IDataObject } from 'n8n-workflow';
import { CUSTOMER, useSandbox } from '../../../support/node-support';
import { listedParameters } from '../../../support/operation-cases';

const ctx = useSandbox({ resource: 'message' });

const template = (id: string, values: string[], extra: IDataObject = {}) => ({
	operation: 'sendTemplate',
	to: CUSTOMER,
	templateId: id,
	parametersInput: 'list',
	templateParameters: listedParameters(values),
	...extra,
});

describe('Send Template', () => {
	it('sends the template with its parameters in the listed order and outputs the IDs', async () => {
		const result = await ctx.run(template('order_update', ['Ada', '#1042']));

		expect(result.error).toBeUndefined();
		expect(await ctx.sentBodies()).toEqual([
			{
				channel: 'chatapp',
				to: CUSTOMER,
				message_type: 'template',
				template: { id: 'order_update', parameters: ['Ada', '#1042'] },
			},
		]);
		const [out] = result.output;
		expect(out).toMatchObject({ to: CUSTOMER, message_type: 'template', sent_as: 'template' });
		expect(out.message_id).toMatch(/^msg_/);
		expect(out.conversation_id).toMatch(/^conv_/);
		const stored = await ctx.sandbox.client.message(out.message_id as string);
		expect(stored.text).toBe('Hello Ada, your order #1042 has been updated.');
	});

	it('keeps the order of three listed parameters exactly', async () => {
		const result = await ctx.run(template('event_alert', ['Fire drill', 'Berlin', '12:00']));

		expect(result.error).toBeUndefined();
		const [body] = await ctx.sentBodies();
		expect(body.template).toEqual({ id: 'event_alert', parameters: ['Fire drill', 'Berlin', '12:00'] });
	});

	it('takes the parameters from one expression yielding an array, per input item, in order', async () => {
		const items = [
			{ phone: '+14155550101', params: ['Ada', '#1042'] },
			{ phone: '+14155550102', params: ['Grace', 7] },
		];
		const result = await ctx.run(
			{
				operation: 'sendTemplate',
				to: '={{ $json.phone }}',
				templateId: 'order_update',
				parametersInput: 'array',
				templateParametersArray: '={{ $json.params }}',
			},
			items,
		);

		expect(result.error).toBeUndefined();
		const bodies = await ctx.sentBodies();
		const byRecipient = Object.fromEntries(bodies.map((body) => [body.to, body.template]));
		expect(byRecipient).toEqual({
			'+14155550101': { id: 'order_update', parameters: ['Ada', '#1042'] },
			'+14155550102': { id: 'order_update', parameters: ['Grace', '7'] },
		});
		expect(result.output.map((out) => out.to)).toEqual(['+14155550101', '+14155550102']);
		expect(result.node.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('accepts the array as JSON text typed into the field', async () => {
		const result = await ctx.run({
			operation: 'sendTemplate',
			to: CUSTOMER,
			templateId: 'appointment_reminder',
			parametersInput: 'array',
			templateParametersArray: '["Ada", "Monday 10:00"]',
		});

		expect(result.error).toBeUndefined();
		expect((await ctx.sentBodies())[0].template).toEqual({
			id: 'appointment_reminder',
			parameters: ['Ada', 'Monday 10:00'],
		});
	});

	it('never reorders: swapped parameters reach the service as given and its rejection is explained', async () => {
		const result = await ctx.run(template('order_update', ['#1042', 'Ada']));

		expect((await ctx.sentBodies())[0].template).toEqual({ id: 'order_update', parameters: ['#1042', 'Ada'] });
		expect(result.error?.message).toMatch(/rejected template "order_update": a parameter is missing, extra or out of order/);
		expect(result.error?.message).toContain('{{1}} "#1042", {{2}} "Ada"');
		// The service's own words are attached, in the description.
		expect(result.error?.message).toMatch(/\(HTTP 422\)$/);
		expect(result.error?.description).toMatch(/The service said: Template 'order_update' parameter \{\{1\}\}/);
	});

	it('explains a missing parameter in plain words', async () => {
		const result = await ctx.run(template('order_update', ['Ada']));

		expect(result.error?.message).toMatch(/rejected template "order_update": a parameter is missing/);
		expect(result.error?.description).toMatch(/Parameter \{\{2\}\} \(order number\) is missing/);
	});

	it('explains a template that is not approved', async () => {
		const result = await ctx.run(template('promo_pending', ['Ada']));

		expect(result.error?.message).toMatch(/rejected template "promo_pending": it is not approved yet/);
		expect(result.error?.description).toMatch(/The service said: The template 'promo_pending' is not approved/);
	});
});

describe('Send Text', () => {
	beforeEach(async () => {
		await ctx.sandbox.client.inbound(CUSTOMER, 'Hello?');
	});

	it('sends the text with injected fields given as name/value pairs', async () => {
		const result = await ctx.run({
			operation: 'sendText',
			to: CUSTOMER,
			text: 'Hi {first_name}, your table for {party_size} is ready.',
			injectedFieldsInput: 'pairs',
			injectedFields: {
				field: [
					{ name: 'first_name', value: 'Ada' },
					{ name: 'party_size', value: '4' },
				],
			},
		});

		expect(result.error).toBeUndefined();
		expect(await ctx.sentBodies()).toEqual([
			{
				channel: 'chatapp',
				to: CUSTOMER,
				message_type: 'text',
				text: 'Hi {first_name}, your table for {party_size} is ready.',
				injected_fields: { first_name: 'Ada', party_size: '4' },
			},
		]);
		const [out] = result.output;
		expect(out).toMatchObject({ to: CUSTOMER, message_type: 'text', sent_as: 'text', unfilled_placeholders: [] });
		expect(out.placeholder_note).toBeUndefined();
		const stored = await ctx.sandbox.client.message(out.message_id as string);
		expect(stored.text).toBe('Hi Ada, your table for 4 is ready.');
	});

	it('reports placeholders no injected field fills, and still sends (a contact field may fill them)', async () => {
		await ctx.sandbox.client.seedContact(CUSTOMER, { store: 'Downtown' });
		const result = await ctx.run({
			operation: 'sendText',
			to: CUSTOMER,
			text: 'Hi {first_name}, code {code} at {{store}}.',
			injectedFieldsInput: 'json',
			injectedFieldsJson: '{"first_name": "Ada"}',
		});

		expect(result.error).toBeUndefined();
		expect((await ctx.sentBodies())[0]).toEqual({
			channel: 'chatapp',
			to: CUSTOMER,
			message_type: 'text',
			text: 'Hi {first_name}, code {code} at {{store}}.',
			injected_fields: { first_name: 'Ada' },
		});
		const [out] = result.output;
		expect(out.unfilled_placeholders).toEqual(['code', 'store']);
		expect(out.placeholder_note).toMatch(/No injected field fills \{code\}, \{store\}\. A field stored on the contact may still fill it/);
		// On the service side the contact's stored field filled {store}; {code} stayed as written.
		const stored = await ctx.sandbox.client.message(out.message_id as string);
		expect(stored.text).toBe('Hi Ada, code {code} at Downtown.');
	});

	describe('Placeholders Without a Value', () => {
		const greeting = (firstName: string | undefined, choice: string) =>
			ctx.run(
				{
					operation: 'sendText',
					to: CUSTOMER,
					text: 'Hi {first_name}, thanks for your message about {{ topic }}.',
					injectedFieldsInput: 'pairs',
					injectedFields: { field: [{ name: 'first_name', value: '={{ $json.first_name ?? "" }}' }, { name: 'topic', value: 'your refund' }] },
					placeholdersWithoutValue: choice,
				},
				[firstName === undefined ? {} : { first_name: firstName }],
			);

		it('Remove Them: an empty injected field takes its placeholder out with the space before it; the customer reads no braces', async () => {
			const result = await greeting(undefined, 'remove');
			expect(result.error).toBeUndefined();
			expect(await ctx.sentBodies()).toEqual([
				{
					channel: 'chatapp',
					to: CUSTOMER,
					message_type: 'text',
					text: 'Hi, thanks for your message about {{ topic }}.',
					injected_fields: { topic: 'your refund' },
				},
			]);
			const [out] = result.output;
			expect(out).toMatchObject({ unfilled_placeholders: [], removed_placeholders: ['first_name'] });
			const stored = await ctx.sandbox.client.message(out.message_id as string);
			expect(stored.text).toBe('Hi, thanks for your message about your refund.');
		});

		it('Remove Them: a filled placeholder stays and is filled', async () => {
			const result = await greeting('Ada', 'remove');
			const stored = await ctx.sandbox.client.message(result.output[0].message_id as string);
			expect(stored.text).toBe('Hi Ada, thanks for your message about your refund.');
			expect(result.output[0].removed_placeholders).toEqual([]);
		});

		it('Remove Them: a placeholder no injected field names is removed too, even if the contact has the field', async () => {
			await ctx.sandbox.client.seedContact(CUSTOMER, { store: 'Downtown' });
			const result = await ctx.run({ operation: 'sendText', to: CUSTOMER, text: 'See you at {store} {{ store }}!', placeholdersWithoutValue: 'remove' });
			expect((await ctx.sentBodies())[0]).toEqual({ channel: 'chatapp', to: CUSTOMER, message_type: 'text', text: 'See you at!' });
			expect(result.output[0].removed_placeholders).toEqual(['store']);
		});

		it('Stop With an Error: fails before anything is sent, naming the placeholder and the item', async () => {
			const result = await greeting('  ', 'error');
			expect(result.node.error?.message).toBe(
				'Invalid Text in item 0: got "Hi {first_name}, thanks for your message about {{ topic }}.", expected a value for {first_name}: no injected field fills it (or one fills it with empty text). Add it to the Injected Fields, or change "Placeholders Without a Value"',
			);
			expect(await ctx.sentBodies()).toEqual([]);
		});

		it('Leave Them to the Service (the default): an empty injected field is sent as given', async () => {
			const result = await greeting(undefined, 'service');
			expect((await ctx.sentBodies())[0].injected_fields).toEqual({ first_name: '', topic: 'your refund' });
			expect(result.output[0].unfilled_placeholders).toEqual([]);
		});

		it('refuses a choice the field does not offer, by name', async () => {
			const result = await greeting('Ada', 'blank');
			expect(result.node.error?.message).toMatch(/^Invalid Placeholders Without a Value in item 0: got "blank"/);
			expect(await ctx.sentBodies()).toEqual([]);
		});
	});

	it('takes injected fields from a JSON object produced by an expression', async () => {
		const result = await ctx.run(
			{
				operation: 'sendText',
				to: CUSTOMER,
				text: 'Hi {first_name}',
				injectedFieldsInput: 'json',
				injectedFieldsJson: '={{ $json.fields }}',
			},
			[{ fields: { first_name: 'Grace', vip: true } }],
		);

		expect(result.error).toBeUndefined();
		expect((await ctx.sentBodies())[0].injected_fields).toEqual({ first_name: 'Grace', vip: true });
		expect(result.output[0].unfilled_placeholders).toEqual([]);
	});

	it('evaluates an expression nested inside a collection for each item, next to fields without expressions', async () => {
		// Fields without an expression are read once per execution; one holding an expression,
		// even deep inside Additional Fields, must still be read for every item.
		const result = await ctx.run(
			{
				operation: 'sendText',
				to: CUSTOMER,
				text: 'Same text',
				additionalFields: { extraBody: '={{ JSON.stringify({ reference: $json.ref }) }}' },
				requestOptions: { concurrency: 1 },
			},
			[{ ref: 'A-1' }, { ref: 'B-2' }, { ref: 'C-3' }],
		);

		expect(result.error).toBeUndefined();
		expect((await ctx.sentBodies()).map((body) => [body.text, body.reference])).toEqual([
			['Same text', 'A-1'],
			['Same text', 'B-2'],
			['Same text', 'C-3'],
		]);
	});

	it('sends no injected_fields when none are given', async () => {
		const result = await ctx.run({ operation: 'sendText', to: CUSTOMER, text: 'Plain text' });

		expect(result.error).toBeUndefined();
		expect(await ctx.sentBodies()).toEqual([
			{ channel: 'chatapp', to: CUSTOMER, message_type: 'text', text: 'Plain text' },
		]);
	});
});

describe('Send Media', () => {
	beforeEach(async () => {
		await ctx.sandbox.client.inbound(CUSTOMER, 'Hello?');
	});

	it.each(['image', 'video', 'audio', 'file'])('sends %s as { url } under its own key', async (mediaType) => {
		const url = `https://cdn.example.com/${mediaType}.bin`;
		const result = await ctx.run({ operation: 'sendMedia', to: CUSTOMER, mediaType, mediaUrl: url });

		expect(result.error).toBeUndefined();
		expect(await ctx.sentBodies()).toEqual([
			{ channel: 'chatapp', to: CUSTOMER, message_type: mediaType, [mediaType]: { url } },
		]);
		expect(result.output[0]).toMatchObject({ to: CUSTOMER, message_type: mediaType, sent_as: mediaType });
		expect(result.output[0].message_id).toMatch(/^msg_/);
	});

	it('merges caption, file name and extra media fields into the media object, extra body fields into the body', async () => {
		const result = await ctx.run({
			operation: 'sendMedia',
			to: CUSTOMER,
			mediaType: 'file',
			mediaUrl: 'https://cdn.example.com/invoice.pdf',
			additionalFields: {
				caption: 'Your invoice',
				fileName: 'invoice-1042.pdf',
				extraMedia: '{"mime_type": "application/pdf"}',
				extraBody: '{"opt_out_link": true}',
			},
		});

		expect(result.error).toBeUndefined();
		expect(await ctx.sentBodies()).toEqual([
			{
				channel: 'chatapp',
				to: CUSTOMER,
				message_type: 'file',
				file: {
					url: 'https://cdn.example.com/invoice.pdf',
					caption: 'Your invoice',
					filename: 'invoice-1042.pdf',
					mime_type: 'application/pdf',
				},
				opt_out_link: true,
			},
		]);
	});
});

describe('Send Location', () => {
	it('sends a static location with numbers, name and address', async () => {
		await ctx.sandbox.client.inbound(CUSTOMER, 'Where are you?');
		const result = await ctx.run({
			operation: 'sendLocation',
			to: CUSTOMER,
			latitude: 52.520008,
			longitude: -13.404954,
			locationName: 'Central Station',
			locationAddress: '1 Station Square',
		});

		expect(result.error).toBeUndefined();
		expect(await ctx.sentBodies()).toEqual([
			{
				channel: 'chatapp',
				to: CUSTOMER,
				message_type: 'location',
				location: { latitude: 52.520008, longitude: -13.404954, name: 'Central Station', address: '1 Station Square' },
			},
		]);
		expect(result.output[0]).toMatchObject({ to: CUSTOMER, message_type: 'location' });
	});

	it('accepts the coordinates at the ends of their ranges, given by expression as text', async () => {
		await ctx.sandbox.client.inbound(CUSTOMER, 'Where are you?');
		const result = await ctx.run(
			{ operation: 'sendLocation', to: CUSTOMER, latitude: '={{ $json.lat }}', longitude: '={{ $json.lng }}' },
			[{ lat: '-90', lng: '180' }],
		);

		expect(result.error).toBeUndefined();
		expect((await ctx.sentBodies())[0].location).toEqual({ latitude: -90, longitude: 180 });
	});
});

describe('Send Custom', () => {
	it('sends the JSON object unchanged as custom', async () => {
		await ctx.sandbox.client.inbound(CUSTOMER, 'Hi');
		const custom = { type: 'poll', question: 'Which slot?', options: ['9:00', '10:00'], nested: { a: [1, { b: null }] } };
		const result = await ctx.run({ operation: 'sendCustom', to: CUSTOMER, customPayload: JSON.stringify(custom) });

		expect(result.error).toBeUndefined();
		expect(await ctx.sentBodies()).toEqual([{ channel: 'chatapp', to: CUSTOMER, message_type: 'custom', custom }]);
		expect(result.output[0]).toMatchObject({ to: CUSTOMER, message_type: 'custom', custom });
	});
});

describe('Additional Fields on every send', () => {
	it('merges Extra Body Fields into a template send (for example an opt-out setting)', async () => {
		const result = await ctx.run(
			template('welcome_customer', ['Ada'], { additionalFields: { extraBody: '{"opt_out": {"enabled": true}}' } }),
		);

		expect(result.error).toBeUndefined();
		expect(await ctx.sentBodies()).toEqual([
			{
				channel: 'chatapp',
				to: CUSTOMER,
				message_type: 'template',
				template: { id: 'welcome_customer', parameters: ['Ada'] },
				opt_out: { enabled: true },
			},
		]);
	});

	it('merges Extra Body Fields into a text send', async () => {
		await ctx.sandbox.client.inbound(CUSTOMER, 'Hi');
		const result = await ctx.run({
			operation: 'sendText',
			to: CUSTOMER,
			text: 'Hello',
			additionalFields: { extraBody: '{"append_opt_out_link": true}' },
		});

		expect(result.error).toBeUndefined();
		expect((await ctx.sentBodies())[0]).toEqual({
			channel: 'chatapp',
			to: CUSTOMER,
			message_type: 'text',
			text: 'Hello',
			append_opt_out_link: true,
		});
	});
});

describe('Get Status', () => {
	it('returns the latest status after the recipient read the message', async () => {
		const sent = await ctx.run(template('welcome_customer', ['Ada']));
		const messageId = sent.output[0].message_id as string;
		await ctx.sandbox.client.read(messageId);
		await ctx.sandbox.client.clearRequests();

		const result = await ctx.run({ operation: 'getStatus', messageId });

		expect(result.error).toBeUndefined();
		expect(result.output).toEqual([
			expect.objectContaining({ message_id: messageId, status: 'read', to: CUSTOMER, message_type: 'template' }),
		]);
		const requests = await ctx.requests();
		expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/messages/${messageId}`]);
	});

	it('keeps an ID with a slash inside its path segment, and says when it does not exist', async () => {
		const result = await ctx.run({ operation: 'getStatus', messageId: 'msg/../1' });

		const requests = await ctx.requests();
		expect(requests.map((r) => r.path)).toEqual(['/v1/messages/msg%2F%2E%2E%2F1']);
		expect(result.error?.message).toMatch(/Message → Get Status failed: the service answered HTTP 404/);
	});
});
