import type { IExecuteFunctions } from 'n8n-workflow';
import { dateTimeField, locationField } from '../../helpers/fields';
import { requireDateTime, requireString } from '../../helpers/parameters';
import { apiRequest } from '../../transport/request';
import type { ItemCall, OperationDefinition } from '../types';

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
	async execute(this: IExecuteFunctions, item: ItemCall) {
		const body = {
			destination_time: requireDateTime(this, item.itemIndex, destinationTime),
			location: requireString(this, item.itemIndex, location),
		};
		return await apiRequest.call(this, item, { method: 'POST', path: '/travel', body });
	},
};
