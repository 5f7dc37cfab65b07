import type { OperationDefinition, OperationItem } from '../../actionNode/operation';
import { bodyWithAdditionalFields } from '../../fields/body';
import { additionalFieldsCollection } from '../../fields/builders';
import { optionalString } from '../../fields/parameters';
import { request } from '../../transport';
import { descriptionField, readTimestamp, timestampField } from './fields';

export const create: OperationDefinition = {
	value: 'create',
	name: 'Create',
	action: 'Create an anchor',
	description:
		'Create an anchor as a resource (path /anchors), optionally in a timeline, to return to at the end of time travel. Use it when you organise work in timelines; use Set for a quick anchor without one.',
	properties: [
		timestampField,
		descriptionField,
		additionalFieldsCollection([
			{
				displayName: 'Timeline ID',
				name: 'timeline_id',
				type: 'string',
				default: '',
				description: 'The timeline the anchor belongs to (sent as timeline_id)',
			},
		]),
	],
	async execute(item: OperationItem) {
		const description = optionalString(item, descriptionField);
		const body = bodyWithAdditionalFields(item, {
			timestamp: readTimestamp(item),
			...(description !== undefined && { description }),
		});
		return await request(item, { method: 'POST', path: '/anchors', body });
	},
};
