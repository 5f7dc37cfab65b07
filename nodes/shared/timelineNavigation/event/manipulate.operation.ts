import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';
import type { OperationDefinition, OperationItem } from '../../actionNode/operation';
import { invalidInput } from '../../errors';
import { bodyWithAdditionalFields } from '../../fields/body';
import { additionalFieldsCollection } from '../../fields/builders';
import {
	optionalDateTime,
	optionalString,
	parameter,
	requireDateTime,
	requireLocatorId,
	requireString,
} from '../../fields/parameters';
import { request } from '../../transport';
import { timelineLocatorField } from '../fields';

const EVENT_ACTIONS = ['add', 'modify', 'remove'];

const forAction = (actions: string[]): IDisplayOptions => ({ show: { eventAction: actions } });

const timeline = timelineLocatorField('The timeline the event belongs to');

const eventAction: INodeProperties = {
	displayName: 'Action',
	name: 'eventAction',
	type: 'options',
	options: [
		{ name: 'Add', value: 'add', description: 'Add a new event at a time' },
		{ name: 'Modify', value: 'modify', description: 'Change the time or description of an event' },
		{ name: 'Remove', value: 'remove', description: 'Remove an event' },
	],
	default: 'add',
	description: 'What to do with the event',
};

const eventId: INodeProperties = {
	displayName: 'Event ID',
	name: 'eventId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. evt_123',
	description: 'The event to change',
	displayOptions: forAction(['modify', 'remove']),
};

/** Required when adding; when modifying, empty keeps the event's time. */
const timeWhenAdding: INodeProperties = {
	displayName: 'Time',
	name: 'eventTime',
	type: 'dateTime',
	required: true,
	default: '',
	description: 'When the event happens (sent as ISO 8601)',
	displayOptions: forAction(['add']),
};

const timeWhenModifying: INodeProperties = {
	displayName: 'Time',
	name: 'eventTime',
	type: 'dateTime',
	default: '',
	description: 'The new time of the event (sent as ISO 8601). Leave empty to keep it.',
	displayOptions: forAction(['modify']),
};

const description: INodeProperties = {
	displayName: 'Description',
	name: 'description',
	type: 'string',
	default: '',
	description: 'What happens. When modifying, leave empty to keep it.',
	displayOptions: forAction(['add', 'modify']),
};

export const manipulate: OperationDefinition = {
	value: 'manipulate',
	name: 'Manipulate',
	action: 'Manipulate an event in a timeline',
	description: 'Add, modify or remove an event in a timeline',
	properties: [
		timeline,
		eventAction,
		eventId,
		timeWhenAdding,
		timeWhenModifying,
		description,
		additionalFieldsCollection([
			{
				displayName: 'Location',
				name: 'location',
				type: 'string',
				default: '',
				description: 'Where the event happens; an event with a location shows up in Monitor',
			},
		]),
	],
	async execute(item: OperationItem) {
		const timelineId = requireLocatorId(item, timeline);
		const action = parameter(item, eventAction.name, 'add');
		if (typeof action !== 'string' || !EVENT_ACTIONS.includes(action)) {
			throw invalidInput(item, eventAction.displayName, action, 'expected add, modify or remove');
		}
		const body: IDataObject = { timeline_id: timelineId, action };
		if (action !== 'add') body.event_id = requireString(item, eventId);
		if (action === 'add') body.time = requireDateTime(item, timeWhenAdding);
		if (action === 'modify') {
			const time = optionalDateTime(item, timeWhenModifying);
			if (time !== undefined) body.time = time;
		}
		if (action !== 'remove') {
			const text = optionalString(item, description);
			if (text !== undefined) body.description = text;
		}
		const merged = bodyWithAdditionalFields(item, body);
		if (action === 'modify' && Object.keys(merged).length === 3) {
			throw invalidInput(
				item,
				timeWhenModifying.displayName,
				'',
				'expected a change: set a new Time, a Description or an Additional Field to modify the event',
			);
		}
		return await request(item, { method: 'POST', path: '/events', body: merged });
	},
};
