// What the Timeline Navigation Events Trigger has already seen (where it is kept: ./store.ts).
//
// The service gives monitored events and anomalies no ID, so a thing is known by its content: the
// digest (../../digest.ts) of its fields, keys sorted and its time read as one instant. An event
// changed by Manipulate Event (another time or description) is therefore a new event; two events
// at the same place with the same time and description are one.
//
// The memory is bounded, and never forgets what the service may list again:
// - an event with a time counts only inside the window the poll asked for: it is remembered under
//   the hour of its time, and forgotten with its hour once that hour lies wholly before the
//   window (the service can no longer return it). An event the service returns from outside the
//   window (a service that filters loosely) is neither reported nor remembered, so it cannot start
//   the workflow on every poll: one from before the window never counts, one after it counts once
//   a later window holds it;
// - an anomaly, and an event without a readable time, is remembered while the service lists it
//   and afterwards among the MAX_UNLISTED last seen: one short answer (a glitch, a page cut
//   short) does not make the rest new again.
// Times without a zone are read as UTC (../../serviceTime.ts), whatever n8n's time zone.
import type { IDataObject } from 'n8n-workflow';
import { digestOf, DIGEST_LENGTH } from '../../digest';
import { parseServiceTime } from '../../serviceTime';

const HOUR_MS = 60 * 60 * 1000;
/** Anomalies (and untimed events) no longer listed that are still remembered: the last seen first kept. */
export const MAX_UNLISTED = 1000;
/** The longest Look Back; after an outage a poll asks back to where the last answered window ended, never further than this either. */
export const MAX_LOOK_BACK_MS = 7 * 24 * HOUR_MS;

/** Something the service listed, with its fingerprint and its time (NaN when it has none). */
export interface Listed {
	json: IDataObject;
	digest: string;
	at: number;
}

/** The stretch of time a poll asks the service about (ms since the epoch, both ends included). */
export interface Window {
	start: number;
	end: number;
}

/** What a trigger has seen of what it watches, as stored. */
export interface Memory {
	/** What the memory is about: another location, timeline or Look Back starts afresh. */
	subject: string;
	/** Events with a time: hour since the epoch → the digests of its events, DIGEST_LENGTH characters each. */
	hours: Record<string, string>;
	/** Anomalies and events without a time: their digests, those no longer listed first, least recently seen first. */
	untimed: string;
	/** Events: the end of the last window the service answered (ms), where the next poll takes up after an outage. */
	answeredUntil?: number;
}

const CANONICAL_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * Writes things as JSON text with their fields in a fixed order and a `time` as one instant
 * however the service wrote it. Written out rather than sorted into new objects, and each order
 * of fields is sorted once per listing: a poll does this for every event in the window, and the
 * service writes every event with the same fields.
 */
class CanonicalWriter {
	/** The order of fields as listed (joined) → the sorted fields with their JSON names. */
	private readonly orders = new Map<string, Array<[string, string]>>();

	text(value: unknown, key?: string): string {
		if (typeof value === 'string') {
			if (key === 'time' && !CANONICAL_TIME.test(value)) {
				const at = parseServiceTime(value);
				if (!Number.isNaN(at)) return JSON.stringify(new Date(at).toISOString());
			}
			return JSON.stringify(value);
		}
		if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
		if (Array.isArray(value)) return `[${value.map((entry) => this.text(entry)).join(',')}]`;
		const object = value as IDataObject;
		const names = Object.keys(object);
		const listed = names.join('\u0000');
		let order = this.orders.get(listed);
		if (!order) {
			order = names.sort().map((name) => [name, `${JSON.stringify(name)}:`]);
			this.orders.set(listed, order);
		}
		let text = '{';
		for (let i = 0; i < order.length; i++) text += `${i === 0 ? '' : ','}${order[i][1]}${this.text(object[order[i][0]], order[i][0])}`;
		return `${text}}`;
	}
}

