import type { IExecuteFunctions } from 'n8n-workflow';
import { bodyWithAdditionalFields } from '../../helpers/body';
import { additionalFieldsCollection, dateTimeField } from '../../helpers/fields';
import { optionalDateTime, requireLocatorId } from '../../helpers/parameters';
import { apiRequest, type CallContext } from '../../transport/request';
import type { OperationDefinition } from '../types';
import { timelineField } from './fields';

const destinationTime = dateTimeField({
	name: 'destinationTime',
	displayName: 'Destination Time',
	description: 'When to arrive (sent as ISO 8601). Leave empty to keep the current time.',
	required: false,
});

export const travelTo: OperationDefinition = {
	value: 'travelTo',
	name: 'Travel To',
	action: 'Travel to a timeline',
	description: 'Move into a timeline',
	properties: [timelineField, destinationTime, additionalFieldsCollection()],
	async execute(this: IExecuteFunctions, call: CallContext) {
		const timelineId = requireLocatorId(this, call.itemIndex, timelineField);
		const destination = optionalDateTime(this, call.itemIndex, destinationTime);
		const body = bodyWithAdditionalFields(this, call.itemIndex, {
			timeline_id: timelineId,
			...(destination !== undefined && { destination_time: destination }),
		});
		return await apiRequest.call(this, call, { method: 'POST', path: '/travels', body });
	},
};
