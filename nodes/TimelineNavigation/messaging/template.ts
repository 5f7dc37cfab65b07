// A template and its positional parameters ({{1}}, {{2}}, ...), listed one by one or given as
// one array. Used twice: by Send Template, and as the fallback template of the free-form sends.
import type { IDataObject, IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { InputField, invalidInput } from '../errors';
import { inputFieldValue, isAutoMapped, nodeParameter, readChoice } from '../helpers/parameters';
import type { TemplateChoice } from './send';

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

/**
 * Before the placeholders were named, "One by One" stored a list: `{ parameter: [{ value }, ...] }`.
 * n8n drops every key a node's description does not declare before the node runs, so version 1
 * declares this one too and keeps the list's entries in numbered slots ("0", "1", ...), which
 * hold each entry as it was saved. Version 1.1 and later do not offer it.
 */
const EARLIER_LIST = 'parameter';
const EARLIER_LIST_SLOTS = 30;
const VERSION_1 = { '@version': [1] };
const FROM_VERSION_1_1 = { '@version': [{ _cnd: { gte: 1.1 } }] };

const placeholderOptions = LISTED_POSITIONS.map((position) => ({
	displayName: `Parameter {{${position}}}`,
	name: positionName(position),
	values: [
		{
			displayName: `Value of {{${position}}}`,
			name: 'value',
			type: 'string' as const,
			default: '',
			description: `What replaces {{${position}}} in the template`,
		},
	],
}));

const earlierListOption = {
	displayName: 'Parameters Saved by Version 1 (Read Only)',
	name: EARLIER_LIST,
	values: Array.from({ length: EARLIER_LIST_SLOTS }, (_, slot) => ({
		displayName: `Saved Value ${slot + 1}`,
		name: String(slot),
		type: 'json' as const,
		default: '',
		description: `Value ${slot + 1} of the list as an earlier build of this node saved it`,
	})),
};

/** The "Parameters Input" choice of a group. */
function parametersInputField(names: TemplateFieldNames): INodeProperties {
	return {
		displayName: `${names.labelPrefix}Parameters Input`,
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
	};
}

/** The group's fields; `shownWhen` adds display conditions (the fallback's switch). */
export function templateFields(
	names: TemplateFieldNames,
	idDescription: string,
	shownWhen: IDisplayOptions['show'] = {},
): INodeProperties[] {
	const prefix = names.labelPrefix;
	const show = (more: IDisplayOptions['show'] = {}): IDisplayOptions | undefined =>
		Object.keys({ ...shownWhen, ...more }).length > 0 ? { show: { ...shownWhen, ...more } } : undefined;
	const withDisplay = (property: INodeProperties, more: IDisplayOptions['show'] = {}): INodeProperties => {
		const displayOptions = show(more);
		return displayOptions ? { ...property, displayOptions } : property;
	};
	const list: INodeProperties = {
		displayName: `${prefix}Parameters`,
		name: names.list,
		type: 'fixedCollection',
		placeholder: 'Add Parameter',
		default: {},
		description: `The value of each numbered placeholder: add {{1}}, {{2}}, ... without gaps. For more than ${MAX_LISTED_POSITION}, use "From an Array".`,
	};
	return [
		withDisplay({
			displayName: `${prefix}Template ID`,
			name: names.templateId,
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. order_update',
			description: idDescription,
		}),
		withDisplay(parametersInputField(names)),
		withDisplay({ ...list, options: [...placeholderOptions, earlierListOption] }, { [names.input]: ['list'], ...VERSION_1 }),
		withDisplay({ ...list, options: placeholderOptions }, { [names.input]: ['list'], ...FROM_VERSION_1_1 }),
		withDisplay(
			{
				displayName: `${prefix}Parameters (Array)`,
				name: names.array,
				type: 'json',
				required: true,
				default: '[]',
				placeholder: '={{ $json.parameters }}',
				description:
					'An array of the values for {{1}}, {{2}}, ... in order, such as ["Ada", "#1042"]. Usually an expression.',
			},
			{ [names.input]: ['array'] },
		),
	];
}

/** One template parameter as text; empty is an error naming its position, never dropped. */
function templateParameter(
	context: IExecuteFunctions,
	itemIndex: number,
	position: number,
	value: unknown,
	field: string | InputField,
): string {
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	if (typeof value !== 'string') {
		throw invalidInput(
			context,
			itemIndex,
			field,
			value,
			`expected text for the template's placeholder {{${position}}} (position ${position})`,
		);
	}
	if (value.trim() === '') {
		throw invalidInput(
			context,
			itemIndex,
			field,
			value,
			`expected a value: parameter ${position} is empty. Templates fill {{1}}, {{2}}, ... by position, so an empty parameter is neither skipped nor moved; give it a value`,
		);
	}
	return value;
}

function readArray(context: IExecuteFunctions, itemIndex: number, field: string | InputField, value: unknown): unknown[] {
	const expected = 'expected an array of parameter values in template order, such as ["Ada", "#1042"]';
	let parsed = value;
	if (typeof value === 'string') {
		if (value.trim() === '') return [];
		try {
			parsed = JSON.parse(value);
		} catch {
			throw invalidInput(context, itemIndex, field, value, `${expected} (it is not valid JSON)`);
		}
	}
	if (!Array.isArray(parsed)) throw invalidInput(context, itemIndex, field, value, expected);
	return parsed;
}

/** The list an earlier build saved (version 1 only), in its order. */
function readEarlierList(
	context: IExecuteFunctions,
	itemIndex: number,
	names: TemplateFieldNames,
	listed: Record<string, unknown>,
): unknown[] {
	const field = `${names.labelPrefix}Parameters`;
	const slots = (listed[EARLIER_LIST] ?? {}) as Record<string, unknown>;
	if (Object.keys(listed).some((key) => key !== EARLIER_LIST)) {
		throw invalidInput(
			context,
			itemIndex,
			field,
			listed,
			'expected one form: the list saved by an earlier version, or Parameter {{1}}, {{2}}, ..., not both. Remove "Parameters Saved by Version 1" or the numbered parameters',
		);
	}
	const values: unknown[] = [];
	for (let slot = 0; slot < EARLIER_LIST_SLOTS; slot++) {
		const entry = slots[String(slot)];
		if (entry === null || typeof entry !== 'object') break;
		values.push((entry as IDataObject).value);
	}
	if (values.length === EARLIER_LIST_SLOTS) {
		throw invalidInput(
			context,
			itemIndex,
			field,
			`${EARLIER_LIST_SLOTS} or more saved values`,
			`expected at most ${EARLIER_LIST_SLOTS - 1} values in a list saved by an earlier version: give them as an array instead (Parameters Input: From an Array)`,
		);
	}
	return values;
}

/** The values given one by one, in placeholder order; a gap is an error naming the missing placeholder. */
function readListedParameters(context: IExecuteFunctions, itemIndex: number, names: TemplateFieldNames): unknown[] {
	const listed = nodeParameter(context, names.list, itemIndex, {}) as Record<string, IDataObject | undefined>;
	if (listed[EARLIER_LIST] !== undefined) return readEarlierList(context, itemIndex, names, listed);
	const given = LISTED_POSITIONS.filter((position) => listed[positionName(position)] !== undefined);
	const highest = given.length ? given[given.length - 1] : 0;
	const missing = LISTED_POSITIONS.find((position) => position < highest && !given.includes(position));
	if (missing !== undefined) {
		throw invalidInput(
			context,
			itemIndex,
			`${names.labelPrefix}Template Parameter {{${missing}}}`,
			undefined,
			`expected a value: {{${highest}}} is given but {{${missing}}} is not. Templates fill {{1}}, {{2}}, ... by position, so add {{${missing}}} (Add Parameter)`,
		);
	}
	return given.map((position) => listed[positionName(position)]?.value);
}

/** The template's ID and its ordered parameters, listed one by one or from one array. */
export function readTemplate(context: IExecuteFunctions, itemIndex: number, names: TemplateFieldNames): TemplateChoice {
	if (names.inputFields && isAutoMapped(context)) return readMappedTemplate(context, itemIndex, names.inputFields);
	const id = templateId(context, itemIndex, `${names.labelPrefix}Template ID`, nodeParameter(context, names.templateId, itemIndex, ''));
	const input = readChoice(context, itemIndex, parametersInputField(names));
	let values: unknown[];
	if (input === 'array') {
		const label = `${names.labelPrefix}Parameters (Array)`;
		values = readArray(context, itemIndex, label, nodeParameter(context, names.array, itemIndex, []));
	} else {
		values = readListedParameters(context, itemIndex, names);
	}
	return {
		id,
		parameters: values.map((value, index) =>
			templateParameter(context, itemIndex, index + 1, value, `${names.labelPrefix}Template Parameter {{${index + 1}}}`),
		),
	};
}

/** "Map Automatically": the ID and the (optional) array of parameters from the input item. */
function readMappedTemplate(
	context: IExecuteFunctions,
	itemIndex: number,
	fields: NonNullable<TemplateFieldNames['inputFields']>,
): TemplateChoice {
	const id = templateId(context, itemIndex, new InputField(fields.templateId), inputFieldValue(context, itemIndex, fields.templateId));
	const given = inputFieldValue(context, itemIndex, fields.parameters);
	const values = given === undefined || given === null ? [] : readArray(context, itemIndex, new InputField(fields.parameters), given);
	return {
		id,
		parameters: values.map((value, index) =>
			templateParameter(context, itemIndex, index + 1, value, new InputField(`${fields.parameters}[${index}]`)),
		),
	};
}

function templateId(context: IExecuteFunctions, itemIndex: number, field: string | InputField, rawId: unknown): string {
	if ((typeof rawId !== 'string' && typeof rawId !== 'number') || String(rawId).trim() === '') {
		throw invalidInput(context, itemIndex, field, rawId, 'expected the ID of an approved template');
	}
	return String(rawId).trim();
}
