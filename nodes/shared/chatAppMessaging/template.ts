// A template and its positional parameters ({{1}}, {{2}}, ...), listed one by one or given as
// one array. Used twice: by Send Template, and as the fallback template of the free-form sends.
import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';
import { InputField, invalidInput } from '../errors';
import type { Item } from '../execution';
import { shownOnlyWhen } from '../fields/builders';
import { inputFieldValue, isAutoMapped, parameter, readChoice } from '../fields/parameters';

/** A template message: the ID and its parameters in placeholder order. */
export interface TemplateChoice {
	id: string;
	parameters: string[];
}

/** The names of one "template and parameters" group of fields: the main one or the fallback. */
export interface TemplateFieldNames {
	/** Put before every display name of the group ('' or 'Fallback '). */
	labelPrefix: string;
	templateId: string;
	input: string;
	list: string;
	array: string;
	/** The input item's fields that give the template in "Map Automatically" mode (main template only). */
	inputFields?: { templateId: string; parameters: string };
	/** The example the Template ID field shows (default an order update). */
	idPlaceholder?: string;
	/** Said after what a listed parameter replaces, for a group whose template has a parameter of its own (Send and Wait's link). */
	parameterHint?: string;
}

export const TEMPLATE_FIELDS: TemplateFieldNames = {
	labelPrefix: '',
	templateId: 'templateId',
	input: 'parametersInput',
	list: 'templateParameters',
	array: 'templateParametersArray',
	inputFields: { templateId: 'template_id', parameters: 'parameters' },
};

export const FALLBACK_TEMPLATE_FIELDS: TemplateFieldNames = {
	labelPrefix: 'Fallback ',
	templateId: 'fallbackTemplateId',
	input: 'fallbackParametersInput',
	list: 'fallbackTemplateParameters',
	array: 'fallbackTemplateParametersArray',
};

/**
 * "One by One" names each placeholder, so the editor shows which value fills {{1}} and which
 * {{2}}. Up to 9, which keep their order in n8n's alphabetical option list; "From an Array"
 * takes any number.
 */
const MAX_LISTED_POSITION = 9;
const LISTED_POSITIONS = Array.from({ length: MAX_LISTED_POSITION }, (_, index) => index + 1);
const positionName = (position: number) => `placeholder${position}`;

/** The options of "Parameters": one per position, each saying what it replaces (and `hint`). */
const placeholderOptions = (hint = '') =>
	LISTED_POSITIONS.map((position) => ({
		displayName: `Parameter {{${position}}}`,
		name: positionName(position),
		values: [
			{
				displayName: `Value of {{${position}}}`,
				name: 'value',
				type: 'string' as const,
				default: '',
				description: `What replaces {{${position}}} in the template${hint}`,
			},
		],
	}));

/** The fields of one group, built once per group: what the editor shows and errors name. */
interface GroupFields {
	templateId: INodeProperties;
	input: INodeProperties;
	list: INodeProperties;
	array: INodeProperties;
}

function groupFields(names: TemplateFieldNames, idDescription: string): GroupFields {
	const prefix = names.labelPrefix;
	return {
		templateId: {
			displayName: `${prefix}Template ID`,
			name: names.templateId,
			type: 'string',
			required: true,
			default: '',
			placeholder: names.idPlaceholder ?? 'e.g. order_update',
			description: idDescription,
		},
		input: {
			displayName: `${prefix}Parameters Input`,
			name: names.input,
			type: 'options',
			options: [
				{
					name: 'From an Array',
					value: 'array',
					description:
						'One expression that yields the parameters as an array, in order (for example from an AI agent or a previous node)',
				},
				{
					name: 'One by One',
					value: 'list',
					description: 'Give each numbered placeholder ({{1}}, {{2}}, ...) its value, up to {{9}}',
				},
			],
			default: 'list',
			description: "How the values for the template's numbered placeholders ({{1}}, {{2}} and so on) are given",
		},
		list: {
			displayName: `${prefix}Parameters`,
			name: names.list,
			type: 'fixedCollection',
			placeholder: 'Add Parameter',
			default: {},
			description: `The value of each numbered placeholder: add {{1}}, {{2}}, ... without gaps. For more than ${MAX_LISTED_POSITION}, use "From an Array".`,
			displayOptions: { show: { [names.input]: ['list'] } },
			options: placeholderOptions(names.parameterHint),
		},
		array: {
			displayName: `${prefix}Parameters (Array)`,
			name: names.array,
			type: 'json',
			required: true,
			default: '[]',
			placeholder: '={{ $json.parameters }}',
			description: 'An array of the values for {{1}}, {{2}}, ... in order, such as ["Ada", "#1042"]. Usually an expression.',
			displayOptions: { show: { [names.input]: ['array'] } },
		},
	};
}

