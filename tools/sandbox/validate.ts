/**
 * Field validation shared by the services and the control surface. Every failure is a
 * 400 validation_error whose message names the field and says what is expected.
 */
import { HttpError } from './http';

export type JsonObject = Record<string, unknown>;

export function invalid(field: string, message: string): HttpError {
	return new HttpError(400, 'validation_error', message, field);
}

export function isObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An absent body counts as `{}`, so the first missing required field gets named. */
export function objectBody(body: unknown): JsonObject {
	if (body === undefined) return {};
	if (!isObject(body)) throw invalid('body', 'The request body must be a JSON object.');
	return body;
}

/** Joins a parent path and a key for messages: `template` + `id` => `template.id`. */
export function fieldPath(parent: string | undefined, key: string): string {
	return parent ? `${parent}.${key}` : key;
}

interface StringOptions {
	required?: boolean;
	/** Prefix for the field name in messages (`image` => `image.url`). */
	parent?: string;
	/** Words after "expected": e.g. "the name of the timeline". */
	what?: string;
}

/** A non-empty string, or undefined when optional and absent (null counts as absent). */
export function optionalString(obj: JsonObject, key: string, opts: StringOptions = {}): string | undefined {
	const field = fieldPath(opts.parent, key);
	const value = obj[key];
	const what = opts.what ? ` (${opts.what})` : '';
	if (value === undefined || value === null) {
		if (opts.required) throw invalid(field, `The field '${field}' is required: a non-empty string${what}.`);
		return undefined;
	}
	if (typeof value !== 'string') throw invalid(field, `The field '${field}' must be a string${what}; got ${describe(value)}.`);
	if (opts.required && value.trim() === '') throw invalid(field, `The field '${field}' must not be empty${what}.`);
	return value;
}

export function requiredString(obj: JsonObject, key: string, opts: Omit<StringOptions, 'required'> = {}): string {
	return optionalString(obj, key, { ...opts, required: true }) as string;
}

/**
 * ISO 8601: a calendar date, optionally with a time and a zone. Date.parse alone accepts
 * far too much ("March 7"), so the shape is checked first.
 */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

export function parseIso(value: string): number | undefined {
	// An unencoded `+02:00` in a query string arrives as ` 02:00`; put the plus back.
	const text = value.trim().replace(/(T\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?) (\d{2}(?::?\d{2})?)$/i, '$1+$2');
	if (!ISO_8601.test(text)) return undefined;
	const ms = Date.parse(text.replace(',', '.'));
	return Number.isNaN(ms) ? undefined : ms;
}

const ISO_HINT = 'an ISO 8601 date-time such as 2030-01-01T12:00:00Z';

/** Returns epoch ms, or undefined when optional and absent. */
export function optionalIso(obj: JsonObject, key: string, required = false, parent?: string): number | undefined {
	const field = fieldPath(parent, key);
	const value = obj[key];
	if (value === undefined || value === null || value === '') {
		if (required) throw invalid(field, `The field '${field}' is required: ${ISO_HINT}.`);
		return undefined;
	}
	if (typeof value !== 'string') throw invalid(field, `The field '${field}' must be ${ISO_HINT}; got ${describe(value)}.`);
	const ms = parseIso(value);
	if (ms === undefined) throw invalid(field, `The field '${field}' must be ${ISO_HINT}; got '${value}'.`);
	return ms;
}

export function requiredIso(obj: JsonObject, key: string, parent?: string): number {
	return optionalIso(obj, key, true, parent) as number;
}

export function optionalBoolean(obj: JsonObject, key: string): boolean | undefined {
	const value = obj[key];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'boolean') throw invalid(key, `The field '${key}' must be true or false; got ${describe(value)}.`);
	return value;
}

export function optionalInteger(obj: JsonObject, key: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
	const value = obj[key];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
		throw invalid(key, `The field '${key}' must be an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}; got ${describe(value)}.`);
	}
	return value;
}

export function requiredOneOf<T extends string>(obj: JsonObject, key: string, allowed: readonly T[]): T {
	const value = obj[key];
	const list = allowed.map((a) => `'${a}'`).join(', ');
	if (value === undefined || value === null || value === '') throw invalid(key, `The field '${key}' is required: one of ${list}.`);
	if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
		throw invalid(key, `The field '${key}' must be one of ${list}; got ${describe(value)}.`);
	}
	return value as T;
}

/** Short rendering of a bad value for messages, never the whole payload. */
export function describe(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'string') return `'${value.length > 60 ? `${value.slice(0, 57)}...` : value}'`;
	if (typeof value === 'object') return 'an object';
	return `${typeof value} ${String(value)}`;
}

export function isoString(ms: number): string {
	return new Date(ms).toISOString();
}
