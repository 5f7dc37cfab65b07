// Where the Timeline Navigation Events Trigger keeps its memory (./memory.ts), so that it survives
// whichever way n8n runs its polls.
//
// Its home is the node's static data. On n8n's classic scheduler n8n saves it when a poll starts
// the workflow and once a publication succeeded. On n8n's durable scheduler (2.41 behind four
// settings; by n8n's documentation on by default from 2.45) it is the poll's cursor, a
// `poller_state` row that n8n commits with the run a poll starts, or after a scheduled poll that
// started nothing, but never after the poll it runs at publication: n8n-core's
// `poll-trigger-executor` commits a staged cursor only `if (!testingTrigger)`, and the publication
// poll is the testing one. What that poll saw would be lost, and the first scheduled poll would
// take itself for the first and swallow every event that came in between.
//
// So a poll that finds no memory of its own also leaves a copy of what it saw in the workflow's
// global static data, under the node's name (as n8n keeps node static data): n8n saves the workflow's static data once a
// publication has registered its triggers (`workflow-trigger-activator`'s `activateInternal`), on
// both schedulers, and every scheduled poll reads it with the published workflow. The next poll
// without a memory of its own takes the copy up; a poll with a memory of its own drops it.
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { readSeen, type Seen } from './memory';

/** Where the memory lives in the node's static data. */
export const MEMORY_KEY = 'seen';
/** Where the copies of first memories live in the workflow's global static data, by node name. */
export const FIRST_MEMORY_KEY = 'timelineTriggerFirstMemory';

export interface KeptMemory {
	/** What was seen before, from the node's memory or the copy; undefined for a first poll. */
	seen: Seen | undefined;
	/** Keeps what the poll saw. */
	keep(seen: Seen): void;
}

export function keptMemory(n8n: IPollFunctions, watching: string): KeptMemory {
	const nodeData = n8n.getWorkflowStaticData('node');
	const globalData = n8n.getWorkflowStaticData('global');
	const nodeKey = n8n.getNode().name;
	const own = readSeen(nodeData[MEMORY_KEY], watching);
	const copies = (globalData[FIRST_MEMORY_KEY] ?? {}) as IDataObject;
	return {
		seen: own ?? readSeen(copies[nodeKey], watching),
		keep(seen) {
			nodeData[MEMORY_KEY] = seen as unknown as IDataObject;
			const others = Object.fromEntries(Object.entries(copies).filter(([key]) => key !== nodeKey));
			if (!own) globalData[FIRST_MEMORY_KEY] = { ...others, [nodeKey]: seen as unknown as IDataObject };
			else if (nodeKey in copies) {
				if (Object.keys(others).length > 0) globalData[FIRST_MEMORY_KEY] = others;
				else delete globalData[FIRST_MEMORY_KEY];
			}
		},
	};
}
