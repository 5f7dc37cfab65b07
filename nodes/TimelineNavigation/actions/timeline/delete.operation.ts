import type { IExecuteFunctions } from 'n8n-workflow';
import { pathSegment, requireLocatorId } from '../../helpers/parameters';
import { apiRequest, type CallContext } from '../../transport/request';
import type { OperationDefinition } from '../types';
import { timelineField } from './fields';

export const deleteTimeline: OperationDefinition = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete a timeline',
	description: 'Delete a timeline',
	properties: [timelineField],
	async execute(this: IExecuteFunctions, call: CallContext) {
		const timelineId = requireLocatorId(this, call.itemIndex, timelineField);
		const segment = pathSegment(this, call.itemIndex, timelineField, timelineId);
		const answer = await apiRequest.call(this, call, { method: 'DELETE', path: `/timeline/${segment}` });
		// An empty answer (such as 204) still tells the user which timeline went.
		const empty = !Array.isArray(answer) && Object.keys(answer).length === 0;
		return empty ? { timeline_id: timelineId, deleted: true } : answer;
	},
};
