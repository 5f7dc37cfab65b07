import type { IExecuteFunctions } from 'n8n-workflow';
import { bodyWithAdditionalFields } from '../../helpers/body';
import { additionalFieldsCollection, textField, timelineLocatorField } from '../../helpers/fields';
import { optionalString, requireLocatorId, requireString } from '../../helpers/parameters';
import { apiRequest, type CallContext } from '../../transport/request';
import type { OperationDefinition } from '../types';

const timeline = timelineLocatorField('The timeline to register the item in');

const name = textField({
	name: 'name',
	displayName: 'Name',
	required: true,
	placeholder: 'e.g. Pocket watch',
	description: 'The name of the item',
});

const description = textField({ name: 'description', displayName: 'Description', description: 'What the item is' });

export const register: OperationDefinition = {
	value: 'register',
	name: 'Register',
	action: 'Register an item',
	description: 'Register an item in a timeline',
	properties: [timeline, name, description, additionalFieldsCollection()],
	async execute(this: IExecuteFunctions, call: CallContext) {
		const { itemIndex } = call;
		const timelineId = requireLocatorId(this, itemIndex, timeline);
		const itemName = requireString(this, itemIndex, name);
		const text = optionalString(this, itemIndex, description);
		const body = bodyWithAdditionalFields(this, itemIndex, {
			timeline_id: timelineId,
			name: itemName,
			...(text !== undefined && { description: text }),
		});
		return await apiRequest.call(this, call, { method: 'POST', path: '/items', body });
	},
};
