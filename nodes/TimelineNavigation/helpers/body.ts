// The "Additional Fields" of an operation and the one rule for "Extra Body Fields (JSON)":
// the escape hatch adds fields the node does not list, and never silently replaces one the
// node sets itself.
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { invalidInput } from '../errors';
import { EXTRA_BODY_LABEL } from './fields';
import { nodeParameter, valueOrInputError } from './parameters';
import { parseJsonObject } from './validation';


/** The "Additional Fields" collection as set for the item (every option is optional). */
export function readAdditionalFields(context: IExecuteFunctions, itemIndex: number): IDataObject {
	return nodeParameter(context, 'additionalFields', itemIndex, {}) as IDataObject;
}

/** A JSON object option of a collection, given as text or as an object from an expression. */
export function readJsonOption(
	context: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
): IDataObject {
	if (value === undefined) return {};
	return valueOrInputError(context, itemIndex, field, value, parseJsonObject(value)) as IDataObject;
}

/**
 * Adds free-form JSON fields (Extra Body Fields, Extra Query Fields) to what the node
 * built. A field the node already set, from its own fields or a listed additional field, is an
 * error naming it, never a silent replacement either way.
 */
export function withExtraFields(
	context: IExecuteFunctions,
	itemIndex: number,
	field: string,
	own: IDataObject,
	extraValue: unknown,
): IDataObject {
	const extra = readJsonOption(context, itemIndex, field, extraValue);
	const taken = Object.keys(extra).find((name) => Object.prototype.hasOwnProperty.call(own, name));
	if (taken !== undefined) {
		throw invalidInput(
			context,
			itemIndex,
			field,
			extra,
			`expected only fields this node does not set itself: remove "${taken}", which comes from the node's own fields`,
		);
	}
	return { ...own, ...extra };
}

/**
 * A request body with the item's Additional Fields: the listed options by name (left out when
 * empty), then the Extra Body Fields.
 */
export function bodyWithAdditionalFields(
	context: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
): IDataObject {
	const { extraBody, ...listed } = readAdditionalFields(context, itemIndex);
	const merged: IDataObject = { ...body };
	for (const [name, value] of Object.entries(listed)) {
		if (value !== '' && value !== undefined) merged[name] = value;
	}
	return withExtraFields(context, itemIndex, EXTRA_BODY_LABEL, merged, extraBody);
}
