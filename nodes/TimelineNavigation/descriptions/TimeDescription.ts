import type { INodeProperties } from 'n8n-workflow';
import { dateTimeField, durationFields, operationField, showFor } from './common';

export const timeOperations: INodeProperties[] = [
	operationField(
		'time',
		[
			{
				name: 'Fast-Forward',
				value: 'fastForward',
				action: 'Fast forward time',
				description: 'Move the current time later by a duration (POST /fast-forward)',
			},
			{
				name: 'Pause',
				value: 'pause',
				action: 'Pause time',
				description: 'Stop the flow of time: actions then run in isolation (POST /pause-time)',
			},
			{
				name: 'Resume',
				value: 'resume',
				action: 'Resume time',
				description: 'Start time again from the exact moment it was paused (POST /resume-time)',
			},
			{
				name: 'Rewind',
				value: 'rewind',
				action: 'Rewind time',
				description: 'Move the current time earlier by a duration (POST /rewind)',
			},
			{
				name: 'Travel',
				value: 'travel',
				action: 'Travel to a time and place',
				description: 'Arrive at a destination date-time and location (POST /travel)',
			},
		],
		'travel',
	),
];

export const timeFields: INodeProperties[] = [
	dateTimeField('time', ['travel'], {
		name: 'destinationTime',
		displayName: 'Destination Time',
		description: 'When to arrive (sent as ISO 8601)',
	}),
	{
		displayName: 'Location',
		name: 'location',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Alexandria, Egypt',
		description: 'Where to arrive',
		displayOptions: showFor('time', ['travel']),
	},
	...durationFields('time', ['fastForward'], 'move forward'),
	...durationFields('time', ['rewind'], 'move back'),
];
