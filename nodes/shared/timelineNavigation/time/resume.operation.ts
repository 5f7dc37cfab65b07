import type { OperationDefinition, OperationItem } from '../../actionNode/operation';
import { request } from '../../transport';

export const resume: OperationDefinition = {
	value: 'resume',
	name: 'Resume',
	action: 'Resume time',
	description: 'Start time again from the exact moment it was paused',
	properties: [],
	async execute(item: OperationItem) {
		return await request(item, { method: 'POST', path: '/resume-time' });
	},
};