/** Each thing the service listed with its digest and time, in the service's order. */
export function fingerprinted(entries: IDataObject[], timeOf: (entry: IDataObject) => unknown, cache?: FingerprintCache): Listed[] {
	const writer = new CanonicalWriter();
	const known = cache?.listing();
	const listed = entries.map((json) => {
		// Keyed by the thing as the service wrote it: the same text is the same thing, with the same digest and time.
		const asListed = known && JSON.stringify(json);
		let fingerprint = asListed ? known.fingerprints.get(asListed) : undefined;
		if (!fingerprint) {
			fingerprint = { digest: digestOf(writer.text(json)), at: parseServiceTime(timeOf(json)) };
			if (asListed) {
				known.fingerprints.set(asListed, fingerprint);
				known.chars += asListed.length;
			}
		}
		return { json, digest: fingerprint.digest, at: fingerprint.at };
	});
	cache?.listed(entries.length);
	return listed;
}

/** Listed things' fingerprints by the things' JSON as listed, and the characters of that JSON. */
interface Listing {
	fingerprints: Map<string, Pick<Listed, 'digest' | 'at'>>;
	chars: number;
}

/** A process keeps at most this many listed things' fingerprints, over every watched thing… */
export const MAX_CACHED = 50_000;
/** …and at most this many characters of their JSON (the keys; about 8 MB as JavaScript strings). */
export const MAX_CACHED_CHARS = 4_000_000;
/** Per watched thing (by workflow, node and what it watches): the fingerprints it listed lately, least recently used first. */
const listings = new Map<string, Listing>();

/** What the process's cache holds now, over every watched thing. */
export function cachedFingerprints(): { entries: number; chars: number } {
	let entries = 0;
	let chars = 0;
	for (const listing of listings.values()) {
		entries += listing.fingerprints.size;
		chars += listing.chars;
	}
	return { entries, chars };
}

/**
 * The fingerprints (digest and time) of what a watched thing listed lately, kept in this n8n
 * process: a poll then fingerprints only what changed since the last (a fingerprint per event was
 * most of a poll's own work). Things no longer listed are dropped once they are as many as those
 * listed; the least recently polled watched things go first when the process holds more than
 * MAX_CACHED fingerprints or MAX_CACHED_CHARS characters. A cache only: a restart or another
 * process fingerprints everything again, with the same result.
 */
export class FingerprintCache {
	constructor(private readonly scope: string) {}

	/** The listing to read and add to; it becomes the most recently used. */
	listing(): Listing {
		const listing = listings.get(this.scope) ?? { fingerprints: new Map(), chars: 0 };
		listings.delete(this.scope);
		listings.set(this.scope, listing);
		return listing;
	}

	/** After a listing of `count` things: start afresh when more than as many again are held, and keep the process's bounds. */
	listed(count: number): void {
		if ((listings.get(this.scope)?.fingerprints.size ?? 0) > 2 * count) listings.set(this.scope, { fingerprints: new Map(), chars: 0 });
		let { entries, chars } = cachedFingerprints();
		for (const [scope, listing] of listings) {
			if (entries <= MAX_CACHED && chars <= MAX_CACHED_CHARS) break;
			listings.delete(scope);
			entries -= listing.fingerprints.size;
			chars -= listing.chars;
		}
	}
}

/** Oldest first; things without a readable time keep the service's order, after the timed ones. */
export function oldestFirst(listed: Listed[]): Listed[] {
	return listed
		.map((entry, order) => ({ entry, order }))
		.sort((a, b) => {
			const timed = Number(Number.isNaN(a.entry.at)) - Number(Number.isNaN(b.entry.at));
			return timed || (a.entry.at - b.entry.at || 0) || a.order - b.order;
		})
		.map(({ entry }) => entry);
}

/** The newest thing with a time, else the last listed without one. */
export function newest(listed: Listed[]): Listed | undefined {
	const timed = listed.filter((entry) => !Number.isNaN(entry.at));
	return timed.length > 0 ? oldestFirst(timed).at(-1) : listed.at(-1);
}

