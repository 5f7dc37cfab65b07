// When each customer last wrote in, so that an inbound item can say when the same number's
// previous message came (`previous_inbound_at`): a workflow then answers the first message of a
// conversation and not every message of a burst. Kept like the repeat memory (./deliveryMemory.ts):
// - the process memory answers first; checked and updated without awaiting anything, so two calls
//   handled by one process always see each other, however close together;
// - the stored memory, in the node's static data (`conversations`: number → the time of its
//   latest message, in ms), spans restarts and processes. A process writes its numbers into it at most
//   once per SAVE_EVERY_MS, on the first call after that time, merging with what other processes
//   wrote (the later timestamp wins). So after a restart or a crash, a number's previous message
//   is the latest one saved: at worst one from the last quarter second before it is missing.
// Bounded like the repeat memory: numbers that wrote within REMEMBER_FOR_MS, at most
// MAX_REMEMBERED of them (the most recent kept). `previous_inbound_at` is that message's
// timestamp in ISO 8601 (UTC), as every other time the node outputs.
import type { IDataObject } from 'n8n-workflow';
import { parseServiceTime } from '../../serviceTime';
import { MAX_REMEMBERED, REMEMBER_FOR_MS, SAVE_EVERY_MS } from './deliveryMemory';

/** Where the stored memory lives in the node's static data. */
export const CONVERSATIONS_KEY = 'conversations';

interface LastInbound {
	/** The message's own `timestamp` (ms). */
	at: number;
	/** When this process received it (ms). */
	receivedAt: number;
}

/** One trigger node's senders in this process, least recently written first. */
interface ProcessSenders {
	senders: Map<string, LastInbound>;
	/** When this process last wrote its senders into static data (ms; 0 = never). */
	savedAt: number;
}

/** Per workflow and trigger node. */
const memories = new Map<string, ProcessSenders>();

function processSendersOf(workflowId: string, nodeName: string, now: number): ProcessSenders {
	const scope = `${workflowId}\u0000${nodeName}`;
	let memory = memories.get(scope);
	if (!memory) {
		memory = { senders: new Map(), savedAt: 0 };
		memories.set(scope, memory);
	}
	for (const [sender, last] of memory.senders) {
		if (memory.senders.size <= MAX_REMEMBERED && now - last.receivedAt < REMEMBER_FOR_MS) break;
		memory.senders.delete(sender);
	}
	return memory;
}

/** The stored memory as loaded: number → its latest message's time (ms). Never written to. */
function storedOf(staticData: IDataObject): Record<string, unknown> {
	const stored = staticData[CONVERSATIONS_KEY];
	return stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
}

const current = (at: unknown, now: number): at is number => typeof at === 'number' && now - at < REMEMBER_FOR_MS;

/** The stored memory with this process's senders merged in (the later message wins), the most recent MAX_REMEMBERED kept. */
function merged(stored: Record<string, unknown>, local: ProcessSenders, now: number): Record<string, number> {
	const all: Record<string, number> = {};
	for (const [sender, at] of Object.entries(stored)) if (current(at, now)) all[sender] = at;
	for (const [sender, { at }] of local.senders) if (!(all[sender] >= at)) all[sender] = at;
	const entries = Object.entries(all);
	if (entries.length <= MAX_REMEMBERED) return all;
	entries.sort(([, a], [, b]) => b - a);
	return Object.fromEntries(entries.slice(0, MAX_REMEMBERED));
}

/**
 * Records an inbound message from `from` at `timestamp` and returns the time of the latest
 * earlier one this trigger received from the same number (ISO 8601), or null. `staticData` is the
 * node's static data as n8n loaded it for this call. An unsaved workflow (no id) has nothing
 * stable to remember by: always null.
 */
export function previousInbound(
	staticData: IDataObject,
	owner: { workflowId: string | undefined; nodeName: string },
	from: string,
	timestamp: string,
	now = Date.now(),
	saveEveryMs = SAVE_EVERY_MS,
): string | null {
	if (!owner.workflowId) return null;
	const local = processSendersOf(owner.workflowId, owner.nodeName, now);
	const stored = storedOf(staticData);
	const known = [local.senders.get(from)?.at, stored[from]].filter((at): at is number => current(at, now));
	const previous = known.length > 0 ? Math.max(...known) : undefined;
	const at = parseServiceTime(timestamp);
	// Deleted and set again: the map keeps the least recently written sender first.
	local.senders.delete(from);
	local.senders.set(from, { at: previous === undefined || at > previous ? at : previous, receivedAt: now });
	if (now - local.savedAt >= saveEveryMs) {
		// A plain object, assigned once through n8n's observable static data so that n8n saves it.
		staticData[CONVERSATIONS_KEY] = merged(stored, local, now);
		local.savedAt = now;
	}
	return previous === undefined ? null : new Date(previous).toISOString();
}