/** The group's fields, in the editor's order; `shownWhen` adds display conditions (the fallback's switch). */
export function templateFields(names: TemplateFieldNames, idDescription: string, shownWhen?: IDisplayOptions['show']): INodeProperties[] {
	const { templateId, input, list, array } = groupFields(names, idDescription);
	const fields = [templateId, input, list, array];
	return shownWhen ? shownOnlyWhen(shownWhen, fields) : fields;
}

/** One template parameter as text; empty is an error naming its position, never dropped. */
function templateParameter(
	item: Item,
	position: number,
	value: unknown,
	field: string | InputField,
): string {
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	if (typeof value !== 'string') {
		throw invalidInput(
			item,
			field,
			value,
			`expected text for the template's placeholder {{${position}}} (position ${position})`,
		);
	}
	if (value.trim() === '') {
		throw invalidInput(
			item,
			field,
			value,
			`expected a value: parameter ${position} is empty. Templates fill {{1}}, {{2}}, ... by position, so an empty parameter is neither skipped nor moved; give it a value`,
		);
	}
	return value;
}

function readArray(item: Item, field: string | InputField, value: unknown): unknown[] {
	const expected = 'expected an array of parameter values in template order, such as ["Ada", "#1042"]';
	let parsed = value;
	if (typeof value === 'string') {
		if (value.trim() === '') return [];
		try {
			parsed = JSON.parse(value);
		} catch {
			throw invalidInput(item, field, value, `${expected} (it is not valid JSON)`);
		}
	}
	if (!Array.isArray(parsed)) throw invalidInput(item, field, value, expected);
	return parsed;
}

/** The values given one by one, in placeholder order; a gap is an error naming the missing placeholder. */
function readListedParameters(item: Item, list: INodeProperties): unknown[] {
	const listed = parameter(item, list.name, {}) as Record<string, IDataObject | undefined>;
	const given = LISTED_POSITIONS.filter((position) => listed[positionName(position)] !== undefined);
	const highest = given.length ? given[given.length - 1] : 0;
	const missing = LISTED_POSITIONS.find((position) => position < highest && !given.includes(position));
	if (missing !== undefined) {
		throw invalidInput(
			item,
			placeholderLabel(list, missing),
			undefined,
			`expected a value: {{${highest}}} is given but {{${missing}}} is not. Templates fill {{1}}, {{2}}, ... by position, so add {{${missing}}} (Add Parameter)`,
		);
	}
	return given.map((position) => listed[positionName(position)]?.value);
}

/** "Parameters → Parameter {{2}}": the list's entry for a placeholder, as the editor labels it. */
const placeholderLabel = (list: INodeProperties, position: number) => `${list.displayName} → Parameter {{${position}}}`;

/** A template as read from the node: its ID, its parameters, and the field they came from. */
export interface ReadTemplate extends TemplateChoice {
	/** As errors name it: the list, the array field or the input field. */
	parametersField: string | InputField;
}

/** The template's ID and its ordered parameters, listed one by one or from one array. */
export function readTemplate(item: Item, names: TemplateFieldNames): ReadTemplate {
	if (names.inputFields && isAutoMapped(item)) return readMappedTemplate(item, names.inputFields);
	const fields = groupFields(names, '');
	const id = templateId(item, fields.templateId.displayName, parameter(item, fields.templateId.name, ''));
	if (readChoice(item, fields.input) === 'array') {
		const label = fields.array.displayName;
		const values = readArray(item, label, parameter(item, fields.array.name, []));
		return { id, parametersField: label, parameters: values.map((value, index) => templateParameter(item, index + 1, value, label)) };
	}
	const values = readListedParameters(item, fields.list);
	return {
		id,
		parametersField: fields.list.displayName,
		parameters: values.map((value, index) => templateParameter(item, index + 1, value, placeholderLabel(fields.list, index + 1))),
	};
}

/** "Map Automatically": the ID and the (optional) array of parameters from the input item. */
function readMappedTemplate(
	item: Item,
	fields: NonNullable<TemplateFieldNames['inputFields']>,
): ReadTemplate {
	const id = templateId(item, new InputField(fields.templateId), inputFieldValue(item, fields.templateId));
	const given = inputFieldValue(item, fields.parameters);
	const values = given === undefined || given === null ? [] : readArray(item, new InputField(fields.parameters), given);
	return {
		id,
		parametersField: new InputField(fields.parameters),
		parameters: values.map((value, index) =>
			templateParameter(item, index + 1, value, new InputField(`${fields.parameters}[${index}]`)),
		),
	};
}

function templateId(item: Item, field: string | InputField, rawId: unknown): string {
	if ((typeof rawId !== 'string' && typeof rawId !== 'number') || String(rawId).trim() === '') {
		throw invalidInput(item, field, rawId, 'expected the ID of an approved template');
	}
	return String(rawId).trim();
}
