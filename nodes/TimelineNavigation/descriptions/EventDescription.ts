import type { INodeProperties } from 'n8n-workflow';
import {
	additionalFieldsCollection,
	dateTimeField,
	operationField,
	outputModeField,
	showFor,
	timelineLocatorField,
} from './common';

export const eventOperations: INodeProperties[] = [
	operationField(
		'event',
		[
			{
				name: 'Manipulate',
				value: 'manipulate',
				action: 'Manipulate an event in a timeline',
				description: 'Add, modify or remove an event in a timeline (POST /events)',
			},
			{
				name: 'Monitor',
				value: 'monitor',
				action: 'Monitor events at a location',
				description: 'Get the events that occurred at a location within a time range (GET /monitor-events)',
			},
		],
		'monitor',
	),
];

const forAction = (actions: string[]) => ({
	show: { resource: ['event'], operation: ['manipulate'], eventAction: actions },
});

export const eventFields: INodeProperties[] = [
	// Monitor
	{
		displayName: 'Location',
		name: 'location',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Alexandria, Egypt',
		description: 'A physical location or event to watch',
		displayOptions: showFor('event', ['monitor']),
	},
	dateTimeField('event', ['monitor'], {
		name: 'rangeStart',
		displayName: 'Start',
		description: 'Start of the time range (sent as ISO 8601); must not be after the end',
	}),
	dateTimeField('event', ['monitor'], {
		name: 'rangeEnd',
		displayName: 'End',
		description: 'End of the time range (sent as ISO 8601)',
	}),
	outputModeField('event', ['monitor'], 'Event'),

	// Manipulate
	timelineLocatorField('event', ['manipulate'], 'The timeline the event belongs to'),
	{
		displayName: 'Action',
		name: 'eventAction',
		type: 'options',
		options: [
			{ name: 'Add', value: 'add', description: 'Add a new event at a time' },
			{ name: 'Modify', value: 'modify', description: 'Change the time or description of an event' },
			{ name: 'Remove', value: 'remove', description: 'Remove an event' },
		],
		default: 'add',
		description: 'What to do with the event',
		displayOptions: showFor('event', ['manipulate']),
	},
	{
		displayName: 'Event ID',
		name: 'eventId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. evt_123',
		description: 'The event to change',
		displayOptions: forAction(['modify', 'remove']),
	},
	{
		displayName: 'Time',
		name: 'eventTime',
		type: 'dateTime',
		required: true,
		default: '',
		description: 'When the event happens (sent as ISO 8601)',
		displayOptions: forAction(['add']),
	},
	{
		displayName: 'Time',
		name: 'eventTime',
		type: 'dateTime',
		default: '',
		description: 'The new time of the event (sent as ISO 8601). Leave empty to keep it.',
		displayOptions: forAction(['modify']),
	},
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		default: '',
		description: 'What happens. When modifying, leave empty to keep it.',
		displayOptions: forAction(['add', 'modify']),
	},
	additionalFieldsCollection('event', ['manipulate'], [
		{
			displayName: 'Location',
			name: 'location',
			type: 'string',
			default: '',
			description: 'Where the event happens; an event with a location shows up in Monitor',
		},
	]),
];
