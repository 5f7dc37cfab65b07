// The Timeline Navigation Events Trigger, from one definition for both packages that ship it: a
// polling trigger (n8n adds Poll Times and calls `poll` on that schedule, on the leader main
// process only) that starts the workflow once for each new event at a location or new anomaly in
// a timeline (./poll.ts). A node class takes its description from `timelineTriggerDescription`
// (writing out what n8n's scanner reads: its icon and subtitle) and its methods from here.
import type { INodeExecutionData, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { namingOf, type NodeEntry } from '../../catalog';
import { n8nTooOld } from '../../errors';
import { MAIN_CONNECTION, ON_SUPPORTED_N8N, withFloorNotice } from '../../n8nVersion';
import { SERVICES } from '../../services';
import { searchTimelines } from '../listSearch';
import { triggerProperties } from './description';
import { pollTimeline } from './poll';

/** The description of a timeline trigger node, from its catalog entry, but what its class writes out. */
export function timelineTriggerDescription(entry: NodeEntry): Omit<INodeTypeDescription, 'icon' | 'subtitle'> {
	return {
		...namingOf(entry),
		group: ['trigger'],
		version: 1,
		polling: true,
		inputs: [],
		outputs: [MAIN_CONNECTION],
		credentials: [{ name: SERVICES.timeline.credentialType, required: true }],
		properties: withFloorNotice(triggerProperties),
	};
}

/** The timeline picker of the Timeline field. */
export const TIMELINE_TRIGGER_METHODS = { listSearch: { searchTimelines } };

/** One poll, on an n8n the package runs on. */
export async function poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	if (!ON_SUPPORTED_N8N) throw n8nTooOld(this, 'Nothing was started.');
	return await pollTimeline.call(this);
}
