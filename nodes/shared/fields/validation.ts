// Pure checks and conversions for user input. Each returns a value or a problem in plain
// words; `parameters.ts` turns a problem into an error naming the field and the item.

const E164_PATTERN = /^\+[1-9][0-9]{6,14}$/;

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

export const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
export const problem = <T>(text: string): Checked<T> => ({ ok: false, problem: text });

/** Date.UTC, but without its mapping of years 0-99 to 1900-1999 (a trip to the year 44 stays in 44). */
function utcTime(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, millis = 0): number {
	const date = new Date(0);
	date.setUTCFullYear(year, month, day);
	date.setUTCHours(hour, minute, second, millis);
	return date.getTime();
}

/** Offset of `timeZone` from UTC at `utcMillis`, in minutes. */
function zoneOffsetMinutes(timeZone: string, utcMillis: number): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(utcMillis));
	const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
	const asUtc = utcTime(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
	return Math.round((asUtc - Math.floor(utcMillis / 1000) * 1000) / 60000);
}

const ISO_DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Reads what an n8n date-time field or an expression gives (an ISO string, with or without
 * offset, or a Date/Luxon value) and returns it as an ISO 8601 UTC string. A time without
 * an offset is read in the workflow's time zone, as n8n's own nodes do.
 */
export function toIsoDateTime(value: unknown, timeZone = 'UTC'): Checked<string> {
	if (value instanceof Date) {
		return Number.isNaN(value.getTime()) ? problem('expected a valid date-time') : ok(value.toISOString());
	}
	if (value && typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function') {
		return toIsoDateTime((value as { toISO: () => string }).toISO(), timeZone);
	}
	if (typeof value !== 'string' || value.trim() === '') {
		return problem('expected an ISO 8601 date-time such as 2026-05-01T09:30:00Z');
	}
	const match = ISO_DATE_TIME.exec(value.trim());
	if (!match) return problem('expected an ISO 8601 date-time such as 2026-05-01T09:30:00Z');
	const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '0', zone] = match;
	const millis = Number(fraction.padEnd(3, '0').slice(0, 3));
	const wallClock = utcTime(+year, +month - 1, +day, +hour, +minute, +second, millis);
	const check = new Date(wallClock);
	if (check.getUTCMonth() !== +month - 1 || check.getUTCDate() !== +day || +hour > 23 || +minute > 59 || +second > 59) {
		return problem('expected a real calendar date-time');
	}
	let utc: number;
	if (zone === undefined) {
		const guess = wallClock - zoneOffsetMinutes(timeZone, wallClock) * 60000;
		utc = wallClock - zoneOffsetMinutes(timeZone, guess) * 60000;
	} else if (zone.toUpperCase() === 'Z') {
		utc = wallClock;
	} else {
		const sign = zone.startsWith('-') ? -1 : 1;
		const digits = zone.replace(/[+:-]/g, '');
		const [offsetHours, offsetMinutes] = [Number(digits.slice(0, 2)), Number(digits.slice(2))];
		// Real offsets run from -12:00 to +14:00; "+99:99" is a typo, not a time zone.
		if (offsetHours > 14 || offsetMinutes > 59) return problem('expected a UTC offset from -14:00 to +14:00');
		utc = wallClock - sign * (offsetHours * 60 + offsetMinutes) * 60000;
	}
	return ok(new Date(utc).toISOString());
}

/**
 * A whole number from `min` (and up to `max`), as a number field or an expression gives it (a
 * number, or its digits as text): the one check for counts, amounts and limits.
 */
export function checkWholeNumber(value: unknown, min: number, max?: number): Checked<number> {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	const inRange = typeof number === 'number' && Number.isInteger(number) && number >= min && (max === undefined || number <= max);
	if (inRange) return ok(number);
	return problem(`expected a whole number ${max === undefined ? `of at least ${min}` : `from ${min} to ${max}`}`);
}

/** `<start>/<end>`, both ISO 8601, start not after end. */
export function buildTimeRange(start: string, end: string): Checked<string> {
	if (Number.isNaN(Date.parse(start)) || Number.isNaN(Date.parse(end))) {
		return problem('expected two ISO 8601 date-times such as 2026-05-01T09:30:00Z');
	}
	if (Date.parse(start) > Date.parse(end)) {
		return problem(`the start (${start}) is after the end (${end})`);
	}
	return ok(`${start}/${end}`);
}

/** Removes the separators people write in phone numbers: spaces, dashes, dots, parentheses. */
export function normalizePhoneNumber(value: string): string {
	const compact = value.trim().replace(/[\s\-.()\u00a0]/g, '');
	return compact.startsWith('00') ? `+${compact.slice(2)}` : compact;
}

export function checkE164(value: unknown, normalize: boolean): Checked<string> {
	if (typeof value !== 'string' && typeof value !== 'number') {
		return problem('expected a phone number in E.164 form, such as +14155550123');
	}
	const raw = String(value);
	const candidate = normalize ? normalizePhoneNumber(raw) : raw.trim();
	return E164_PATTERN.test(candidate)
		? ok(candidate)
		: problem(
				`expected a phone number in E.164 form: a +, the country code and the number, digits only, such as +14155550123${normalize ? '' : ' (turn on "Normalize Phone Number" to strip spaces, dashes, dots and parentheses)'}`,
			);
}

/** A named placeholder in free-form text: `{first_name}` or the doubled `{{first_name}}`. */
const PLACEHOLDER = /\{\{?\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}?\}/g;

/** The names of the placeholders in free-form text, each once, in order of appearance. */
export function findPlaceholders(text: string): string[] {
	const names = new Set<string>();
	for (const match of text.matchAll(PLACEHOLDER)) {
		names.add(match[1]);
	}
	return [...names];
}

/**
 * The text without the placeholders named, each taken out with the spaces before it, so that
 * "Hi {first_name}, thanks" reads "Hi, thanks".
 */
export function removePlaceholders(text: string, names: string[]): string {
	const removed = new Set(names);
	const withSpaces = new RegExp(`[ \\t]*${PLACEHOLDER.source}`, 'g');
	return text.replace(withSpaces, (whole, name: string) => (removed.has(name) ? '' : whole));
}

export function checkLatitude(value: unknown): Checked<number> {
	return checkNumberInRange(value, -90, 90);
}

export function checkLongitude(value: unknown): Checked<number> {
	return checkNumberInRange(value, -180, 180);
}

function checkNumberInRange(value: unknown, min: number, max: number): Checked<number> {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isFinite(number) || number < min || number > max) {
		return problem(`expected a number from ${min} to ${max}`);
	}
	return ok(number);
}

/** A JSON object given as text or as an object (from an expression). */
export function parseJsonObject(value: unknown): Checked<Record<string, unknown>> {
	let parsed = value;
	if (typeof value === 'string') {
		if (value.trim() === '') return ok({});
		try {
			parsed = JSON.parse(value);
		} catch (error) {
			return problem(`expected a JSON object, but it is not valid JSON (${(error as Error).message})`);
		}
	}
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
		return problem('expected a JSON object such as {"key": "value"}');
	}
	return ok(parsed as Record<string, unknown>);
}

/** An http or https URL, as a service can fetch it. */
export function checkHttpUrl(value: unknown): Checked<string> {
	const text = typeof value === 'string' ? value.trim() : '';
	let url: URL | undefined;
	try {
		url = new URL(text);
	} catch {
		url = undefined;
	}
	if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
		return problem('expected an http or https URL, such as https://example.com/photo.jpg');
	}
	return ok(text);
}
