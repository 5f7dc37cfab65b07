import type { IExecuteFunctions } from 'n8n-workflow';
import { apiRequest } from '../../transport/request';
import type { ItemCall, OperationDefinition } from '../types';

export const pause: OperationDefinition = {
	value: 'pause',
	name: 'Pause',
	action: 'Pause time',
	description: 'Stop the flow of time: actions then run in isolation',
	properties: [],
	async execute(this: IExecuteFunctions, item: ItemCall) {
		return await apiRequest.call(this, item, { method: 'POST', path: '/pause-time' });
	},
};