function digestsIn(keys: string): string[] {
	const digests: string[] = [];
	for (let i = 0; i < keys.length; i += DIGEST_LENGTH) digests.push(keys.slice(i, i + DIGEST_LENGTH));
	return digests;
}

/** The stored memory about `subject`, if it is one and readable. */
export function readMemory(stored: unknown, subject: string): Memory | undefined {
	const memory = stored as Memory | undefined;
	if (!memory || typeof memory !== 'object' || memory.subject !== subject) return undefined;
	if (typeof memory.hours !== 'object' || memory.hours === null || typeof memory.untimed !== 'string') return undefined;
	return memory;
}

/**
 * The window a poll of events asks about: the Look Back before now, reaching back to where the
 * last answered window ended when that is earlier (a poll after an outage, or Poll Times further
 * apart than Look Back), but never more than MAX_LOOK_BACK_MS.
 */
export function windowFor(memory: Memory | undefined, now: number, lookBackMs: number): Window {
	const regular = now - lookBackMs;
	if (memory?.answeredUntil === undefined || !Number.isFinite(memory.answeredUntil)) return { start: regular, end: now };
	return { start: Math.max(now - MAX_LOOK_BACK_MS, Math.min(regular, memory.answeredUntil)), end: now };
}

/** What a poll learns: what is new (oldest first, each once), and the memory to keep. */
export interface Comparison {
	fresh: Listed[];
	memory: Memory;
}

/**
 * Compares a listing with the memory before it (`previous`, about the same `subject`) and returns
 * what is new and the memory after it. Events pass the `window` they were asked for; anomalies
 * pass none.
 */
export function compareWithMemory(previous: Memory | undefined, subject: string, listed: Listed[], window?: Window): Comparison {
	const previousUntimed = digestsIn(previous?.untimed ?? '');
	const known = new Set(previousUntimed);
	for (const digests of Object.values(previous?.hours ?? {})) {
		for (let i = 0; i < digests.length; i += DIGEST_LENGTH) known.add(digests.slice(i, i + DIGEST_LENGTH));
	}
	const timed = (entry: Listed) => window !== undefined && !Number.isNaN(entry.at);
	// Both edges belong to the window, as the time range asked for includes both.
	const counts = (entry: Listed) => !timed(entry) || (entry.at >= window!.start && entry.at <= window!.end);

	const fresh: Listed[] = [];
	const listedUntimed = new Set<string>();
	for (const entry of listed) {
		if (!counts(entry)) continue;
		if (!timed(entry)) listedUntimed.add(entry.digest);
		if (known.has(entry.digest)) continue;
		known.add(entry.digest);
		fresh.push(entry);
	}

	// Hours that still reach into the window are kept; the new events join their hour.
	const firstHourKept = window === undefined ? Infinity : Math.floor(window.start / HOUR_MS);
	const hours: Record<string, string> = {};
	for (const [hour, digests] of Object.entries(previous?.hours ?? {})) if (Number(hour) >= firstHourKept) hours[hour] = digests;
	for (const entry of fresh) {
		if (!timed(entry)) continue;
		const hour = String(Math.floor(entry.at / HOUR_MS));
		hours[hour] = (hours[hour] ?? '') + entry.digest;
	}

	// Untimed: those no longer listed first (least recently seen first), then those listed now.
	const unlisted = previousUntimed.filter((digest) => !listedUntimed.has(digest));
	const stillListed = previousUntimed.filter((digest) => listedUntimed.has(digest));
	const added = fresh.filter((entry) => !timed(entry)).map((entry) => entry.digest);
	const untimed = [...unlisted.slice(Math.max(0, unlisted.length - MAX_UNLISTED)), ...stillListed, ...added].join('');

	const memory: Memory = { subject, hours, untimed };
	if (window !== undefined) memory.answeredUntil = window.end;
	return { fresh: oldestFirst(fresh), memory };
}
