// Remembers which events already started the workflow, so an at-least-once delivery that
// repeats starts it only once. Two memories answer together:
// - the process memory: this n8n process's own record, checked and updated without awaiting
//   anything, so two calls handled by the same process can never both pass;
// - the stored memory: the node's workflow static data, which n8n loads from its database for
//   every webhook call and saves after it. It spans processes and restarts. It is a read and a
//   later overwrite of the whole object, so a call that loaded an older copy can drop keys that
//   other calls saved meanwhile; each process therefore counts in the stored memory how many of
//   its keys the copy holds, and writes back the ones a copy lacks on its next call.
// Both are bounded by count and age, and the work per delivery does not grow as they fill.
import { createHash, randomUUID } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/** At least the last MAX_REMEMBERED events (of the past REMEMBER_FOR_MS) are remembered. */
export const MAX_REMEMBERED = 5000;
export const REMEMBER_FOR_MS = 48 * 60 * 60 * 1000;

/**
 * The stored memory is a list of generations of GENERATION_SIZE keys. New keys go into the
 * newest; when it is full a new one starts, and the oldest is dropped as a whole once more
 * than MAX_REMEMBERED keys are held without it, or once its newest key has expired. Nothing
 * is ever rebuilt or sorted: a delivery costs a few property look-ups per generation.
 */
export const GENERATION_SIZE = 500;
const MAX_GENERATIONS = Math.ceil(MAX_REMEMBERED / GENERATION_SIZE) + 1;
/** Static data holds at most this many keys (the last 5,000, plus the generation being filled). */
export const MAX_STORED = MAX_GENERATIONS * GENERATION_SIZE;
/** Writers (n8n processes) the stored memory keeps a count for; the least recent go first. */
const MAX_WRITERS = 32;

/** Where the stored memory lives in the node's static data. */
export const STORED_MEMORY_KEY = 'repeatMemory';

export interface StoredGeneration {
	/** Time of the generation's first key (ms since the epoch). */
	t: number;
	/** Number of keys in it. */
	n: number;
	/** Seconds from `t` to its newest key. */
	last: number;
	/**
	 * `n` entries of ENTRY_LENGTH characters: a key's digest, then its seconds from `t` (rounded
	 * up, so a key is never forgotten early) in OFFSET_LENGTH base64url digits. One string rather
	 * than an object of thousands of properties: n8n parses, copies and saves static data for
	 * every webhook call and stores it with every execution it saves, and a few strings cost it
	 * far less.
	 */
	keys: string;
}

export interface StoredMemory {
	gens: StoredGeneration[];
	/**
	 * Per n8n process (a random id per process and node): `n` = how many of its keys, counted
	 * from its start, this copy holds all of; `at` = when it last wrote.
	 */
	writers?: Record<string, { n: number; at: number }>;
}

export interface DeliveryMemory {
	/** True the first time `key` is seen within the bounds (and records it); false for a repeat. */
	firstDelivery(key: string, now?: number): boolean;
}

/**
 * 72 bits of SHA-256 in 12 characters: fixed-size entries whatever the message id, and a chance
 * of about 1 in 10^18 per delivery that a new event is taken for one of 5,000 remembered ones.
 */
export const DIGEST_LENGTH = 12;
const OFFSET_LENGTH = 3;
export const ENTRY_LENGTH = DIGEST_LENGTH + OFFSET_LENGTH;
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** The largest offset 3 digits hold: about 72 hours, more than a key is remembered. */
const MAX_OFFSET_S = 64 ** OFFSET_LENGTH - 1;

export function deliveryDigest(key: string): string {
	return createHash('sha256').update(key, 'utf8').digest('base64url').slice(0, DIGEST_LENGTH);
}

function encodeOffset(seconds: number): string {
	let rest = Math.min(Math.max(seconds, 0), MAX_OFFSET_S);
	let digits = '';
	for (let i = 0; i < OFFSET_LENGTH; i++) {
		digits = BASE64URL[rest % 64] + digits;
		rest = Math.floor(rest / 64);
	}
	return digits;
}

function decodeOffset(keys: string, at: number): number {
	let seconds = 0;
	for (let i = at; i < at + OFFSET_LENGTH; i++) seconds = seconds * 64 + BASE64URL.indexOf(keys[i]);
	return seconds;
}

function isGeneration(value: unknown): value is StoredGeneration {
	const gen = value as StoredGeneration;
	return (
		typeof gen === 'object' &&
		gen !== null &&
		typeof gen.t === 'number' &&
		typeof gen.n === 'number' &&
		typeof gen.last === 'number' &&
		typeof gen.keys === 'string' &&
		gen.keys.length === gen.n * ENTRY_LENGTH
	);
}

/** The stored memory in this node's static data, created (or reset, if unreadable) as needed. */
function storedMemoryIn(staticData: IDataObject): StoredMemory {
	const existing = staticData[STORED_MEMORY_KEY] as StoredMemory | undefined;
	if (existing && Array.isArray(existing.gens) && existing.gens.every(isGeneration)) {
		if (typeof existing.writers !== 'object' || existing.writers === null) existing.writers = {};
		return existing;
	}
	staticData[STORED_MEMORY_KEY] = { gens: [], writers: {} };
	return staticData[STORED_MEMORY_KEY] as StoredMemory;
}

function expired(at: number, now: number): boolean {
	return now - at >= REMEMBER_FOR_MS;
}

