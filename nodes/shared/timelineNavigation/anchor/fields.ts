// Fields shared by Set and Create: the moment to anchor and what the anchor is for.
import type { INodeProperties } from 'n8n-workflow';
import type { Item } from '../../execution';
import { dateTimeField } from '../../fields/builders';
import { optionalDateTime } from '../../fields/parameters';

export const timestampField = dateTimeField({
	name: 'timestamp',
	displayName: 'Timestamp',
	description: 'The moment to anchor (sent as ISO 8601). Leave empty to anchor the moment the node runs.',
	required: false,
});

export const descriptionField: INodeProperties = {
	displayName: 'Description',
	name: 'description',
	type: 'string',
	default: '',
	placeholder: 'e.g. Before the 1969 detour',
	description: 'Short purpose of the anchor; may be empty',
};

/** An empty Timestamp means "now": the moment this item is processed, in UTC. */
export function readTimestamp(item: Item): string {
	return optionalDateTime(item, timestampField) ?? new Date().toISOString();
}
