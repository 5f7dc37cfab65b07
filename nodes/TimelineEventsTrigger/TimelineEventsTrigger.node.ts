// The Timeline Navigation package's trigger: the combined package's under its own names and icon
// (see ../shared/catalog.ts for why the names differ).
import type { INodeTypeDescription } from 'n8n-workflow';
import { TIMELINE_TRIGGERS, namingOf } from '../shared/catalog';
import { TimelineNavigationEventsTrigger } from '../TimelineNavigationEventsTrigger/TimelineNavigationEventsTrigger.node';

export class TimelineEventsTrigger extends TimelineNavigationEventsTrigger {
	description: INodeTypeDescription = {
		...new TimelineNavigationEventsTrigger().description,
		...namingOf(TIMELINE_TRIGGERS.timelineEventsTrigger),
		icon: { light: 'file:timelineEventsTrigger.svg', dark: 'file:timelineEventsTrigger.dark.svg' },
	};
}
