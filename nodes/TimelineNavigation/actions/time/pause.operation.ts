import type { IExecuteFunctions } from 'n8n-workflow';
import { apiRequest, type CallContext } from '../../transport/request';
import type { OperationDefinition } from '../types';

export const pause: OperationDefinition = {
	value: 'pause',
	name: 'Pause',
	action: 'Pause time',
	description: 'Stop the flow of time: actions then run in isolation',
	properties: [],
	async execute(this: IExecuteFunctions, call: CallContext) {
		return await apiRequest.call(this, call, { method: 'POST', path: '/pause-time' });
	},
};
