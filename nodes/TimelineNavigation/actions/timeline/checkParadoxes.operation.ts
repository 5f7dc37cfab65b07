import type { IExecuteFunctions } from 'n8n-workflow';
import { bodyWithAdditionalFields } from '../../helpers/body';
import { additionalFieldsCollection } from '../../helpers/fields';
import { requireLocatorId } from '../../helpers/parameters';
import { apiRequest, type CallContext } from '../../transport/request';
import type { OperationDefinition } from '../types';
import { timelineField } from './fields';

export const checkParadoxes: OperationDefinition = {
	value: 'checkParadoxes',
	name: 'Check for Paradoxes',
	action: 'Check a timeline for paradoxes',
	description: 'Check a timeline for paradoxes caused by changes to its history',
	properties: [timelineField, additionalFieldsCollection()],
	async execute(this: IExecuteFunctions, call: CallContext) {
		const timelineId = requireLocatorId(this, call.itemIndex, timelineField);
		const body = bodyWithAdditionalFields(this, call.itemIndex, { timeline_id: timelineId });
		return await apiRequest.call(this, call, { method: 'POST', path: '/paradox-checks', body });
	},
};
