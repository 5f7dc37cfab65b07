// Reading the node's parameters for one item. Every check names the field as the editor shows
// it, the value it got and the item, and is made before anything is sent.
import {
	NodeOperationError,
	type IExecuteFunctions,
	type INodeParameterResourceLocator,
} from 'n8n-workflow';
import { toIsoDateTime, type Checked } from './validation';

/** A field as errors name it: its parameter name and the label the editor shows. */
export interface FieldRef {
	name: string;
	displayName: string;
}

/** How a value is shown inside an error message: short, and never mistaken for text around it. */
export function showValue(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	const text = typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
	return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** An input error, raised before any request: names the field, the value and the item. */
export function invalidInput(
	context: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
	expected: string,
): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`Invalid ${field} in item ${itemIndex}: got ${showValue(value)}, ${expected}`,
		{
			itemIndex,
			description: `Fix "${field}" (or the expression that fills it) for item ${itemIndex}. Nothing was sent for this item.`,
		},
	);
}

export function unwrap<T>(
	context: IExecuteFunctions,
	itemIndex: number,
	field: string,
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
	const value = context.getNodeParameter(field.name, itemIndex, fallback) as unknown;
	return unwrap(context, itemIndex, field.displayName, value, check(value));
}

/** Text, as an expression may give it: a number counts as text, an object or a list does not. */
function describeNonText(value: unknown): string | undefined {
	if (value === undefined || value === null || typeof value === 'string' || typeof value === 'number') return undefined;
	const kind = Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
	return `expected text, not ${kind}`;
}

/** A required text field: trimmed, and an error when it is empty or not text. */
export function requireString(context: IExecuteFunctions, itemIndex: number, field: FieldRef): string {
	const value = context.getNodeParameter(field.name, itemIndex, '') as unknown;
	// An expression that returns an object or a list: sending "[object Object]" would help no one.
	const notText = describeNonText(value);
	if (notText) throw invalidInput(context, itemIndex, field.displayName, value, notText);
	if (value === undefined || value === null || String(value).trim() === '') {
		throw invalidInput(context, itemIndex, field.displayName, value, 'expected a value: this field is required');
	}
	return String(value).trim();
}

/** An optional text field: undefined when left empty, otherwise the text as given. */
export function optionalString(context: IExecuteFunctions, itemIndex: number, field: FieldRef): string | undefined {
	const value = context.getNodeParameter(field.name, itemIndex, '') as unknown;
	if (value === undefined || value === null || value === '') return undefined;
	return String(value);
}

/** A required date-time, as ISO 8601 UTC; a time without offset is read in the workflow's time zone. */
export function requireDateTime(context: IExecuteFunctions, itemIndex: number, field: FieldRef): string {
	return readChecked(context, itemIndex, field, (value) => toIsoDateTime(value, context.getTimezone()));
}

/** An optional date-time: undefined when left empty, otherwise ISO 8601 UTC (or an input error). */
export function optionalDateTime(context: IExecuteFunctions, itemIndex: number, field: FieldRef): string | undefined {
	const value = context.getNodeParameter(field.name, itemIndex, '') as unknown;
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return undefined;
	return unwrap(context, itemIndex, field.displayName, value, toIsoDateTime(value, context.getTimezone()));
}

/** The ID out of a resource locator (list or ID mode), required and trimmed. */
export function requireLocatorId(context: IExecuteFunctions, itemIndex: number, field: FieldRef): string {
	const locator = context.getNodeParameter(field.name, itemIndex, '', { extractValue: true }) as
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
