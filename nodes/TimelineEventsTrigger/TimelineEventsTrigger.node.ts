import { TIMELINE_TRIGGERS } from '../shared/catalog';
import { TimelinePollingTrigger } from '../shared/timeline/trigger/trigger';

/** The Timeline Navigation package's trigger: the combined package's, under its own names. */
export class TimelineEventsTrigger extends TimelinePollingTrigger {
	constructor() {
		super(TIMELINE_TRIGGERS.timelineEventsTrigger);
	}
}
