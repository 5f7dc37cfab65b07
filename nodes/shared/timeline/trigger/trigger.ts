// The Timeline Navigation Events Trigger, from one definition for both packages that ship it: a polling
// trigger (n8n adds Poll Times and calls `poll` on that schedule, on the leader main process
// only) that starts the workflow once for each new event at a location or new anomaly in a
// timeline (./poll.ts). Each trigger node class is this class given its catalog entry.
import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';
import { shownNames, type NodeEntry } from '../../catalog';
import { SERVICES } from '../../services';
import { searchTimelines } from '../listSearch';
import { triggerProperties, triggerSubtitle } from './description';
import { pollTimeline } from './poll';

export class TimelinePollingTrigger implements INodeType {
	readonly description: INodeTypeDescription;

	readonly methods = { listSearch: { searchTimelines } };

	constructor(entry: NodeEntry) {
		this.description = {
			...shownNames(entry),
			group: ['trigger'],
			version: 1,
			subtitle: triggerSubtitle,
			polling: true,
			inputs: [],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: SERVICES.timeline.credentialType, required: true }],
			properties: triggerProperties,
		};
	}

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollTimeline.call(this);
	}
}
