// Reading the node's parameters for one item. Every check names the field as the editor shows
// it (or the input item's field it came from), the value it got and the item, and is made before
// anything is sent.
//
// Every parameter is read through `nodeParameter`: a value that holds no expression anywhere is
// the same for every item, so n8n resolves it once per execution and the node reuses it.
import {
	deepCopy,
	type IDataObject,
	type IExecuteFunctions,
	type IGetNodeParameterOptions,
	type INodeParameterResourceLocator,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';
import { InputField, invalidInput } from '../errors';
import { AUTO_MAP_INPUT_DATA, dataToSendFields } from './fields';
import { toIsoDateTime, type Checked } from './validation';

/** What one execution has already read: the raw parameters and the expression-free values. */
interface ExecutionParameters {
	raw: IDataObject;
	/** Cache key → the resolved value, or EXPRESSION when the parameter must be read per item. */
	resolved: Map<string, unknown>;
	autoMapped?: boolean;
}

const EXPRESSION = Symbol('holds an expression');
const executions = new WeakMap<IExecuteFunctions, ExecutionParameters>();

function executionParameters(context: IExecuteFunctions): ExecutionParameters {
	let state = executions.get(context);
	if (!state) {
		// getNode() copies the whole node: once per execution, not once per read.
		state = { raw: context.getNode().parameters as IDataObject, resolved: new Map() };
		executions.set(context, state);
	}
	return state;
}

/** n8n evaluates a string starting with "=" as an expression, at any depth of a collection. */
export function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (value !== null && typeof value === 'object') return Object.values(value).some(holdsExpression);
	return false;
}

function rawValueAt(raw: IDataObject, path: string): unknown {
	let value: unknown = raw;
	for (const key of path.split('.')) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as IDataObject)[key];
	}
	return value;
}

/**
 * The parameter's value for the item, as `getNodeParameter` gives it. A value without
 * expressions is resolved (and checked by n8n) once per execution; a failed read is never
 * kept, so each item gets its own error. Objects are copied, so no two items share one.
 */
export function nodeParameter(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback?: unknown,
	options?: IGetNodeParameterOptions,
): unknown {
	const state = executionParameters(context);
	const raw = rawValueAt(state.raw, name);
	// Without a stored value n8n returns the fallback, which differs between callers.
	const key = `${name}${options?.extractValue ? '\u0000extract' : ''}${raw === undefined ? `\u0000${JSON.stringify(fallback)}` : ''}`;
	const known = state.resolved.get(key);
	if (known === EXPRESSION || (known === undefined && holdsExpression(raw))) {
		if (known === undefined) state.resolved.set(key, EXPRESSION);
		return context.getNodeParameter(name, itemIndex, fallback, options);
	}
	if (!state.resolved.has(key)) state.resolved.set(key, context.getNodeParameter(name, itemIndex, fallback, options));
	const value = state.resolved.get(key);
	return value !== null && typeof value === 'object' ? deepCopy(value) : value;
}

/** Whether the operation takes its values from the input item ("Data to Send": Map Automatically). */
export function isAutoMapped(context: IExecuteFunctions): boolean {
	const state = executionParameters(context);
	state.autoMapped ??= readChoice(context, 0, dataToSendFields({ required: [], optional: [] })[0]) === AUTO_MAP_INPUT_DATA;
	return state.autoMapped;
}

/**
 * An options field's value for the item: one of the values the field offers. Anything else (a
 * value saved by another version of the node, or given by an expression) is an error naming the
 * field, never read as the default.
 */
export function readChoice(context: IExecuteFunctions, itemIndex: number, field: INodeProperties): string {
	const value = nodeParameter(context, field.name, itemIndex, field.default);
	const options = (field.options ?? []) as INodePropertyOptions[];
	if (typeof value !== 'string' || !options.some((option) => option.value === value)) {
		const offered = options.map((option) => `"${String(option.value)}" (${option.name})`).join(', ');
		throw invalidInput(context, itemIndex, field.displayName, value, `expected one of ${offered}`);
	}
	return value;
}

/** A field as errors name it: its parameter name and the label the editor shows. */
export interface FieldRef {
	name: string;
	displayName: string;
	/** In "Map Automatically" mode, the input item's field that gives the value instead. */
	inputField?: string;
}

/** The field, read from the input item's `inputField` in "Map Automatically" mode. */
export function mappedFrom(field: FieldRef, inputField: string): FieldRef {
	return { name: field.name, displayName: field.displayName, inputField };
}

/** Where the field's value comes from for this execution: the node's parameter or the input item. */
export function fieldLabel(context: IExecuteFunctions, field: FieldRef): string | InputField {
	return field.inputField !== undefined && isAutoMapped(context) ? new InputField(field.inputField) : field.displayName;
}

