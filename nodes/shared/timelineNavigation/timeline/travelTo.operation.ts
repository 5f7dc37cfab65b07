import type { OperationDefinition, OperationItem } from '../../actionNode/operation';
import { bodyWithAdditionalFields } from '../../fields/body';
import { additionalFieldsCollection, dateTimeField } from '../../fields/builders';
import { optionalDateTime, requireLocatorId } from '../../fields/parameters';
import { request } from '../../transport';
import { timelineField } from '../fields';

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
	async execute(item: OperationItem) {
		const timelineId = requireLocatorId(item, timelineField);
		const destination = optionalDateTime(item, destinationTime);
		const body = bodyWithAdditionalFields(item, {
			timeline_id: timelineId,
			...(destination !== undefined && { destination_time: destination }),
		});
		return await request(item, { method: 'POST', path: '/travels', body });
	},
};
