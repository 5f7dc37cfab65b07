import type { IExecuteFunctions } from 'n8n-workflow';
import { dateTimeField, locationField, outputModeField } from '../../helpers/fields';
import { entriesOrWholeAnswer } from '../../helpers/output';
import { requireDateTime, requireString, valueOrInputError } from '../../helpers/parameters';
import { buildTimeRange } from '../../helpers/validation';
import { apiRequest, type CallContext } from '../../transport/request';
import type { OperationDefinition } from '../types';

const location = locationField('A physical location or event to watch');

const rangeStart = dateTimeField({
	name: 'rangeStart',
	displayName: 'Start',
	description: 'Start of the time range (sent as ISO 8601); must not be after the end',
});

const rangeEnd = dateTimeField({
	name: 'rangeEnd',
	displayName: 'End',
	description: 'End of the time range (sent as ISO 8601)',
});

const output = outputModeField('Event');

export const monitor: OperationDefinition = {
	value: 'monitor',
	name: 'Monitor',
	action: 'Monitor events at a location',
	description: 'Get the events that occurred at a location within a time range',
	properties: [location, rangeStart, rangeEnd, output],
	async execute(this: IExecuteFunctions, call: CallContext) {
		const { itemIndex } = call;
		const place = requireString(this, itemIndex, location);
		const start = requireDateTime(this, itemIndex, rangeStart);
		const end = requireDateTime(this, itemIndex, rangeEnd);
		const timeRange = valueOrInputError(this, itemIndex, rangeStart.displayName, start, buildTimeRange(start, end));
		const params = { location: place, time_range: timeRange };
		// The document puts these in a JSON body on the GET, but n8n's HTTP helper drops the
		// body of every GET; the query string is what reaches the service. The body is passed
		// too, so it arrives should the helper ever keep GET bodies.
		const answer = await apiRequest.call(this, call, {
			method: 'GET',
			path: '/monitor-events',
			qs: params,
			body: { ...params },
		});
		return entriesOrWholeAnswer(this, itemIndex, answer, output, 'events', call.label, params);
	},
};
