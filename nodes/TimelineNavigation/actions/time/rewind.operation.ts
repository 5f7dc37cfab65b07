import type { IExecuteFunctions } from 'n8n-workflow';
import { durationFields, readDuration } from '../../helpers/duration';
import { apiRequest, type CallContext } from '../../transport/request';
import type { OperationDefinition } from '../types';

export const rewind: OperationDefinition = {
	value: 'rewind',
	name: 'Rewind',
	action: 'Rewind time',
	description: 'Move the current time earlier by a duration',
	properties: durationFields('move back'),
	async execute(this: IExecuteFunctions, call: CallContext) {
		const body = { duration: readDuration(this, call.itemIndex) };
		return await apiRequest.call(this, call, { method: 'POST', path: '/rewind', body });
	},
};
