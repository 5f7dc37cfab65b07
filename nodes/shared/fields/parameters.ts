// Reading an action node's parameters for one item. Every check names the field as the editor
// shows it (or the input item's field it came from), the value it got and the item, and is made
// before anything is sent.
import {
	deepCopy,
	type IGetNodeParameterOptions,
	type INodeParameterResourceLocator,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';
import { InputField, invalidInput } from '../errors';
import type { Item } from '../execution';
import { AUTO_MAP_INPUT_DATA, DATA_TO_SEND_FIELD } from './builders';
import { type Checked, toIsoDateTime } from './validation';

/**
 * The parameter's value for the item, as n8n resolves it (expressions evaluated for the item).
 * n8n's own check of the value is skipped: it applies only to fields that declare `validateType`,
 * which none of these nodes' fields do (the checks here name the field, the value and the item),
 * and finding the field for it was a third of the cost of every read.
 */
export function parameter(item: Item, name: string, fallback?: unknown, options?: IGetNodeParameterOptions): unknown {
	return item.execution.n8n.getNodeParameter(name, item.index, fallback, { ...options, skipValidation: true });
}

/**
 * Whether the operation takes its values from the input items ("Data to Send": Map Automatically):
 * a setting of the whole run, read from its first item, once (a failed read is not kept: each
 * item meets the error).
 */
export function isAutoMapped(item: Item): boolean {
	const run = item.execution;
	run.autoMapped ??= readChoice(run.item(0), DATA_TO_SEND_FIELD) === AUTO_MAP_INPUT_DATA;
	return run.autoMapped;
}

/**
 * An options field's value for the item: one of the values the field offers. Anything else (a
 * value saved by another version of the node, or given by an expression) is an error naming the
 * field, never read as the default.
 */
export function readChoice(item: Item, field: INodeProperties): string {
	const value = parameter(item, field.name, field.default);
	const options = (field.options ?? []) as INodePropertyOptions[];
	if (typeof value !== 'string' || !options.some((option) => option.value === value)) {
		const offered = options.map((option) => `"${String(option.value)}" (${option.name})`).join(', ');
		throw invalidInput(item, field.displayName, value, `expected one of ${offered}`);
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
export function fieldLabel(item: Item, field: FieldRef): string | InputField {
	return field.inputField !== undefined && isAutoMapped(item) ? new InputField(field.inputField) : field.displayName;
}

/** The field's value for the item, from the parameter or, in "Map Automatically" mode, the input item. */
export function fieldValue(item: Item, field: FieldRef, fallback: unknown = ''): unknown {
	if (field.inputField !== undefined && isAutoMapped(item)) return inputFieldValue(item, field.inputField);
	return parameter(item, field.name, fallback);
}

/** A top-level field of the input item's JSON. */
export function inputFieldValue(item: Item, name: string): unknown {
	const json = item.execution.n8n.getInputData()[item.index]?.json ?? {};
	const value = Object.prototype.hasOwnProperty.call(json, name) ? json[name] : undefined;
	// A copy: what is sent (and output) must not share objects with the input item.
	return value !== null && typeof value === 'object' ? deepCopy(value) : value;
}

/** A check's value, or its problem as an input error naming the field, the value and the item. */
export function valueOrInputError<T>(item: Item, field: string | InputField, value: unknown, checked: Checked<T>): T {
	if (!checked.ok) throw invalidInput(item, field, value, checked.problem);
	return checked.value;
}

/** The parameter's value for the item, with its check applied. */
export function readChecked<T>(item: Item, field: FieldRef, check: (value: unknown) => Checked<T>, fallback: unknown = ''): T {
	const value = fieldValue(item, field, fallback);
	return valueOrInputError(item, fieldLabel(item, field), value, check(value));
}

/** Text, as an expression may give it: a number counts as text, an object or a list does not. */
function describeNonText(value: unknown): string | undefined {
	if (value === undefined || value === null || typeof value === 'string' || typeof value === 'number') return undefined;
	const kind = Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
	return `expected text, not ${kind}`;
}

/** A required text field: trimmed, and an error when it is empty or not text. */
export function requireString(item: Item, field: FieldRef): string {
	const value = fieldValue(item, field);
	// An expression that returns an object or a list: sending "[object Object]" would help no one.
	const notText = describeNonText(value);
	if (notText) throw invalidInput(item, fieldLabel(item, field), value, notText);
	if (value === undefined || value === null || String(value).trim() === '') {
		throw invalidInput(item, fieldLabel(item, field), value, 'expected a value: this field is required');
	}
	return String(value).trim();
}

/** An optional text field: undefined when left empty, otherwise the text as given. */
export function optionalString(item: Item, field: FieldRef): string | undefined {
	const value = fieldValue(item, field);
	if (value === undefined || value === null || value === '') return undefined;
	return String(value);
}

/** A required date-time, as ISO 8601 UTC; a time without offset is read in the workflow's time zone. */
export function requireDateTime(item: Item, field: FieldRef): string {
	return readChecked(item, field, (value) => toIsoDateTime(value, item.execution.n8n.getTimezone()));
}

/** An optional date-time: undefined when left empty, otherwise ISO 8601 UTC (or an input error). */
export function optionalDateTime(item: Item, field: FieldRef): string | undefined {
	const value = parameter(item, field.name, '');
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return undefined;
	return valueOrInputError(item, field.displayName, value, toIsoDateTime(value, item.execution.n8n.getTimezone()));
}

/** The ID out of a resource locator (list or ID mode), required and trimmed. */
export function requireLocatorId(item: Item, field: FieldRef): string {
	const locator = parameter(item, field.name, '', { extractValue: true }) as
		| INodeParameterResourceLocator
		| string;
	const value = typeof locator === 'object' && locator !== null ? locator.value : locator;
	if ((typeof value !== 'string' && typeof value !== 'number') || String(value).trim() === '') {
		throw invalidInput(item, field.displayName, value, 'expected an ID: choose one from the list or enter it');
	}
	return String(value).trim();
}

/**
 * An ID made into one URL path segment. "." and ".." are refused: every URL parser resolves
 * them ("this folder", "the folder above"), even percent-encoded, so no encoding keeps them
 * inside their segment.
 */
export function pathSegment(item: Item, field: FieldRef, id: string): string {
	if (/^\.{1,2}$/.test(id)) {
		throw invalidInput(item, field.displayName, id, 'expected an ID: "." and ".." cannot be IDs');
	}
	// Every reserved character is encoded, and "." too, so the ID cannot reach another path.
	return encodeURIComponent(id).replace(/\./g, '%2E');
}
