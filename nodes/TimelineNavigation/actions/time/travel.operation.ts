import type { IExecuteFunctions } from 'n8n-workflow';
import { dateTimeField, locationField } from '../../helpers/fields';
import { requireDateTime, requireString } from '../../helpers/parameters';
import { apiRequest, type CallContext } from '../../transport/request';
import type { OperationDefinition } from '../types';

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
	async execute(this: IExecuteFunctions, call: CallContext) {
		const body = {
			destination_time: requireDateTime(this, call.itemIndex, destinationTime),
			location: requireString(this, call.itemIndex, location),
		};
		return await apiRequest.call(this, call, { method: 'POST', path: '/travel', body });
	},
};
