// Remembers which events already started the workflow, so an at-least-once delivery that
// repeats starts it only once. Two memories answer together:
// - the process memory: this n8n process's own record, checked and updated without awaiting
//   anything, so two calls handled by the same process can never both pass;
// - the stored memory: the node's workflow static data, which n8n loads from its database for
//   every webhook call and saves after a call that changed it. It spans processes and restarts.
// A process saves its new events into the stored memory at most once per SAVE_EVERY_MS, on the
// first call after that time: a save is a database write of the whole memory, and one per
// delivery was most of the memory's cost. Events newer than a process's last save live in that
// process only until its next call. A save is also a read and a later overwrite of the whole
// object, so a call that loaded an older copy can drop events that other saves added; each
// process therefore counts in the stored memory how many of its events the copy holds, and
// writes back the ones a copy lacks.
// Both are bounded by count and age, and the work per delivery does not grow as they fill.
import { randomUUID } from 'crypto';
import type { IDataObject } from 'n8n-workflow';
import { digestOf, DIGEST_LENGTH } from '../../digest';

/** At least the last MAX_REMEMBERED events (of the past REMEMBER_FOR_MS) are remembered. */
export const MAX_REMEMBERED = 5000;
export const REMEMBER_FOR_MS = 48 * 60 * 60 * 1000;
/** A process saves its new events into static data at most this often (on a later call). */
export const SAVE_EVERY_MS = 250;

/**
 * The stored memory is a list of generations of at most GENERATION_SIZE keys, each spanning at
 * most GENERATION_SPAN_MS. New keys go into the newest; a full or old one is closed and a new
 * one starts. A generation is forgotten as a whole once its newest key has expired (so a key is
 * remembered for REMEMBER_FOR_MS, at most GENERATION_SPAN_MS more), or once MAX_REMEMBERED keys
 * are held without it. Nothing is ever rebuilt or sorted.
 */
export const GENERATION_SIZE = 500;
export const GENERATION_SPAN_MS = 60 * 60 * 1000;
/** Static data holds at most this many keys (the last 5,000, plus the generation being filled). */
export const MAX_STORED = MAX_REMEMBERED + GENERATION_SIZE - 1;
/** Writers (n8n processes) the stored memory keeps a count for; the least recent go first. */
const MAX_WRITERS = 32;

/** Where the stored memory lives in the node's static data. */
export const STORED_MEMORY_KEY = 'repeatMemory';

export interface StoredGeneration {
	/** Time of the generation's first key (ms since the epoch). */
	t: number;
	/** Seconds from `t` to its newest key (rounded up: a key is never forgotten early). */
	last: number;
	/**
	 * The keys' digests, DIGEST_LENGTH characters each, oldest first. One string rather than an
	 * object of thousands of properties: n8n parses and copies static data for every webhook call.
	 */
	keys: string;
}

export interface StoredMemory {
	gens: StoredGeneration[];
	/**
	 * Per n8n process (a random id per process and node): `n` = how many of its keys, counted
	 * from its start, this copy holds all of; `at` = when it last wrote.
	 */
	writers: Record<string, { n: number; at: number }>;
}

export interface DeliveryMemory {
	/** True the first time `key` is seen within the bounds (and records it); false for a repeat. */
	firstDelivery(key: string, now?: number): boolean;
}

function isGeneration(value: unknown): value is StoredGeneration {
	const gen = value as StoredGeneration;
	return (
		typeof gen === 'object' &&
		gen !== null &&
		typeof gen.t === 'number' &&
		typeof gen.last === 'number' &&
		typeof gen.keys === 'string' &&
		gen.keys.length % DIGEST_LENGTH === 0
	);
}

/** The stored memory as loaded, if it is readable; never writes. */
function readStoredMemory(staticData: IDataObject): StoredMemory | undefined {
	const existing = staticData[STORED_MEMORY_KEY] as StoredMemory | undefined;
	if (existing && Array.isArray(existing.gens) && existing.gens.every(isGeneration)) return existing;
	return undefined;
}

function expired(at: number, now: number): boolean {
	return now - at >= REMEMBER_FOR_MS;
}

const newestOf = (gen: StoredGeneration) => gen.t + gen.last * 1000;
const sizeOf = (gen: StoredGeneration) => gen.keys.length / DIGEST_LENGTH;

