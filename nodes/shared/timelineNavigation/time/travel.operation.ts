import type { OperationDefinition, OperationItem } from '../../actionNode/operation';
import { dateTimeField } from '../../fields/builders';
import { requireDateTime, requireString } from '../../fields/parameters';
import { request } from '../../transport';
import { locationField } from '../fields';

const destinationTime = dateTimeField({
	name: 'destinationTime',
	displayName: 'Destination Time',
	description: 'When to arrive (sent as ISO 8601)',
});

const location = locationField('Where to arrive');

export const travel: OperationDefinition = {
	value: 'travel',
	name: 'Travel',
	action: 'Travel to a time and place',
	description: 'Arrive at a destination date-time and location',
	properties: [destinationTime, location],
	async execute(item: OperationItem) {
		const body = {
			destination_time: requireDateTime(item, destinationTime),
			location: requireString(item, location),
		};
		return await request(item, { method: 'POST', path: '/travel', body });
	},
};
