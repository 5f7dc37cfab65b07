// The Timeline Navigation service's actions: its resources, in the editor's order, and the
// timeline picker's search.
import type { ServiceActions } from '../actionNode/operation';
import { anchorResource } from './anchor/anchor.resource';
import { eventResource } from './event/event.resource';
import { itemResource } from './item/item.resource';
import { searchTimelines } from './listSearch';
import { timeResource } from './time/time.resource';
import { timelineResource } from './timeline/timeline.resource';

export const TIMELINE_ACTIONS: ServiceActions = {
	resources: [anchorResource, eventResource, itemResource, timeResource, timelineResource],
	listSearch: { searchTimelines },
};
