// The Timeline Navigation service's resources, in the editor's order.
import { anchorResource } from './anchor/anchor.resource';
import { eventResource } from './event/event.resource';
import { itemResource } from './item/item.resource';
import { timeResource } from './time/time.resource';
import { timelineResource } from './timeline/timeline.resource';
import type { ResourceDefinition } from './types';

export const TIMELINE_RESOURCES: ResourceDefinition[] = [anchorResource, eventResource, itemResource, timeResource, timelineResource];
