import type { IExecuteFunctions } from 'n8n-workflow';
import { apiRequest } from '../../transport/request';
import type { ItemCall, OperationDefinition } from '../types';

export const resume: OperationDefinition = {
	value: 'resume',
	name: 'Resume',
	action: 'Resume time',
	description: 'Start time again from the exact moment it was paused',
	properties: [],
	async execute(this: IExecuteFunctions, item: ItemCall) {
		return await apiRequest.call(this, item, { method: 'POST', path: '/resume-time' });
	},
};
