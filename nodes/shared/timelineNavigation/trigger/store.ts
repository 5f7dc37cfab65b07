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
// So the first poll (no memory of its own yet) that starts nothing keeps what it saw in the
// workflow's global static data instead, under the node's name (as n8n keys node static data):
// n8n saves the workflow's static data once a publication has registered its triggers
// (`workflow-trigger-activator`'s `activateInternal`), on both schedulers, and every scheduled
// poll reads it with the published workflow. The next poll without a memory of its own takes that
// copy up and keeps its memory in the node's static data as usual, leaving the copy until a poll
// that starts the workflow, or one that found its own memory, drops it: until then the copy is
// what a restart finds (on the classic scheduler n8n saves static data only when a poll starts the
// workflow). The memory is held once, except between those polls.
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { readSeen, type Seen } from './memory';

/** Where the memory lives in the node's static data. */
export const MEMORY_KEY = 'seen';
/** Where the copies of first memories live in the workflow's global static data, by node name. */
export const FIRST_MEMORY_KEY = 'timelineTriggerFirstMemory';

export interface KeptMemory {
	/** What was seen before, from the node's memory or the copy; undefined for a first poll. */
	seen: Seen | undefined;
	/** Keeps what the poll saw; `starting`: the poll returns items, so n8n saves (or commits) the node's memory. */
	keep(seen: Seen, starting: boolean): void;
}

export function keptMemory(n8n: IPollFunctions, watching: string): KeptMemory {
	const nodeData = n8n.getWorkflowStaticData('node');
	const globalData = n8n.getWorkflowStaticData('global');
	const nodeKey = n8n.getNode().name;
	const own = readSeen(nodeData[MEMORY_KEY], watching);
	const copies = (globalData[FIRST_MEMORY_KEY] ?? {}) as IDataObject;
	const copy = own ? undefined : readSeen(copies[nodeKey], watching);
	const others = () => Object.fromEntries(Object.entries(copies).filter(([key]) => key !== nodeKey));
	const dropCopy = () => {
		if (!(nodeKey in copies)) return;
		if (Object.keys(others()).length > 0) globalData[FIRST_MEMORY_KEY] = others();
		else delete globalData[FIRST_MEMORY_KEY];
	};
	return {
		seen: own ?? copy,
		keep(seen, starting) {
			if (!own && !copy && !starting) {
				globalData[FIRST_MEMORY_KEY] = { ...others(), [nodeKey]: seen as unknown as IDataObject };
				return;
			}
			nodeData[MEMORY_KEY] = seen as unknown as IDataObject;
			if (own || starting) dropCopy();
		},
	};
}
