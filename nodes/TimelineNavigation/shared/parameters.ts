import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeParameterResourceLocator,
} from 'n8n-workflow';
import { parseJsonObject, toIsoDateTime, type Checked } from './validation';

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

/** A required text field: trimmed, and an error when it is empty or not text. */
export function requireString(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
	field: string,
): string {
	const value = context.getNodeParameter(name, itemIndex, '') as unknown;
	if (value !== undefined && value !== null && typeof value !== 'string' && typeof value !== 'number') {
		// An expression that returns an object or a list: sending "[object Object]" would help no one.
		throw invalidInput(context, itemIndex, field, value, `expected text, not ${Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `a ${typeof value}`}`);
	}
	if (value === undefined || value === null || String(value).trim() === '') {
		throw invalidInput(context, itemIndex, field, value, 'expected a value: this field is required');
	}
	return String(value).trim();
}

export function optionalString(context: IExecuteFunctions, name: string, itemIndex: number): string | undefined {
	const value = context.getNodeParameter(name, itemIndex, '') as unknown;
	if (value === undefined || value === null || value === '') return undefined;
	return String(value);
}

export function requireDateTime(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
	field: string,
): string {
	const value = context.getNodeParameter(name, itemIndex, '') as unknown;
	return unwrap(context, itemIndex, field, value, toIsoDateTime(value, context.getTimezone()));
}

/** An optional date-time: undefined when left empty, otherwise ISO 8601 UTC (or an input error). */
export function optionalDateTime(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
	field: string,
): string | undefined {
	const value = context.getNodeParameter(name, itemIndex, '') as unknown;
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return undefined;
	return unwrap(context, itemIndex, field, value, toIsoDateTime(value, context.getTimezone()));
}

/** The ID out of a resource locator (list or ID mode), required and trimmed. */
export function requireLocatorId(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
	field: string,
): string {
	const locator = context.getNodeParameter(name, itemIndex, '', { extractValue: true }) as
		| INodeParameterResourceLocator
		| string;
	const value = typeof locator === 'object' && locator !== null ? locator.value : locator;
	if ((typeof value !== 'string' && typeof value !== 'number') || String(value).trim() === '') {
		throw invalidInput(context, itemIndex, field, value, 'expected an ID: choose one from the list or enter it');
	}
	return checkPathId(context, itemIndex, field, String(value).trim());
}

/** An ID that goes into a URL path: "." and ".." would mean "this folder" and "the folder above". */
export function checkPathId(context: IExecuteFunctions, itemIndex: number, field: string, id: string): string {
	if (/^\.{1,2}$/.test(id)) {
		throw invalidInput(context, itemIndex, field, id, 'expected an ID: "." and ".." cannot be IDs');
	}
	return id;
}

/**
 * Merges the "Additional Fields" collection into a request body: known options by name,
 * then the free-form "Extra Body Fields (JSON)", so a field the documents do not show can
 * still be sent.
 */
export function withAdditionalFields(
	context: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
	convert: Record<string, (value: unknown) => unknown> = {},
): IDataObject {
	const { extraBody, ...known } = context.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const merged: IDataObject = { ...body };
	for (const [name, value] of Object.entries(known)) {
		if (value === '' || value === undefined) continue;
		merged[name] = (convert[name] ? convert[name](value) : value) as IDataObject[string];
	}
	if (extraBody !== undefined) {
		const extra = unwrap(
			context,
			itemIndex,
			'Extra Body Fields (JSON)',
			extraBody,
			parseJsonObject(extraBody),
		);
		Object.assign(merged, extra);
	}
	return merged;
}
