import { ActionNode } from '../shared/actionNode/actionNode';
import { ACTION_NODES } from '../shared/catalog';
import { TIMELINE_ACTIONS } from '../shared/timelineNavigation/resources';

/** The Timeline Navigation package's action node: the timeline service's operations only. */
export class TimelineNavigationService extends ActionNode {
	constructor() {
		super(ACTION_NODES.timelineNavigationService, [TIMELINE_ACTIONS]);
	}
}
