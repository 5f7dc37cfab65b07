// Field builders shared by the operations, so a date-time, a timeline picker or an output choice
// looks and behaves the same wherever it appears. An operation lists the fields it shows; the
// registry adds the resource and operation to their display rules.
import type { INodeProperties } from 'n8n-workflow';
import { shownOnlyWhen } from './display';

/** A text field; a required one is refused empty, by n8n in the editor and by the node for expressions. */
export function textField(field: {
	name: string;
	displayName: string;
	description: string;
	placeholder?: string;
	required?: boolean;
}): INodeProperties {
	return {
		displayName: field.displayName,
		name: field.name,
		type: 'string',
		...(field.required && { required: true }),
		default: '',
		...(field.placeholder && { placeholder: field.placeholder }),
		description: field.description,
	};
}

/** A place: where to travel, or where events are watched. */
export const locationField = (description: string): INodeProperties =>
	textField({ name: 'location', displayName: 'Location', required: true, placeholder: 'e.g. Alexandria, Egypt', description });

export function dateTimeField(field: {
	name: string;
	displayName: string;
	description: string;
	required?: boolean;
}): INodeProperties {
	return {
		displayName: field.displayName,
		name: field.name,
		type: 'dateTime',
		required: field.required ?? true,
		default: '',
		description: field.description,
	};
}

/** A timeline chosen from a searchable list (GET /timelines) or entered by ID. */
export function timelineLocatorField(description = 'The timeline to use'): INodeProperties {
	return {
		displayName: 'Timeline',
		name: 'timelineId',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		description,
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

/** The escape hatch's label, as the editor shows it and errors name it. */
export const EXTRA_BODY_LABEL = 'Extra Body Fields (JSON)';

/**
 * "Additional Fields": the optional fields a payload may carry, plus free-form JSON merged
 * into the body for anything the service accepts that the documents do not show.
 */
export function additionalFieldsCollection(known: INodeProperties[] = []): INodeProperties {
	return {
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			...known,
			{
				displayName: EXTRA_BODY_LABEL,
				name: 'extraBody',
				type: 'json',
				default: '{}',
				description: 'Fields merged into the request body as given, for fields this node does not list',
			},
		],
	};
}

/** One item per entry of a list in the answer (default), or the whole answer as one item. */
export function outputModeField(entries: string): INodeProperties {
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
	};
}

export const returnAllFields: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

export const DATA_TO_SEND = 'dataToSend';
export const DEFINE_BELOW = 'defineBelow';
/** n8n's own value for this mode (Postgres, Supabase, NocoDB...). */
export const AUTO_MAP_INPUT_DATA = 'autoMapInputData';

/** The input item's fields a send reads in "Map Automatically" mode, as the editor lists them. */
export interface InputFieldNames {
	required: string[];
	optional: string[];
}

function listOf(names: string[]): string {
	return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

export function describeInputFields({ required, optional }: InputFieldNames): string {
	return `${listOf(required)}${optional.length ? ` (optionally ${listOf(optional)})` : ''}`;
}

/**
 * "Data to Send", as n8n's own nodes offer it: the fields below (the default), or fields of the
 * same names in the input item, which n8n need not evaluate as expressions for every item.
 */
export function dataToSendFields(inputFields: InputFieldNames): INodeProperties[] {
	const names = describeInputFields(inputFields);
	return [
		{
			displayName: 'Data to Send',
			name: DATA_TO_SEND,
			type: 'options',
			noDataExpression: true,
			options: [
				{
					name: 'Define Below',
					value: DEFINE_BELOW,
					description: 'Set each field of the message below, with expressions where needed',
				},
				{
					name: 'Map Automatically',
					value: AUTO_MAP_INPUT_DATA,
					description: `Use when the input items have fields named ${names}. The fastest way to send many items.`,
				},
			],
			default: DEFINE_BELOW,
			description: 'Whether to fill the message from the fields below or from the fields of the input item',
		},
		{
			displayName: `In this mode, make sure the input items have fields named ${names}. Use an 'Edit Fields' node before this node to rename fields if needed.`,
			name: 'autoMapNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { [DATA_TO_SEND]: [AUTO_MAP_INPUT_DATA] } },
		},
	];
}

/** Fields shown, and read, only when Data to Send is "Define Below". */
export function definedBelow(properties: INodeProperties[]): INodeProperties[] {
	return shownOnlyWhen({ [DATA_TO_SEND]: [DEFINE_BELOW] }, properties);
}
