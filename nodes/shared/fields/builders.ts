// Field builders shared by the operations of both services, so a date-time, an output choice or
// Data to Send looks and behaves the same wherever it appears, and the one way display conditions
// are added. An operation lists the fields it shows; the registry adds the resource and operation
// to their display rules.
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

// n8n checks a field's `show` conditions in order and shows the field as soon as one of them
// reads an expression (it cannot know the value), so the conditions that scope a field (its
// resource and operation, Data to Send, a switch) must come before the field's own: after an own
// condition that holds an expression, such as Fallback to Template set to `{{ true }}`, the field
// would show for every operation and its required fields would stop the node. n8n-workflow's
// updateDisplayOptions puts them after.
export function shownOnlyWhen(show: NonNullable<IDisplayOptions['show']>, properties: INodeProperties[]): INodeProperties[] {
	return properties.map((property) => {
		const own = property.displayOptions?.show ?? {};
		const repeated = Object.keys(show).find((key) => key in own);
		if (repeated !== undefined) throw new Error(`The field "${property.name}" already has a display condition on "${repeated}"`);
		return { ...property, displayOptions: { ...property.displayOptions, show: { ...show, ...own } } };
	});
}

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
export const DATA_TO_SEND_FIELD: INodeProperties = {
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
		{ name: 'Map Automatically', value: AUTO_MAP_INPUT_DATA },
	],
	default: DEFINE_BELOW,
	description: 'Whether to fill the message from the fields below or from the fields of the input item',
};

/** Data to Send for an operation whose input items give `inputFields`, and the notice that names them. */
export function dataToSendFields(inputFields: InputFieldNames): INodeProperties[] {
	const names = describeInputFields(inputFields);
	const [defineBelow, autoMap] = DATA_TO_SEND_FIELD.options as Array<{ name: string; value: string; description?: string }>;
	return [
		{
			...DATA_TO_SEND_FIELD,
			options: [defineBelow, { ...autoMap, description: `Use when the input items have fields named ${names}. The fastest way to send many items.` }],
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
export function shownForDefineBelow(properties: INodeProperties[]): INodeProperties[] {
	return shownOnlyWhen({ [DATA_TO_SEND]: [DEFINE_BELOW] }, properties);
}
