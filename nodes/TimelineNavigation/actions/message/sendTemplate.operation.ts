import type { IExecuteFunctions } from 'n8n-workflow';
import { readAdditionalFields, withExtraFields } from '../../helpers/body';
import { additionalFieldsCollection, dataToSendFields, definedBelow, EXTRA_BODY_LABEL } from '../../helpers/fields';
import { explainSendError, postMessage, readRecipient, recipientFields, templateBody } from '../../messaging/send';
import { readTemplate, TEMPLATE_FIELDS, templateFields } from '../../messaging/template';
import type { CallContext } from '../../transport/request';
import type { OperationDefinition } from '../types';

export const sendTemplate: OperationDefinition = {
	value: 'sendTemplate',
	name: 'Send Template',
	action: 'Send a template message',
	description: 'Send an approved template with its numbered parameters; allowed at any time',
	properties: [
		...dataToSendFields({ required: ['to', 'template_id'], optional: ['parameters'] }),
		...recipientFields,
		...definedBelow(templateFields(TEMPLATE_FIELDS, 'The ID of an approved template')),
		additionalFieldsCollection(),
	],
	async execute(this: IExecuteFunctions, call: CallContext) {
		const { itemIndex } = call;
		const to = readRecipient(this, itemIndex);
		const template = readTemplate(this, itemIndex, TEMPLATE_FIELDS);
		const { extraBody } = readAdditionalFields(this, itemIndex);
		const body = withExtraFields(this, itemIndex, EXTRA_BODY_LABEL, templateBody(to, template), extraBody);
		try {
			return { ...(await postMessage(this, call, body)), sent_as: 'template' };
		} catch (error) {
			throw explainSendError(call.label, error, template);
		}
	},
};
