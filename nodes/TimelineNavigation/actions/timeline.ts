import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import {
	invalidInput,
	optionalDateTime,
	optionalString,
	requireLocatorId,
	requireString,
	unwrap,
	withAdditionalFields,
} from '../shared/parameters';
import { listEntries } from '../shared/response';
import type { ResourceHandlers } from '../shared/runner';
import { parseJsonObject } from '../shared/validation';
import { apiRequest, encodePathSegment } from '../transport/request';

function readLimit(context: IExecuteFunctions, itemIndex: number): number | undefined {
	if (context.getNodeParameter('returnAll', itemIndex, false) === true) return undefined;
	const limit = context.getNodeParameter('limit', itemIndex, 50) as unknown;
	if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
		throw invalidInput(context, itemIndex, 'Limit', limit, 'expected a whole number of at least 1');
	}
	return limit;
}

export const timelineHandlers: ResourceHandlers = {
	async getAll(this: IExecuteFunctions, itemIndex: number) {
		const limit = readLimit(this, itemIndex);
		const answer = await apiRequest.call(
			this,
			'timeline',
			{ method: 'GET', path: '/timelines' },
			{ itemIndex, operation: 'Timeline → Get Many' },
		);
		// The service shows no paging, so the whole list arrives and the limit applies here.
		const timelines = listEntries(this, itemIndex, answer, 'timelines', 'Timeline → Get Many');
		return limit === undefined ? timelines : timelines.slice(0, limit);
	},

	async create(this: IExecuteFunctions, itemIndex: number) {
		const name = requireString(this, 'name', itemIndex, 'Name');
		const description = optionalString(this, 'description', itemIndex);
		const body = withAdditionalFields(this, itemIndex, {
			name,
			...(description !== undefined && { description }),
		});
		return await apiRequest.call(
			this,
			'timeline',
			{ method: 'POST', path: '/timelines', body },
			{ itemIndex, operation: 'Timeline → Create' },
		);
	},

	async delete(this: IExecuteFunctions, itemIndex: number) {
		const timelineId = requireLocatorId(this, 'timelineId', itemIndex, 'Timeline');
		const answer = await apiRequest.call(
			this,
			'timeline',
			{ method: 'DELETE', path: `/timeline/${encodePathSegment(timelineId)}` },
			{ itemIndex, operation: 'Timeline → Delete' },
		);
		// An empty answer (such as 204) still tells the user which timeline went.
		const empty = !Array.isArray(answer) && Object.keys(answer).length === 0;
		return empty ? { timeline_id: timelineId, deleted: true } : answer;
	},

	async travelTo(this: IExecuteFunctions, itemIndex: number) {
		const timelineId = requireLocatorId(this, 'timelineId', itemIndex, 'Timeline');
		const destination = optionalDateTime(this, 'destinationTime', itemIndex, 'Destination Time');
		const body = withAdditionalFields(this, itemIndex, {
			timeline_id: timelineId,
			...(destination !== undefined && { destination_time: destination }),
		});
		return await apiRequest.call(
			this,
			'timeline',
			{ method: 'POST', path: '/travels', body },
			{ itemIndex, operation: 'Timeline → Travel To' },
		);
	},

	async checkParadoxes(this: IExecuteFunctions, itemIndex: number) {
		const timelineId = requireLocatorId(this, 'timelineId', itemIndex, 'Timeline');
		const body = withAdditionalFields(this, itemIndex, { timeline_id: timelineId });
		return await apiRequest.call(
			this,
			'timeline',
			{ method: 'POST', path: '/paradox-checks', body },
			{ itemIndex, operation: 'Timeline → Check for Paradoxes' },
		);
	},

	async monitorAnomalies(this: IExecuteFunctions, itemIndex: number) {
		const timelineId = requireLocatorId(this, 'timelineId', itemIndex, 'Timeline');
		const extraQuery = this.getNodeParameter('extraQuery', itemIndex, '{}') as unknown;
		const extra = unwrap(this, itemIndex, 'Additional Query Parameters (JSON)', extraQuery, parseJsonObject(extraQuery));
		const qs: IDataObject = { ...(extra as IDataObject), timeline_id: timelineId };
		const answer = await apiRequest.call(
			this,
			'timeline',
			{ method: 'GET', path: '/monitor-timeline', qs },
			{ itemIndex, operation: 'Timeline → Monitor Anomalies' },
		);
		if (this.getNodeParameter('outputMode', itemIndex, 'split') === 'response') return answer;
		return listEntries(this, itemIndex, answer, 'anomalies', 'Timeline → Monitor Anomalies');
	},
};
