// Where the Timeline Navigation Events Trigger keeps its memory (./memory.ts), so that it survives
// whichever of n8n's schedulers runs its polls, a rename of the node, and other triggers polling
// in the same workflow at the same moment.
//
// Every poll writes it to two places:
// - the node's static data. On n8n's durable scheduler this is the poll's cursor, a `poller_state`
//   row kept by node ID, which n8n commits with the run a poll starts or after a scheduled poll
//   that started nothing, but never after the poll it runs at publication (n8n-core's
//   `poll-trigger-executor` commits only `if (!testingTrigger)`). On the classic scheduler it is
//   kept under the node's name, and saved with the workflow's static data;
// - a copy in the workflow's global static data, by node ID. n8n saves the workflow's static data
//   once a publication has registered its triggers, on both schedulers (on the classic one also
//   when a poll starts the workflow), so the copy holds what the publication poll saw, and it
//   survives a rename on the classic scheduler.
// A poll reads the node's own memory first (the cursor is never older than the copy), the copy
// when the node has none: the first scheduled poll on the durable scheduler, and a renamed node
// on the classic one. Each is the memory of a whole poll, never half of one.
//
// The copies of all the workflow's triggers share one object, and polls of several triggers can
// run at once on one workflow (n8n runs a publication's polls side by side): the copies are read
// and written in one synchronous step when a poll ends, never from a read made before its request,
// so no poll undoes another's copy. n8n tells a poll nothing of the workflow's other nodes, so the
// copy of a node that no longer polls (deleted, or its workflow unpublished) is dropped by the next
// poll of another trigger of the workflow once it is COPY_KEPT_MS old.
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { readMemory, type Memory } from './memory';

/** Where the memory lives in the node's static data. */
export const MEMORY_KEY = 'memory';
/** Where the copies live in the workflow's global static data: node ID → Copy. */
export const COPIES_KEY = 'timelineTriggerMemories';
/** A copy not written for this long is dropped by other triggers' polls: longer than a monthly Poll Times. */
export const COPY_KEPT_MS = 35 * 24 * 60 * 60 * 1000;

interface Copy {
	/** When a poll of the node last wrote it (ms since the epoch). */
	keptAt: number;
	memory: Memory;
}

export interface KeptMemory {
	/** What the node saw before, about the same subject; undefined for its first poll. */
	memory: Memory | undefined;
	/** Keeps what the poll saw, in both places. */
	keep(memory: Memory): void;
}

function copiesIn(globalData: IDataObject): Record<string, Copy> {
	const copies = globalData[COPIES_KEY];
	return copies && typeof copies === 'object' && !Array.isArray(copies) ? (copies as unknown as Record<string, Copy>) : {};
}

/** The memory of the polling node about `subject` (what it watches: another subject starts afresh). */
export function keptMemory(n8n: IPollFunctions, subject: string): KeptMemory {
	const nodeData = n8n.getWorkflowStaticData('node');
	const globalData = n8n.getWorkflowStaticData('global');
	const nodeId = n8n.getNode().id;
	return {
		memory: readMemory(nodeData[MEMORY_KEY], subject) ?? readMemory(copiesIn(globalData)[nodeId]?.memory, subject),
		keep(memory) {
			nodeData[MEMORY_KEY] = memory as unknown as IDataObject;
			const now = Date.now();
			const copies: Record<string, Copy> = {};
			for (const [id, copy] of Object.entries(copiesIn(globalData))) {
				if (id !== nodeId && typeof copy?.keptAt === 'number' && now - copy.keptAt < COPY_KEPT_MS) copies[id] = copy;
			}
			copies[nodeId] = { keptAt: now, memory };
			globalData[COPIES_KEY] = copies as unknown as IDataObject;
		},
	};
}