function storedHas(memory: StoredMemory, digest: string, now: number): boolean {
	// Newest first: the keys checked most (this process's recent ones) are found at once.
	for (let g = memory.gens.length - 1; g >= 0; g--) {
		const { keys, t } = memory.gens[g];
		// A match counts only at the start of an entry; a key forgotten and seen again is there twice.
		for (let i = keys.indexOf(digest); i !== -1; i = keys.indexOf(digest, i + 1)) {
			if (i % ENTRY_LENGTH === 0 && !expired(t + decodeOffset(keys, i + DIGEST_LENGTH) * 1000, now)) return true;
		}
	}
	return false;
}

function storedAdd(memory: StoredMemory, digest: string, at: number, now: number): void {
	const gens = memory.gens;
	let current = gens[gens.length - 1];
	if (!current || current.n >= GENERATION_SIZE || at - current.t > MAX_OFFSET_S * 1000) {
		current = { t: at, n: 0, last: 0, keys: '' };
		gens.push(current);
	}
	// A key written back into a newer generation counts from its start: remembered a little longer.
	const offset = Math.max(0, Math.ceil((at - current.t) / 1000));
	current.keys += digest + encodeOffset(offset);
	current.n += 1;
	current.last = Math.max(current.last, offset);
	while (gens.length > MAX_GENERATIONS || (gens.length > 1 && expired(gens[0].t + gens[0].last * 1000, now))) {
		gens.shift();
	}
}

/** What this process has seen, per workflow and trigger node. */
interface ProcessMemory {
	/** This process's name among the stored memory's writers. */
	writer: string;
	/** Digest -> time first seen, oldest first (a Map keeps insertion order). */
	seen: Map<string, number>;
	/** Every key recorded here, the newest MAX_REMEMBERED kept: key number i at log[i % MAX_REMEMBERED]. */
	log: Array<{ digest: string; at: number }>;
	/** Keys recorded here since the process started. */
	count: number;
}

const processMemories = new Map<string, ProcessMemory>();

function processMemoryOf(workflowId: string | undefined, nodeName: string): ProcessMemory | undefined {
	if (!workflowId) return undefined; // an unsaved workflow: nothing stable to key it by
	const scope = `${workflowId}\u0000${nodeName}`;
	let memory = processMemories.get(scope);
	if (!memory) {
		memory = { writer: randomUUID().slice(0, 8), seen: new Map(), log: [], count: 0 };
		processMemories.set(scope, memory);
	}
	return memory;
}

function processHas(memory: ProcessMemory, digest: string, now: number): boolean {
	// Drop from the old end: each key is dropped once, so this is O(1) per delivery on average.
	for (const [oldest, at] of memory.seen) {
		if (memory.seen.size <= MAX_REMEMBERED && !expired(at, now)) break;
		memory.seen.delete(oldest);
	}
	const at = memory.seen.get(digest);
	return at !== undefined && !expired(at, now);
}

function processAdd(memory: ProcessMemory, digest: string, now: number): void {
	memory.seen.set(digest, now);
	memory.log[memory.count % MAX_REMEMBERED] = { digest, at: now };
	memory.count += 1;
}

/**
 * Writes back this process's keys that the loaded copy lacks: those from the copy's count for
 * this process on (each key is written back at most once per copy that dropped it). Then
 * records the new count, and forgets writers that have been silent for the memory's lifetime.
 * Returns whether anything changed.
 */
function writeBackOwnKeys(stored: StoredMemory, memory: ProcessMemory, now: number): boolean {
	const writers = stored.writers!;
	const held = writers[memory.writer]?.n ?? 0;
	if (held >= memory.count) return false;
	for (let i = Math.max(held, memory.count - MAX_REMEMBERED); i < memory.count; i++) {
		const { digest, at } = memory.log[i % MAX_REMEMBERED];
		if (!expired(at, now) && !storedHas(stored, digest, now)) storedAdd(stored, digest, at, now);
	}
	writers[memory.writer] = { n: memory.count, at: now };
	for (const name of Object.keys(writers)) if (expired(writers[name].at, now)) delete writers[name];
	const names = Object.keys(writers);
	if (names.length > MAX_WRITERS) {
		names.sort((a, b) => writers[a].at - writers[b].at);
		for (const name of names.slice(0, names.length - MAX_WRITERS)) delete writers[name];
	}
	return true;
}

/**
 * The repeat memory of one trigger node during one webhook call: `staticData` is the node's
 * static data as n8n loaded it for this call; `owner` names the node for the process memory
 * (omit it for an unsaved workflow).
 */
export function deliveryMemory(
	staticData: IDataObject,
	owner: { workflowId: string | undefined; nodeName: string } | undefined,
): DeliveryMemory {
	return {
		firstDelivery(key: string, now = Date.now()): boolean {
			const digest = deliveryDigest(key);
			const local = owner ? processMemoryOf(owner.workflowId, owner.nodeName) : undefined;
			const stored = storedMemoryIn(staticData);
			const first = !(local && processHas(local, digest, now)) && !storedHas(stored, digest, now);
			if (first) {
				if (local) processAdd(local, digest, now);
				storedAdd(stored, digest, now, now);
			}
			const wroteBack = local ? writeBackOwnKeys(stored, local, now) : false;
			if (first || wroteBack) {
				// Assigned through n8n's observable static data, so n8n knows to save it.
				staticData[STORED_MEMORY_KEY] = stored as unknown as IDataObject;
			}
			return first;
		},
	};
}
