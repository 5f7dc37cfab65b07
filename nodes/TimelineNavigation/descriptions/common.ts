// Field builders shared by every resource, so a duration, a date-time or a timeline picker
// looks and behaves the same wherever it appears.
import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

export function showFor(resource: string, operations: string[]): IDisplayOptions {
	return { show: { resource: [resource], operation: operations } };
}

/** The operation selector of a resource. */
export function operationField(resource: string, options: INodePropertyOptions[], defaultValue: string): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options,
		default: defaultValue,
	};
}

export function dateTimeField(
	resource: string,
	operations: string[],
	field: { name: string; displayName: string; description: string; required?: boolean },
): INodeProperties {
	return {
		displayName: field.displayName,
		name: field.name,
		type: 'dateTime',
		required: field.required ?? true,
		default: '',
		description: field.description,
		displayOptions: showFor(resource, operations),
	};
}

/** Amount and Unit, turned into the service's `15m` / `2h` / `3d` by buildDuration. */
export function durationFields(resource: string, operations: string[], verb: string): INodeProperties[] {
	return [
		{
			displayName: 'Amount',
			name: 'durationAmount',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			required: true,
			default: 1,
			description: `How many units of time to ${verb}`,
			displayOptions: showFor(resource, operations),
		},
		{
			displayName: 'Unit',
			name: 'durationUnit',
			type: 'options',
			options: [
				{ name: 'Minutes', value: 'minutes' },
				{ name: 'Hours', value: 'hours' },
				{ name: 'Days', value: 'days' },
			],
			default: 'hours',
			description: 'The unit of the amount',
			displayOptions: showFor(resource, operations),
		},
	];
}

/** A timeline chosen from a searchable list (GET /timelines) or entered by ID. */
export function timelineLocatorField(
	resource: string,
	operations: string[],
	description = 'The timeline to use',
): INodeProperties {
	return {
		displayName: 'Timeline',
		name: 'timelineId',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		description,
		displayOptions: showFor(resource, operations),
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a timeline...',
				typeOptions: { searchListMethod: 'searchTimelines', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. tl_123',
			},
		],
	};
}

/**
 * "Additional Fields": the optional fields a payload may carry, plus free-form JSON merged
 * into the body for anything the service accepts that the documents do not show.
 */
export function additionalFieldsCollection(
	resource: string,
	operations: string[],
	known: INodeProperties[] = [],
): INodeProperties {
	return {
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor(resource, operations),
		options: [
			...known,
			{
				displayName: 'Extra Body Fields (JSON)',
				name: 'extraBody',
				type: 'json',
				default: '{}',
				description: 'Fields merged into the request body as given, for fields this node does not list',
			},
		],
	};
}

/** One item per entry of a list in the answer (default), or the whole answer as one item. */
export function outputModeField(resource: string, operations: string[], entries: string): INodeProperties {
	const modes = [
		{ name: `One Item per ${entries}`, value: 'split', description: `Each ${entries.toLowerCase()} becomes its own item` },
		{ name: 'Whole Response', value: 'response', description: 'The answer of the service as one item' },
	];
	return {
		displayName: 'Output',
		name: 'outputMode',
		type: 'options',
		options: modes,
		default: 'split',
		displayOptions: showFor(resource, operations),
	};
}

export function returnAllFields(resource: string, operations: string[]): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions: showFor(resource, operations),
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { resource: [resource], operation: operations, returnAll: [false] } },
		},
	];
}

/** Shown on every operation: how the node talks to the service. */
export const requestOptionsField: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Concurrency',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 100 },
			default: 10,
			description: 'How many items are sent to the service at the same time',
		},
		{
			displayName: 'Max Retries on Rate Limit',
			name: 'maxRetries',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 10 },
			default: 3,
			description:
				'How often an answer of HTTP 429 (rate limited: the service did nothing) is retried after its Retry-After. Other failures are never retried, so nothing is sent twice.',
		},
		{
			displayName: 'Max Retry Wait (Seconds)',
			name: 'maxRetryWait',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 60,
			description: 'The longest Retry-After the node will wait for; a longer one fails the item',
		},
		{
			displayName: 'Timeout (Ms)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 30000,
			description: 'How long to wait for an answer before the item fails',
		},
	],
};
