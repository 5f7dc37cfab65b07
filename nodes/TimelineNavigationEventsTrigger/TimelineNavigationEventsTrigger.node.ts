// The combined package's Timeline Navigation Events Trigger (../shared/timelineNavigation/trigger/trigger.ts).
import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { TIMELINE_TRIGGERS } from '../shared/catalog';
import { triggerSubtitle } from '../shared/timelineNavigation/trigger/description';
import { poll, TIMELINE_TRIGGER_METHODS, timelineTriggerDescription } from '../shared/timelineNavigation/trigger/trigger';

export class TimelineNavigationEventsTrigger implements INodeType {
	description: INodeTypeDescription = {
		...timelineTriggerDescription(TIMELINE_TRIGGERS.timelineNavigationEventsTrigger),
		// Written out here, where n8n's scanner reads them: the icon files and the subtitle.
		icon: { light: 'file:timelineNavigationEventsTrigger.svg', dark: 'file:timelineNavigationEventsTrigger.dark.svg' },
		subtitle: triggerSubtitle,
	};

	methods = TIMELINE_TRIGGER_METHODS;

	poll = poll;
}
