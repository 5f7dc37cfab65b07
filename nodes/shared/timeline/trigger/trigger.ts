// The Timeline Navigation Events Trigger, from one definition for both packages that ship it: a polling
// trigger (n8n adds Poll Times and calls `poll` on that schedule, on the leader main process
// only) that starts the workflow once for each new event at a location or new anomaly in a
// timeline (./poll.ts). Each trigger node class is this class given its catalog entry.
import {
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';
import { shownNames, type NodeEntry } from '../../catalog';
import { belowTheFloor } from '../../errors';
import { MAIN_CONNECTION, ON_SUPPORTED_N8N, withFloorNotice } from '../../n8nVersion';
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
			outputs: [MAIN_CONNECTION],
			credentials: [{ name: SERVICES.timeline.credentialType, required: true }],
			properties: withFloorNotice(triggerProperties),
		};
	}

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		if (!ON_SUPPORTED_N8N) throw belowTheFloor(this, 'Nothing was started.');
		return await pollTimeline.call(this);
	}
}
