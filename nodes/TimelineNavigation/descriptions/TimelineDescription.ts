import type { INodeProperties } from 'n8n-workflow';
import {
	additionalFieldsCollection,
	dateTimeField,
	operationField,
	outputModeField,
	returnAllFields,
	showFor,
	timelineLocatorField,
} from './common';

export const timelineOperations: INodeProperties[] = [
	operationField(
		'timeline',
		[
			{
				name: 'Check for Paradoxes',
				value: 'checkParadoxes',
				action: 'Check a timeline for paradoxes',
				description: 'Check a timeline for paradoxes caused by changes to its history (POST /paradox-checks)',
			},
			{
				name: 'Create',
				value: 'create',
				action: 'Create a timeline',
				description: 'Create a new timeline (POST /timelines)',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a timeline',
				description: 'Delete a timeline (DELETE /timeline/{timeline_id})',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many timelines',
				description: 'List the timelines (GET /timelines)',
			},
			{
				name: 'Monitor Anomalies',
				value: 'monitorAnomalies',
				action: 'Monitor a timeline for anomalies',
				description: 'Get the anomalies detected in a timeline (GET /monitor-timeline)',
			},
			{
				name: 'Travel To',
				value: 'travelTo',
				action: 'Travel to a timeline',
				description: 'Move into a timeline (POST /travels with timeline_id)',
			},
		],
		'getAll',
	),
];

export const timelineFields: INodeProperties[] = [
	...returnAllFields('timeline', ['getAll']),
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Prime',
		description: 'The name of the timeline',
		displayOptions: showFor('timeline', ['create']),
	},
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		default: '',
		description: 'What the timeline is for',
		displayOptions: showFor('timeline', ['create']),
	},
	timelineLocatorField('timeline', ['delete', 'travelTo', 'checkParadoxes', 'monitorAnomalies']),
	dateTimeField('timeline', ['travelTo'], {
		name: 'destinationTime',
		displayName: 'Destination Time',
		description: 'When to arrive (sent as ISO 8601). Leave empty to keep the current time.',
		required: false,
	}),
	outputModeField('timeline', ['monitorAnomalies'], 'Anomaly'),
	additionalFieldsCollection('timeline', ['create', 'travelTo', 'checkParadoxes']),
	{
		displayName: 'Additional Query Parameters (JSON)',
		name: 'extraQuery',
		type: 'json',
		default: '{}',
		description: 'Query parameters added to the request as given, for parameters this node does not list',
		displayOptions: showFor('timeline', ['monitorAnomalies']),
	},
];
