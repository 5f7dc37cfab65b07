import type { INodeProperties } from 'n8n-workflow';
import type { OperationDefinition, OperationItem } from '../../actionNode/operation';
import { invalidInput } from '../../errors';
import { dataToSendFields, shownForDefineBelow } from '../../fields/builders';
import { fieldLabel, fieldValue, mappedFrom, readChecked } from '../../fields/parameters';
import { parseJsonObject } from '../../fields/validation';
import { freeFormFields, readRecipient, recipientFields, sendFreeForm } from '../send';

const customPayload: INodeProperties = {
	displayName: 'Custom Payload (JSON)',
	name: 'customPayload',
	type: 'json',
	required: true,
	default: '{}',
	description: 'A JSON object sent unchanged as the message\'s "custom" field',
};

const customRef = mappedFrom(customPayload, 'custom');

export const sendCustom: OperationDefinition = {
	value: 'sendCustom',
	name: 'Send Custom',
	action: 'Send a custom message',
	description: "Send a JSON object as a custom message, inside the customer's 24-hour window",
	properties: [
		...dataToSendFields({ required: ['to', 'custom'], optional: [] }),
		...recipientFields({ withDataToSend: true }),
		...shownForDefineBelow([customPayload]),
		...freeFormFields(),
	],
	async execute(item: OperationItem) {
		const to = readRecipient(item);
		const custom = readChecked(item, customRef, parseJsonObject);
		if (Object.keys(custom).length === 0) {
			throw invalidInput(
				item,
				fieldLabel(item, customRef),
				fieldValue(item, customRef),
				'expected a JSON object with at least one field, such as {"type": "poll"}',
			);
		}
		return await sendFreeForm(item, to, { message_type: 'custom', custom });
	},
};
