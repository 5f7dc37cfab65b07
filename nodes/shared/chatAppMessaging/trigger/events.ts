// What a delivery of the messaging service's account webhook must carry, checked before
// anything starts. Pure functions: no n8n context, so they read like the contract.
import type { IDataObject } from 'n8n-workflow';
import { parseServiceTime } from '../../serviceTime';

export const STATUS_EVENT = 'message.status';
export const INBOUND_EVENT = 'message.inbound';
export type KnownEventType = typeof STATUS_EVENT | typeof INBOUND_EVENT;

/**
 * The largest delivery accepted. A status or inbound event is a few hundred bytes; n8n
 * itself accepts up to 16 MiB, which would let anyone who finds the URL start workflows
 * with huge items.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Size of the delivery as it arrived: the raw bytes, else the declared length. */
export function bodySize(rawBody: Buffer | string | undefined, contentLength: unknown): number {
	if (rawBody !== undefined) return typeof rawBody === 'string' ? Buffer.byteLength(rawBody) : rawBody.length;
	const declared = Number(contentLength);
	return Number.isFinite(declared) ? declared : 0;
}

/** The 24-hour customer service window an inbound message opens. */
export const SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * The fields the trigger relies on, per event type: the id and status make the
 * repeated-delivery key, the sender and timestamp give the window. Other documented fields
 * (conversation_id, channel, to, text) pass through as they came but are not demanded:
 * an inbound media message, for example, may arrive without text.
 */
export const REQUIRED_FIELDS: Record<KnownEventType, readonly string[]> = {
	[STATUS_EVENT]: ['message_id', 'status', 'timestamp'],
	[INBOUND_EVENT]: ['message_id', 'from', 'timestamp'],
};

export type ParsedDelivery =
	| { ok: true; event: IDataObject; eventType: string; known: boolean }
	| { ok: false; message: string };

function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'string') return value.trim() === '' ? 'an empty string' : `the string "${value}"`;
	return `a ${typeof value}`;
}

/**
 * Finds the JSON object of a delivery. n8n parses `application/json` bodies before the
 * node runs; a body sent with another content type arrives as text or unparsed, so the
 * raw bytes are tried too.
 */
export function readJsonObject(parsedBody: unknown, rawBody: Buffer | string | undefined): IDataObject | string {
	if (isPlainObject(parsedBody) && Object.keys(parsedBody).length > 0) return parsedBody;
	const raw = rawBody === undefined ? (typeof parsedBody === 'string' ? parsedBody : '') : rawBody.toString();
	if (raw.trim() === '') {
		return 'The request body is empty. Expected a JSON object such as {"event_type":"message.status", ...}.';
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(raw);
	} catch (error) {
		return `The request body is not valid JSON (${(error as Error).message}). Expected a JSON object with an "event_type" field.`;
	}
	if (!isPlainObject(parsed)) {
		return `The request body is ${describe(parsed)}, not a JSON object. Expected one event per request, such as {"event_type":"message.inbound", ...}.`;
	}
	return parsed;
}

/** Checks `event_type` and, for the known types, the fields the trigger relies on. */
export function checkEvent(body: IDataObject): ParsedDelivery {
	const eventType = body.event_type;
	if (eventType === undefined) {
		return {
			ok: false,
			message: `The request body has no "event_type" field. Expected "${STATUS_EVENT}" or "${INBOUND_EVENT}".`,
		};
	}
	if (typeof eventType !== 'string' || eventType.trim() === '') {
		return {
			ok: false,
			message: `The field "event_type" is ${describe(eventType)}. Expected "${STATUS_EVENT}" or "${INBOUND_EVENT}".`,
		};
	}
	if (eventType !== STATUS_EVENT && eventType !== INBOUND_EVENT) {
		return { ok: true, event: body, eventType, known: false };
	}

	const problems: string[] = [];
	for (const field of REQUIRED_FIELDS[eventType]) {
		const value = body[field];
		if (value === undefined) problems.push(`"${field}" is missing`);
		else if (typeof value !== 'string' || value.trim() === '') problems.push(`"${field}" is ${describe(value)}`);
	}
	if (problems.length === 0 && Number.isNaN(parseServiceTime(body.timestamp))) {
		problems.push(`"timestamp" is ${describe(body.timestamp)}, not an ISO 8601 date-time`);
	}
	if (problems.length > 0) {
		return {
			ok: false,
			message: `Invalid ${eventType} event: ${problems.join('; ')}. Required string fields: ${REQUIRED_FIELDS[eventType].join(', ')}.`,
		};
	}
	return { ok: true, event: body, eventType, known: true };
}

/**
 * When the 24-hour window the inbound message opened closes (ISO 8601, UTC; a timestamp without a
 * zone is UTC); null when that is past the last date JavaScript can represent (the year 275760).
 */
export function windowOpenUntil(timestamp: string): string | null {
	const closes = new Date(parseServiceTime(timestamp) + SERVICE_WINDOW_MS);
	return Number.isNaN(closes.getTime()) ? null : closes.toISOString();
}

/** The key under which a delivery counts as "the same event" (one id, type and status). */
export function deliveryKey(event: IDataObject, eventType: string): string {
	return [event.message_id, eventType, event.status ?? ''].map(String).join('|');
}
