// The "Additional Fields" of an operation and the one rule for "Extra Body Fields (JSON)":
// the escape hatch adds fields the node does not list, and never silently replaces one the
// node sets itself.
import type { IDataObject } from 'n8n-workflow';
import { invalidInput } from '../errors';
import type { Item } from '../execution';
import { EXTRA_BODY_LABEL } from './builders';
import { parameter, valueOrInputError } from './parameters';
import { parseJsonObject } from './validation';

/** The "Additional Fields" collection as set for the item (every option is optional). */
export function readAdditionalFields(item: Item): IDataObject {
	return parameter(item, 'additionalFields', {}) as IDataObject;
}

/** A JSON object option of a collection, given as text or as an object from an expression. */
export function readJsonOption(item: Item, field: string, value: unknown): IDataObject {
	if (value === undefined) return {};
	return valueOrInputError(item, field, value, parseJsonObject(value)) as IDataObject;
}

/**
 * Adds free-form JSON fields (Extra Body Fields, Extra Query Fields) to what the node
 * built. A field the node already set, from its own fields or a listed additional field, is an
 * error naming it, never a silent replacement either way.
 */
export function withExtraFields(item: Item, field: string, own: IDataObject, extraValue: unknown): IDataObject {
	const extra = readJsonOption(item, field, extraValue);
	const taken = Object.keys(extra).find((name) => Object.prototype.hasOwnProperty.call(own, name));
	if (taken !== undefined) {
		throw invalidInput(
			item,
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
export function bodyWithAdditionalFields(item: Item, body: IDataObject): IDataObject {
	const { extraBody, ...listed } = readAdditionalFields(item);
	const merged: IDataObject = { ...body };
	for (const [name, value] of Object.entries(listed)) {
		if (value !== '' && value !== undefined) merged[name] = value;
	}
	return withExtraFields(item, EXTRA_BODY_LABEL, merged, extraBody);
}
