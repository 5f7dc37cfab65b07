import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import {
	invalidInput,
	optionalDateTime,
	optionalString,
	requireDateTime,
	requireLocatorId,
	requireString,
	unwrap,
	withAdditionalFields,
} from '../shared/parameters';
import { listEntries } from '../shared/response';
import type { ResourceHandlers } from '../shared/runner';
import { buildTimeRange } from '../shared/validation';
import { apiRequest } from '../transport/request';

const EVENT_ACTIONS = ['add', 'modify', 'remove'];

export const eventHandlers: ResourceHandlers = {
	async monitor(this: IExecuteFunctions, itemIndex: number) {
		const location = requireString(this, 'location', itemIndex, 'Location');
		const start = requireDateTime(this, 'rangeStart', itemIndex, 'Start');
		const end = requireDateTime(this, 'rangeEnd', itemIndex, 'End');
		const timeRange = unwrap(this, itemIndex, 'Start', start, buildTimeRange(start, end));
		const params = { location, time_range: timeRange };
		// The document puts these in a JSON body on the GET, but n8n's HTTP helper drops the
		// body of every GET; the query string is what reaches the service. The body is passed
		// too, so it arrives should the helper ever keep GET bodies.
		const answer = await apiRequest.call(
			this,
			'timeline',
			{ method: 'GET', path: '/monitor-events', qs: params, body: { ...params } },
			{ itemIndex, operation: 'Event → Monitor' },
		);
		if (this.getNodeParameter('outputMode', itemIndex, 'split') === 'response') return answer;
		return listEntries(this, itemIndex, answer, 'events', 'Event → Monitor');
	},

	async manipulate(this: IExecuteFunctions, itemIndex: number) {
		const timelineId = requireLocatorId(this, 'timelineId', itemIndex, 'Timeline');
		const action = this.getNodeParameter('eventAction', itemIndex, 'add') as unknown;
		if (typeof action !== 'string' || !EVENT_ACTIONS.includes(action)) {
			throw invalidInput(this, itemIndex, 'Action', action, 'expected add, modify or remove');
		}
		const body: IDataObject = { timeline_id: timelineId, action };
		if (action !== 'add') body.event_id = requireString(this, 'eventId', itemIndex, 'Event ID');
		if (action === 'add') body.time = requireDateTime(this, 'eventTime', itemIndex, 'Time');
		if (action === 'modify') {
			const time = optionalDateTime(this, 'eventTime', itemIndex, 'Time');
			if (time !== undefined) body.time = time;
		}
		if (action !== 'remove') {
			const description = optionalString(this, 'description', itemIndex);
			if (description !== undefined) body.description = description;
		}
		const merged = withAdditionalFields(this, itemIndex, body);
		if (action === 'modify' && Object.keys(merged).length === 3) {
			throw invalidInput(
				this,
				itemIndex,
				'Time',
				'',
				'expected a change: set a new Time, a Description or an Additional Field to modify the event',
			);
		}
		return await apiRequest.call(
			this,
			'timeline',
			{ method: 'POST', path: '/events', body: merged },
			{ itemIndex, operation: 'Event → Manipulate' },
		);
	},
};
