import type { OperationDefinition, OperationItem } from '../../actionNode/operation';
import { readAdditionalFields, withExtraFields } from '../../fields/body';
import { additionalFieldsCollection, dataToSendFields, shownForDefineBelow, EXTRA_BODY_LABEL } from '../../fields/builders';
import { explainSendError, postMessage, readRecipient, recipientFields, templateBody } from '../send';
import { readTemplate, TEMPLATE_FIELDS, templateFields } from '../template';

export const sendTemplate: OperationDefinition = {
	value: 'sendTemplate',
	name: 'Send Template',
	action: 'Send a template message',
	description: 'Send an approved template with its numbered parameters; allowed at any time',
	properties: [
		...dataToSendFields({ required: ['to', 'template_id'], optional: ['parameters'] }),
		...recipientFields({ withDataToSend: true }),
		...shownForDefineBelow(templateFields(TEMPLATE_FIELDS, 'The ID of an approved template')),
		additionalFieldsCollection(),
	],
	async execute(item: OperationItem) {
		const to = readRecipient(item);
		const template = readTemplate(item, TEMPLATE_FIELDS);
		const { extraBody } = readAdditionalFields(item);
		const body = withExtraFields(item, EXTRA_BODY_LABEL, templateBody(to, template), extraBody);
		try {
			return { ...(await postMessage(item, body)), sent_as: 'template' };
		} catch (error) {
			throw explainSendError(item.label, error, template);
		}
	},
};
