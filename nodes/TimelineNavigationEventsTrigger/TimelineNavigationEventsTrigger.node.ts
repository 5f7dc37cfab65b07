import { TIMELINE_TRIGGERS } from '../shared/catalog';
import { TimelinePollingTrigger } from '../shared/timeline/trigger/trigger';

/** The combined package's timeline trigger: new events and anomalies, by polling. */
export class TimelineNavigationEventsTrigger extends TimelinePollingTrigger {
	constructor() {
		super(TIMELINE_TRIGGERS.timelineNavigationEventsTrigger);
	}
}
