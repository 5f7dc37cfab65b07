import { ActionNode } from '../shared/actionNode/actionNode';
import { ALL_SERVICES } from '../shared/registry';
import { ACTION_NODES } from '../shared/catalog';

/** The combined package's action node: every operation of both services. */
export class TimelineNavigation extends ActionNode {
	constructor() {
		super(ACTION_NODES.timelineNavigation, ALL_SERVICES);
	}
}
