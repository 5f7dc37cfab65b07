import type { OperationDefinition, OperationItem } from '../../actionNode/operation';
import { bodyWithAdditionalFields } from '../../fields/body';
import { additionalFieldsCollection } from '../../fields/builders';
import { requireLocatorId } from '../../fields/parameters';
import { request } from '../../transport';
import { timelineField } from '../fields';

export const checkParadoxes: OperationDefinition = {
	value: 'checkParadoxes',
	name: 'Check for Paradoxes',
	action: 'Check a timeline for paradoxes',
	description: 'Check a timeline for paradoxes caused by changes to its history',
	properties: [timelineField, additionalFieldsCollection()],
	async execute(item: OperationItem) {
		const timelineId = requireLocatorId(item, timelineField);
		const body = bodyWithAdditionalFields(item, { timeline_id: timelineId });
		return await request(item, { method: 'POST', path: '/paradox-checks', body });
	},
};