/** The field's value for the item, from the parameter or, in "Map Automatically" mode, the input item. */
export function fieldValue(context: IExecuteFunctions, itemIndex: number, field: FieldRef, fallback: unknown = ''): unknown {
	if (field.inputField !== undefined && isAutoMapped(context)) return inputFieldValue(context, itemIndex, field.inputField);
	return nodeParameter(context, field.name, itemIndex, fallback);
}

/** A top-level field of the input item's JSON. */
export function inputFieldValue(context: IExecuteFunctions, itemIndex: number, name: string): unknown {
	const json = context.getInputData()[itemIndex]?.json ?? {};
	const value = Object.prototype.hasOwnProperty.call(json, name) ? json[name] : undefined;
	// A copy: what is sent (and output) must not share objects with the input item.
	return value !== null && typeof value === 'object' ? deepCopy(value) : value;
}

/** A check's value, or its problem as an input error naming the field, the value and the item. */
export function valueOrInputError<T>(
	context: IExecuteFunctions,
	itemIndex: number,
	field: string | InputField,
	value: unknown,
	checked: Checked<T>,
): T {
	if (!checked.ok) throw invalidInput(context, itemIndex, field, value, checked.problem);
	return checked.value;
}

/** The parameter's value for the item, with its check applied. */
export function readChecked<T>(
	context: IExecuteFunctions,
	itemIndex: number,
	field: FieldRef,
	check: (value: unknown) => Checked<T>,
	fallback: unknown = '',
): T {
	const value = fieldValue(context, itemIndex, field, fallback);
	return valueOrInputError(context, itemIndex, fieldLabel(context, field), value, check(value));
}

/** Text, as an expression may give it: a number counts as text, an object or a list does not. */
function describeNonText(value: unknown): string | undefined {
	if (value === undefined || value === null || typeof value === 'string' || typeof value === 'number') return undefined;
	const kind = Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
	return `expected text, not ${kind}`;
}

/** A required text field: trimmed, and an error when it is empty or not text. */
export function requireString(context: IExecuteFunctions, itemIndex: number, field: FieldRef): string {
	const value = fieldValue(context, itemIndex, field);
	// An expression that returns an object or a list: sending "[object Object]" would help no one.
	const notText = describeNonText(value);
	if (notText) throw invalidInput(context, itemIndex, fieldLabel(context, field), value, notText);
	if (value === undefined || value === null || String(value).trim() === '') {
		throw invalidInput(context, itemIndex, fieldLabel(context, field), value, 'expected a value: this field is required');
	}
	return String(value).trim();
}

/** An optional text field: undefined when left empty, otherwise the text as given. */
export function optionalString(context: IExecuteFunctions, itemIndex: number, field: FieldRef): string | undefined {
	const value = fieldValue(context, itemIndex, field);
	if (value === undefined || value === null || value === '') return undefined;
	return String(value);
}

/** A required date-time, as ISO 8601 UTC; a time without offset is read in the workflow's time zone. */
export function requireDateTime(context: IExecuteFunctions, itemIndex: number, field: FieldRef): string {
	return readChecked(context, itemIndex, field, (value) => toIsoDateTime(value, context.getTimezone()));
}

/** An optional date-time: undefined when left empty, otherwise ISO 8601 UTC (or an input error). */
export function optionalDateTime(context: IExecuteFunctions, itemIndex: number, field: FieldRef): string | undefined {
	const value = nodeParameter(context, field.name, itemIndex, '');
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return undefined;
	return valueOrInputError(context, itemIndex, field.displayName, value, toIsoDateTime(value, context.getTimezone()));
}

/** The ID out of a resource locator (list or ID mode), required and trimmed. */
export function requireLocatorId(context: IExecuteFunctions, itemIndex: number, field: FieldRef): string {
	const locator = nodeParameter(context, field.name, itemIndex, '', { extractValue: true }) as
		| INodeParameterResourceLocator
		| string;
	const value = typeof locator === 'object' && locator !== null ? locator.value : locator;
	if ((typeof value !== 'string' && typeof value !== 'number') || String(value).trim() === '') {
		throw invalidInput(context, itemIndex, field.displayName, value, 'expected an ID: choose one from the list or enter it');
	}
	return String(value).trim();
}

/**
 * An ID made into one URL path segment. "." and ".." are refused: every URL parser resolves
 * them ("this folder", "the folder above"), even percent-encoded, so no encoding keeps them
 * inside their segment.
 */
export function pathSegment(context: IExecuteFunctions, itemIndex: number, field: FieldRef, id: string): string {
	if (/^\.{1,2}$/.test(id)) {
		throw invalidInput(context, itemIndex, field.displayName, id, 'expected an ID: "." and ".." cannot be IDs');
	}
	// Every reserved character is encoded, and "." too, so the ID cannot reach another path.
	return encodeURIComponent(id).replace(/\./g, '%2E');
}
