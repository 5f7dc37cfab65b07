import type { INodeProperties } from 'n8n-workflow';
import { additionalFieldsCollection, operationField, showFor, timelineLocatorField } from './common';

export const itemOperations: INodeProperties[] = [
	operationField(
		'item',
		[
			{
				name: 'Register',
				value: 'register',
				action: 'Register an item',
				description: 'Register an item in a timeline (POST /items)',
			},
		],
		'register',
	),
];

export const itemFields: INodeProperties[] = [
	timelineLocatorField('item', ['register'], 'The timeline to register the item in'),
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Pocket watch',
		description: 'The name of the item',
		displayOptions: showFor('item', ['register']),
	},
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		default: '',
		description: 'What the item is',
		displayOptions: showFor('item', ['register']),
	},
	additionalFieldsCollection('item', ['register']),
];
