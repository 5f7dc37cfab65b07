// Remembers which events already started the workflow, so an at-least-once delivery that
// repeats starts it only once. Kept in the node's workflow static data (n8n saves it with
// the workflow after an execution), bounded by count and age so it cannot grow forever.
import type { IDataObject } from 'n8n-workflow';

export const MAX_REMEMBERED = 5000;
export const REMEMBER_FOR_MS = 48 * 60 * 60 * 1000;

/** Key prefix: message ids are free text, and a bare "__proto__" key must not reach the object. */
const PREFIX = 'k:';

/**
 * Returns true when the key was not seen within the bounds (and records it now), false for
 * a repeat. Check and record happen without awaiting anything in between, so two calls
 * handled by the same process cannot both pass.
 */
export function rememberFirstDelivery(staticData: IDataObject, key: string, now = Date.now()): boolean {
	const seen = (staticData.deliveries ?? {}) as Record<string, number>;
	const stored = `${PREFIX}${key}`;
	const previous = seen[stored];
	if (typeof previous === 'number' && now - previous < REMEMBER_FOR_MS) return false;

	// Rebuilt rather than edited in place: keeps insertion order = age order, drops expired
	// entries and the oldest beyond the limit, and marks the static data as changed.
	const kept = Object.entries(seen).filter(([k, at]) => k !== stored && now - at < REMEMBER_FOR_MS);
	const fresh: Record<string, number> = {};
	for (const [k, at] of kept.slice(Math.max(0, kept.length - (MAX_REMEMBERED - 1)))) fresh[k] = at;
	fresh[stored] = now;
	staticData.deliveries = fresh;
	return true;
}

/**
 * The same memory kept in this n8n process, per workflow and trigger node. n8n 2.41 loses a
 * change a webhook makes to static data that is already stored when the call also starts an
 * execution (the execution re-wraps the shared static data object and clears its "changed"
 * flag before the webhook's save), so static data alone lets repeats through. This copy
 * catches repeats within the running process; static data adds what n8n does persist.
 */
const processMemory = new Map<string, IDataObject>();

export function processMemoryOf(workflowId: string | undefined, nodeName: string): IDataObject | undefined {
	if (!workflowId) return undefined; // an unsaved workflow: nothing stable to key it by
	const key = `${workflowId}\u0000${nodeName}`;
	let memory = processMemory.get(key);
	if (!memory) {
		memory = {};
		processMemory.set(key, memory);
	}
	return memory;
}
