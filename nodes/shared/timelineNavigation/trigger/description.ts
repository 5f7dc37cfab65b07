// The Timeline Navigation Events Trigger's fields. n8n adds Poll Times (how often it asks) itself.
import type { INodeProperties } from 'n8n-workflow';
import { shownOnlyWhen } from '../../fields/builders';
import { DURATION_UNIT_OPTIONS } from '../../fields/duration';
import { locationField, timelineLocatorField } from '../fields';

export const NEW_EVENT = 'newEvent';
export const NEW_ANOMALY = 'newAnomaly';

export const eventField: INodeProperties = {
	displayName: 'Trigger On',
	name: 'event',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'New Anomaly in a Timeline',
			value: NEW_ANOMALY,
			description: 'An anomaly the service reports for the timeline (a rewind, a paradox) that was not there before',
		},
		{
			name: 'New Event at a Location',
			value: NEW_EVENT,
			description: 'An event at the location within the Look Back window that was not there before',
		},
	],
	default: NEW_EVENT,
};

export const location = locationField('Where to watch for events, as the service names places');

export const lookBackAmount: INodeProperties = {
	displayName: 'Look Back',
	name: 'lookBackAmount',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: 24,
	description:
		'How far back each poll looks for events, counted from the poll, at most 7 days. Time travel can add an event in the past: the window catches it if it falls inside.',
};

export const lookBackUnit: INodeProperties = {
	displayName: 'Look Back Unit',
	name: 'lookBackUnit',
	type: 'options',
	options: DURATION_UNIT_OPTIONS,
	default: 'hours',
};

export const timeline = timelineLocatorField('The timeline to watch for anomalies');

export const startWithExisting: INodeProperties = {
	displayName: 'Start With Existing',
	name: 'startWithExisting',
	type: 'boolean',
	default: false,
	description:
		'Whether the first poll after activation also starts the workflow for what is already there (events in the window, anomalies listed); otherwise it only remembers them',
};

const howItWorks: INodeProperties = {
	displayName:
		'Starts the workflow once for each new event or anomaly, oldest first, one item each. Publishing only remembers what is there. Anything new starts the workflow at the next poll, also when it comes before n8n\'s first scheduled poll, and after a failed poll or an outage (events up to 7 days back). Fetch Test Event shows the newest one and remembers nothing. Changing what it watches starts afresh.',
	name: 'howItWorks',
	type: 'notice',
	default: '',
};

export const triggerProperties: INodeProperties[] = [
	howItWorks,
	eventField,
	...shownOnlyWhen({ event: [NEW_EVENT] }, [location, lookBackAmount, lookBackUnit]),
	...shownOnlyWhen({ event: [NEW_ANOMALY] }, [timeline]),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [startWithExisting],
	},
];

/** Under the node on the canvas: what it watches. */
export const triggerSubtitle = `={{ $parameter["event"] === "${NEW_ANOMALY}" ? "New anomaly" : "New event at " + $parameter["location"] }}`;
