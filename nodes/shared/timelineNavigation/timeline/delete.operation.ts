import type { OperationDefinition, OperationItem } from '../../actionNode/operation';
import { pathSegment, requireLocatorId } from '../../fields/parameters';
import { request } from '../../transport';
import { timelineField } from '../fields';

export const deleteTimeline: OperationDefinition = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete a timeline',
	description: 'Delete a timeline',
	properties: [timelineField],
	async execute(item: OperationItem) {
		const timelineId = requireLocatorId(item, timelineField);
		const segment = pathSegment(item, timelineField, timelineId);
		const answer = await request(item, { method: 'DELETE', path: `/timeline/${segment}` });
		// An empty answer (such as 204) still tells the user which timeline went.
		const empty = !Array.isArray(answer) && Object.keys(answer).length === 0;
		return empty ? { timeline_id: timelineId, deleted: true } : answer;
	},
};
