import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';
import { anchorHandlers } from './actions/anchor';
import { eventHandlers } from './actions/event';
import { itemHandlers } from './actions/item';
import { messageHandlers } from './actions/message';
import { timeHandlers } from './actions/time';
import { timelineHandlers } from './actions/timeline';
import { anchorFields, anchorOperations } from './descriptions/AnchorDescription';
import { requestOptionsField } from './descriptions/common';
import { eventFields, eventOperations } from './descriptions/EventDescription';
import { itemFields, itemOperations } from './descriptions/ItemDescription';
import { messageFields, messageOperations } from './descriptions/MessageDescription';
import { timeFields, timeOperations } from './descriptions/TimeDescription';
import { timelineFields, timelineOperations } from './descriptions/TimelineDescription';
import { searchTimelines } from './methods/listSearch';
import { runOperation, type ResourceHandlers } from './shared/runner';

/** Resources served by the timeline navigation service; `message` uses the messaging service. */
const TIMELINE_RESOURCES = ['anchor', 'event', 'item', 'time', 'timeline'];

const handlers: Record<string, ResourceHandlers> = {
	anchor: anchorHandlers,
	event: eventHandlers,
	item: itemHandlers,
	message: messageHandlers,
	time: timeHandlers,
	timeline: timelineHandlers,
};

export class TimelineNavigation implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Timeline Navigation & Chat-App Messaging',
		name: 'timelineNavigation',
		icon: { light: 'file:timelineNavigation.svg', dark: 'file:timelineNavigation.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Drive the Timeline Navigation service (travel, anchors, pause, fast-forward, rewind, events, timelines) and send Chat-App messages (templates, text, media, location) and check their delivery',
		defaults: { name: 'Timeline Navigation & Chat-App Messaging' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'timelineNavigationApi',
				required: true,
				displayOptions: { show: { resource: TIMELINE_RESOURCES } },
			},
			{
				name: 'chatAppMessagingApi',
				required: true,
				displayOptions: { show: { resource: ['message'] } },
			},
		],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Anchor', value: 'anchor' },
					{ name: 'Event', value: 'event' },
					{ name: 'Item', value: 'item' },
					{ name: 'Message', value: 'message' },
					{ name: 'Time', value: 'time' },
					{ name: 'Timeline', value: 'timeline' },
				],
				default: 'time',
			},
			...anchorOperations,
			...anchorFields,
			...eventOperations,
			...eventFields,
			...itemOperations,
			...itemFields,
			...messageOperations,
			...messageFields,
			...timeOperations,
			...timeFields,
			...timelineOperations,
			...timelineFields,
			requestOptionsField,
		],
	};

	methods = {
		listSearch: { searchTimelines },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runOperation.call(this, handlers);
	}
}
