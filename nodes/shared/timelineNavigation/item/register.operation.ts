import type { OperationDefinition, OperationItem } from '../../actionNode/operation';
import { bodyWithAdditionalFields } from '../../fields/body';
import { additionalFieldsCollection, textField } from '../../fields/builders';
import { optionalString, requireLocatorId, requireString } from '../../fields/parameters';
import { request } from '../../transport';
import { timelineLocatorField } from '../fields';

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
	async execute(item: OperationItem) {
		const timelineId = requireLocatorId(item, timeline);
		const itemName = requireString(item, name);
		const text = optionalString(item, description);
		const body = bodyWithAdditionalFields(item, {
			timeline_id: timelineId,
			name: itemName,
			...(text !== undefined && { description: text }),
		});
		return await request(item, { method: 'POST', path: '/items', body });
	},
};
