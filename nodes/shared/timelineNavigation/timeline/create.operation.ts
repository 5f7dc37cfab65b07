import type { OperationDefinition, OperationItem } from '../../actionNode/operation';
import { bodyWithAdditionalFields } from '../../fields/body';
import { additionalFieldsCollection, textField } from '../../fields/builders';
import { optionalString, requireString } from '../../fields/parameters';
import { request } from '../../transport';

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
	async execute(item: OperationItem) {
		const timelineName = requireString(item, name);
		const text = optionalString(item, description);
		const body = bodyWithAdditionalFields(item, {
			name: timelineName,
			...(text !== undefined && { description: text }),
		});
		return await request(item, { method: 'POST', path: '/timelines', body });
	},
};
