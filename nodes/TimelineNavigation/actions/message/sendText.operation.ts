import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { dataToSendFields, definedBelow } from '../../helpers/fields';
import { mappedFrom, requireString } from '../../helpers/parameters';
import { freeFormFields, sendFreeForm } from '../../messaging/freeForm';
import { injectedFieldsFields, readInjectedFields, unfilledPlaceholders } from '../../messaging/injectedFields';
import { readRecipient, recipientFields } from '../../messaging/recipient';
import type { ItemCall, OperationDefinition } from '../types';

const text: INodeProperties = {
	displayName: 'Text',
	name: 'text',
	type: 'string',
	typeOptions: { rows: 4 },
	required: true,
	default: '',
	placeholder: 'e.g. Hi {first_name}, your table is ready.',
	description:
		'The message. Named placeholders such as {first_name} are filled by the service from Injected Fields (or fields stored on the contact).',
};

const textRef = mappedFrom(text, 'text');

export const sendText: OperationDefinition = {
	value: 'sendText',
	name: 'Send Text',
	action: 'Send a text message',
	description: "Send free-form text with named placeholders, inside the customer's 24-hour window",
	properties: [
		...dataToSendFields({ required: ['to', 'text'], optional: ['injected_fields'] }),
		...recipientFields,
		...definedBelow([text, ...injectedFieldsFields]),
		...freeFormFields(),
	],
	async execute(this: IExecuteFunctions, item: ItemCall) {
		const { itemIndex } = item;
		const to = readRecipient(this, itemIndex);
		const message = requireString(this, itemIndex, textRef);
		const injected = readInjectedFields(this, itemIndex);
		const payload: IDataObject = { message_type: 'text', text: message };
		if (Object.keys(injected).length > 0) payload.injected_fields = injected;
		const unfilled = unfilledPlaceholders(message, injected);
		const report: IDataObject = { unfilled_placeholders: unfilled };
		if (unfilled.length > 0) {
			report.placeholder_note = `No injected field fills ${unfilled.map((name) => `{${name}}`).join(', ')}. A field stored on the contact may still fill it on the service side; otherwise the customer sees the placeholder as written.`;
		}
		return await sendFreeForm(this, item, to, payload, report);
	},
};