function storedHas(memory: StoredMemory | undefined, digest: string, now: number): boolean {
	if (!memory) return false;
	// Newest first: the keys checked most (recent ones) are found at once.
	for (let g = memory.gens.length - 1; g >= 0; g--) {
		const gen = memory.gens[g];
		if (expired(newestOf(gen), now)) continue;
		const keys = gen.keys;
		// A match counts only at the start of an entry.
		for (let i = keys.indexOf(digest); i !== -1; i = keys.indexOf(digest, i + 1)) {
			if (i % DIGEST_LENGTH === 0) return true;
		}
	}
	return false;
}

function storedAdd(memory: StoredMemory, digest: string, at: number, now: number): void {
	const gens = memory.gens;
	let current = gens[gens.length - 1];
	if (!current || sizeOf(current) >= GENERATION_SIZE || at - current.t > GENERATION_SPAN_MS) {
		current = { t: at, last: 0, keys: '' };
		gens.push(current);
	}
	// A key written back into a newer generation counts from its start: remembered a little longer.
	current.keys += digest;
	current.last = Math.max(current.last, Math.ceil((at - current.t) / 1000));
	let held = gens.reduce((sum, gen) => sum + sizeOf(gen), 0);
	while (gens.length > 1 && (held - sizeOf(gens[0]) >= MAX_REMEMBERED || expired(newestOf(gens[0]), now))) {
		held -= sizeOf(gens[0]);
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
	/** When this process last put its keys into static data (ms; 0 = never). */
	savedAt: number;
}

const processMemories = new Map<string, ProcessMemory>();

function processMemoryOf(workflowId: string | undefined, nodeName: string): ProcessMemory | undefined {
	if (!workflowId) return undefined; // an unsaved workflow: nothing stable to key it by
	const scope = `${workflowId}\u0000${nodeName}`;
	let memory = processMemories.get(scope);
	if (!memory) {
		memory = { writer: randomUUID().slice(0, 8), seen: new Map(), log: [], count: 0, savedAt: 0 };
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
 * Puts into the loaded copy this process's keys that it lacks: those from the copy's count for
 * this process on (not yet saved, or dropped by a concurrent save). Then records the new count,
 * and forgets writers that have been silent for the memory's lifetime.
 */
function saveOwnKeys(stored: StoredMemory, memory: ProcessMemory, now: number): void {
	const writers = stored.writers;
	const held = writers[memory.writer]?.n ?? 0;
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
}

/** Whether this call should save: the process has keys the copy lacks, and its last save is old enough. */
function dueForSave(stored: StoredMemory | undefined, memory: ProcessMemory, now: number, saveEveryMs: number): boolean {
	const held = stored?.writers?.[memory.writer]?.n ?? 0;
	return held < memory.count && now - memory.savedAt >= saveEveryMs;
}

/**
 * The repeat memory of one trigger node during one webhook call: `staticData` is the node's
 * static data as n8n loaded it for this call; `owner` names the node for the process memory
 * (omit it for an unsaved workflow, whose every new key is saved at once).
 */
export function deliveryMemory(
	staticData: IDataObject,
	owner: { workflowId: string | undefined; nodeName: string } | undefined,
	saveEveryMs = SAVE_EVERY_MS,
): DeliveryMemory {
	return {
		firstDelivery(key: string, now = Date.now()): boolean {
			const digest = digestOf(key);
			const local = owner ? processMemoryOf(owner.workflowId, owner.nodeName) : undefined;
			const loaded = readStoredMemory(staticData);
			const first = !(local && processHas(local, digest, now)) && !storedHas(loaded, digest, now);
			if (first && local) processAdd(local, digest, now);
			const save = local ? dueForSave(loaded, local, now, saveEveryMs) : first;
			if (!save) return first; // static data untouched: n8n writes nothing
			// A plain copy, assigned once through n8n's observable static data so that n8n saves it.
			const stored: StoredMemory = {
				gens: (loaded?.gens ?? []).map((gen) => ({ t: gen.t, last: gen.last, keys: gen.keys })),
				writers: { ...(loaded?.writers ?? {}) },
			};
			if (local) {
				saveOwnKeys(stored, local, now);
				local.savedAt = now;
			} else {
				storedAdd(stored, digest, now, now);
			}
			staticData[STORED_MEMORY_KEY] = stored as unknown as IDataObject;
			return first;
		},
	};
}
