import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { dataToSendFields, definedBelow } from '../../helpers/fields';
import { invalidInput } from '../../errors';
import { fieldLabel, fieldValue, mappedFrom, readChecked } from '../../helpers/parameters';
import { parseJsonObject } from '../../helpers/validation';
import { freeFormFields, sendFreeForm } from '../../messaging/freeForm';
import { readRecipient, recipientFields } from '../../messaging/send';
import type { CallContext } from '../../transport/request';
import type { OperationDefinition } from '../types';

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
		...recipientFields,
		...definedBelow([customPayload]),
		...freeFormFields(),
	],
	async execute(this: IExecuteFunctions, call: CallContext) {
		const { itemIndex } = call;
		const to = readRecipient(this, itemIndex);
		const custom = readChecked(this, itemIndex, customRef, parseJsonObject);
		if (Object.keys(custom).length === 0) {
			throw invalidInput(
				this,
				itemIndex,
				fieldLabel(this, customRef),
				fieldValue(this, itemIndex, customRef),
				'expected a JSON object with at least one field, such as {"type": "poll"}',
			);
		}
		return await sendFreeForm(this, call, to, { message_type: 'custom', custom });
	},
};
