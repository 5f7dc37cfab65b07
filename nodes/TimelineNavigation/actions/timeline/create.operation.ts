import type { IExecuteFunctions } from 'n8n-workflow';
import { bodyWithAdditionalFields } from '../../helpers/body';
import { additionalFieldsCollection, textField } from '../../helpers/fields';
import { optionalString, requireString } from '../../helpers/parameters';
import { apiRequest, type CallContext } from '../../transport/request';
import type { OperationDefinition } from '../types';

const name = textField({
	name: 'name',
	displayName: 'Name',
	required: true,
	placeholder: 'e.g. Prime',
	description: 'The name of the timeline',
});

const description = textField({ name: 'description', displayName: 'Description', description: 'What the timeline is for' });

export const create: OperationDefinition = {
	value: 'create',
	name: 'Create',
	action: 'Create a timeline',
	description: 'Create a new timeline',
	properties: [name, description, additionalFieldsCollection()],
	async execute(this: IExecuteFunctions, call: CallContext) {
		const timelineName = requireString(this, call.itemIndex, name);
		const text = optionalString(this, call.itemIndex, description);
		const body = bodyWithAdditionalFields(this, call.itemIndex, {
			name: timelineName,
			...(text !== undefined && { description: text }),
		});
		return await apiRequest.call(this, call, { method: 'POST', path: '/timelines', body });
	},
};
