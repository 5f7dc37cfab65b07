import type { OperationDefinition, OperationItem } from '../../actionNode/operation';
import { optionalString } from '../../fields/parameters';
import { request } from '../../transport';
import { descriptionField, readTimestamp, timestampField } from './fields';

export const set: OperationDefinition = {
	value: 'set',
	name: 'Set',
	action: 'Set an anchor',
	description:
		'Fix a point in time to return to after changes, through the action path /set-anchor (no timeline). Use it for a quick anchor before you travel; its answer carries a status message.',
	properties: [timestampField, descriptionField],
	async execute(item: OperationItem) {
		// Group A: every listed field is sent; the description may be empty.
		const body = {
			timestamp: readTimestamp(item),
			description: optionalString(item, descriptionField) ?? '',
		};
		return await request(item, { method: 'POST', path: '/set-anchor', body });
	},
};
