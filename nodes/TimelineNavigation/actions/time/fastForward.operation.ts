import type { IExecuteFunctions } from 'n8n-workflow';
import { durationFields, readDuration } from '../../helpers/duration';
import { apiRequest, type CallContext } from '../../transport/request';
import type { OperationDefinition } from '../types';

export const fastForward: OperationDefinition = {
	value: 'fastForward',
	name: 'Fast-Forward',
	action: 'Fast forward time',
	description: 'Move the current time later by a duration',
	properties: durationFields('move forward'),
	async execute(this: IExecuteFunctions, call: CallContext) {
		const body = { duration: readDuration(this, call.itemIndex) };
		return await apiRequest.call(this, call, { method: 'POST', path: '/fast-forward', body });
	},
};
