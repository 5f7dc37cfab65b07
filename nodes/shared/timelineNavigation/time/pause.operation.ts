import type { OperationDefinition, OperationItem } from '../../actionNode/operation';
import { request } from '../../transport';

export const pause: OperationDefinition = {
	value: 'pause',
	name: 'Pause',
	action: 'Pause time',
	description: 'Stop the flow of time: actions then run in isolation',
	properties: [],
	async execute(item: OperationItem) {
		return await request(item, { method: 'POST', path: '/pause-time' });
	},
};
