// Fields of the timeline service that several of its operations show: a place, and a timeline
// picked from a searchable list (./listSearch.ts) or entered by ID.
import type { INodeProperties } from 'n8n-workflow';
import { textField } from '../fields/builders';

/** A place: where to travel, or where events are watched. */
export const locationField = (description: string): INodeProperties =>
	textField({ name: 'location', displayName: 'Location', required: true, placeholder: 'e.g. Alexandria, Egypt', description });

/** A timeline chosen from a searchable list (GET /timelines) or entered by ID. */
export function timelineLocatorField(description = 'The timeline to use'): INodeProperties {
	return {
		displayName: 'Timeline',
		name: 'timelineId',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a timeline...',
				typeOptions: { searchListMethod: 'searchTimelines', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. tl_123',
			},
		],
	};
}

/** The timeline an operation acts on (Delete, Travel To, Check for Paradoxes, Monitor Anomalies). */
export const timelineField = timelineLocatorField();
