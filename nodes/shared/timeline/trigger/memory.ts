// What the Timeline Navigation Events Trigger has already seen, kept in the node's workflow static data.
//
// The service gives monitored events and anomalies no ID, so a thing is known by its content: the
// digest (../../digest.ts) of its fields, keys sorted and its time normalised. An event changed by
// Manipulate Event (another time or description) is therefore a new event; two events at the same
// place with the same time and description are one.
//
// The memory is bounded by what the service can still return. An event is remembered under the
// hour of its time and forgotten with its hour once that hour has left the Look Back window (a
// query for the window can no longer return it). The anomalies of a timeline are remembered as
// the service last listed them: one it no longer lists is forgotten.
import type { IDataObject } from 'n8n-workflow';
import { digestOf, DIGEST_LENGTH } from '../../digest';

const HOUR_MS = 60 * 60 * 1000;
/** The bucket of things whose time cannot be read: they are remembered as last listed. */
const UNTIMED = 'untimed';
/** Where the memory lives in the node's static data. */
export const MEMORY_KEY = 'seen';

/** Something the service listed, with its fingerprint and its time (NaN when it has none). */
export interface Listed {
	json: IDataObject;
	digest: string;
	at: number;
}

/** As stored: what is watched, and the digests of what was seen, by bucket. */
interface StoredSeen {
	/** What the memory is about: a change (another location, timeline or window) starts afresh. */
	watching: string;
	/** Bucket → the digests of its things, DIGEST_LENGTH characters each, in one string. */
	buckets: Record<string, string>;
}

const CANONICAL_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * The JSON text of a thing with its fields in a fixed order, and a `time` as one instant however
 * the service wrote it. Written out rather than sorted into new objects: a poll does this for
 * every event in the window.
 */
function canonicalText(value: unknown, key?: string): string {
	if (key === 'time' && typeof value === 'string' && !CANONICAL_TIME.test(value)) {
		const at = Date.parse(value);
		if (!Number.isNaN(at)) return JSON.stringify(new Date(at).toISOString());
	}
	if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
	if (Array.isArray(value)) return `[${value.map((entry) => canonicalText(entry)).join(',')}]`;
	const object = value as IDataObject;
	return `{${Object.keys(object)
		.sort()
		.map((name) => `${JSON.stringify(name)}:${canonicalText(object[name], name)}`)
		.join(',')}}`;
}

/** Each thing the service listed with its digest and time, in the service's order. */
export function fingerprinted(entries: IDataObject[], timeOf: (entry: IDataObject) => unknown): Listed[] {
	return entries.map((json) => {
		const time = timeOf(json);
		return { json, digest: digestOf(canonicalText(json)), at: typeof time === 'string' ? Date.parse(time) : Number.NaN };
	});
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

function digestsIn(keys: string): string[] {
	const digests: string[] = [];
	for (let i = 0; i < keys.length; i += DIGEST_LENGTH) digests.push(keys.slice(i, i + DIGEST_LENGTH));
	return digests;
}

function readStored(staticData: IDataObject, watching: string): StoredSeen | undefined {
	const stored = staticData[MEMORY_KEY] as StoredSeen | undefined;
	if (!stored || typeof stored !== 'object' || stored.watching !== watching || typeof stored.buckets !== 'object' || stored.buckets === null) {
		return undefined;
	}
	return stored;
}

/** What a poll learns: the things not seen before, and whether anything was seen before at all. */
export interface Sighting {
	/** No memory of what is watched yet: the first poll after activation, or after a change. */
	first: boolean;
	/** What was not seen before, oldest first, each once. */
	fresh: Listed[];
}

/**
 * Compares the listing with the memory of `watching` and records it. Events (`windowStart`
 * given): what was listed joins the memory, and hours that ended before the window's start are
 * forgotten. Anomalies (no window): the memory becomes exactly what was listed.
 */
export function sight(staticData: IDataObject, watching: string, listed: Listed[], windowStart?: number): Sighting {
	const stored = readStored(staticData, watching);
	const seen = new Set(Object.values(stored?.buckets ?? {}).flatMap(digestsIn));
	const unseen: Listed[] = [];
	const freshDigests = new Set<string>();
	for (const entry of listed) {
		if (seen.has(entry.digest) || freshDigests.has(entry.digest)) continue;
		freshDigests.add(entry.digest);
		unseen.push(entry);
	}
	const fresh = oldestFirst(unseen);

	// Untimed things (and every anomaly) are remembered as the service last listed them.
	const asListed = (entry: Listed) => windowStart === undefined || Number.isNaN(entry.at);
	const firstHourKept = windowStart === undefined ? 0 : Math.floor(windowStart / HOUR_MS);
	const buckets: Record<string, string> = Object.fromEntries(
		Object.entries(stored?.buckets ?? {}).filter(([bucket]) => windowStart !== undefined && bucket !== UNTIMED && Number(bucket) >= firstHourKept),
	);
	const recorded = new Set<string>();
	for (const entry of listed) {
		if (recorded.has(entry.digest)) continue;
		const bucket = asListed(entry) ? UNTIMED : String(Math.floor(entry.at / HOUR_MS));
		// A timed event seen before is already in its hour's bucket; one older than the window is not kept.
		if (bucket !== UNTIMED && (seen.has(entry.digest) || Number(bucket) < firstHourKept)) continue;
		buckets[bucket] = (buckets[bucket] ?? '') + entry.digest;
		recorded.add(entry.digest);
	}
	staticData[MEMORY_KEY] = { watching, buckets } satisfies StoredSeen;
	return { first: stored === undefined, fresh };
}
