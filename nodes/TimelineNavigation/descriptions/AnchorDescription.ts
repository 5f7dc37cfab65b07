import type { INodeProperties } from 'n8n-workflow';
import { additionalFieldsCollection, dateTimeField, operationField, showFor } from './common';

export const anchorOperations: INodeProperties[] = [
	operationField(
		'anchor',
		[
			{
				name: 'Create',
				value: 'create',
				action: 'Create an anchor',
				description: 'Create a temporal anchor to return to at the end of time travel (POST /anchors)',
			},
			{
				name: 'Return To',
				value: 'returnTo',
				action: 'Return to an anchor',
				description: 'Travel back to a temporal anchor (POST /travels with anchor_id)',
			},
			{
				name: 'Set',
				value: 'set',
				action: 'Set an anchor',
				description: 'Fix a point in time to return to after changes (POST /set-anchor)',
			},
		],
		'set',
	),
];

export const anchorFields: INodeProperties[] = [
	dateTimeField('anchor', ['set', 'create'], {
		name: 'timestamp',
		displayName: 'Timestamp',
		description: 'The moment to anchor (sent as ISO 8601). Leave empty to anchor the moment the node runs.',
		required: false,
	}),
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		default: '',
		placeholder: 'e.g. Before the 1969 detour',
		description: 'Short purpose of the anchor; may be empty',
		displayOptions: showFor('anchor', ['set', 'create']),
	},
	{
		displayName: 'Anchor ID',
		name: 'anchorId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. anc_123',
		description: 'The anchor to return to, as returned by Set or Create',
		displayOptions: showFor('anchor', ['returnTo']),
	},
	dateTimeField('anchor', ['returnTo'], {
		name: 'destinationTime',
		displayName: 'Destination Time',
		description: 'When to arrive (sent as ISO 8601). Leave empty to arrive at the anchored moment.',
		required: false,
	}),
	additionalFieldsCollection('anchor', ['create'], [
		{
			displayName: 'Timeline ID',
			name: 'timeline_id',
			type: 'string',
			default: '',
			description: 'The timeline the anchor belongs to (sent as timeline_id)',
		},
	]),
	additionalFieldsCollection('anchor', ['returnTo']),
];
