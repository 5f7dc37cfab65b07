import type { IExecuteFunctions } from 'n8n-workflow';
import { apiRequest, type CallContext } from '../../transport/request';
import type { OperationDefinition } from '../types';

export const resume: OperationDefinition = {
	value: 'resume',
	name: 'Resume',
	action: 'Resume time',
	description: 'Start time again from the exact moment it was paused',
	properties: [],
	async execute(this: IExecuteFunctions, call: CallContext) {
		return await apiRequest.call(this, call, { method: 'POST', path: '/resume-time' });
	},
};
