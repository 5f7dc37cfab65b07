import type { OperationDefinition, OperationItem } from '../../actionNode/operation';
import { durationFields, readDuration } from '../../fields/duration';
import { request } from '../../transport';

export const rewind: OperationDefinition = {
	value: 'rewind',
	name: 'Rewind',
	action: 'Rewind time',
	description: 'Move the current time earlier by a duration',
	properties: durationFields('move back'),
	async execute(item: OperationItem) {
		const body = { duration: readDuration(item) };
		return await request(item, { method: 'POST', path: '/rewind', body });
	},
};
