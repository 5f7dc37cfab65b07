import type { OperationDefinition, OperationItem } from '../../actionNode/operation';
import { durationFields, readDuration } from '../../fields/duration';
import { request } from '../../transport';

export const fastForward: OperationDefinition = {
	value: 'fastForward',
	name: 'Fast-Forward',
	action: 'Fast forward time',
	description: 'Move the current time later by a duration',
	properties: durationFields('move forward'),
	async execute(item: OperationItem) {
		const body = { duration: readDuration(item) };
		return await request(item, { method: 'POST', path: '/fast-forward', body });
	},
};
