import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';
import { timeHandlers } from './actions/time';
import { requestOptionsField } from './descriptions/common';
import { timeFields, timeOperations } from './descriptions/TimeDescription';
import { runOperation, type ResourceHandlers } from './shared/runner';

const TIMELINE_RESOURCES = ['time'];

const handlers: Record<string, ResourceHandlers> = {
	time: timeHandlers,
};

export class TimelineNavigation implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Timeline Navigation',
		name: 'timelineNavigation',
		icon: { light: 'file:timelineNavigation.svg', dark: 'file:timelineNavigation.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Travel in time, set anchors, pause, fast-forward and rewind, watch events and timelines, and send chat-app messages',
		defaults: { name: 'Timeline Navigation' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'timelineNavigationApi',
				required: true,
				displayOptions: { show: { resource: TIMELINE_RESOURCES } },
			},
		],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [{ name: 'Time', value: 'time' }],
				default: 'time',
			},
			...timeOperations,
			...timeFields,
			requestOptionsField,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runOperation.call(this, handlers);
	}
}
