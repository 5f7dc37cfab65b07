import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';
import { nodeCredentials, nodeProperties, nodeSubtitle } from './actions/node.description';
import { route } from './actions/router';
import { searchTimelines } from './methods/listSearch';

export class TimelineNavigation implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Timeline Navigation & Chat-App Messaging',
		name: 'timelineNavigation',
		icon: { light: 'file:timelineNavigation.svg', dark: 'file:timelineNavigation.dark.svg' },
		group: ['transform'],
		// 1.1: Send Template's "One by One" no longer offers the list an earlier build saved
		// (version 1 still reads it); nothing else differs.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: nodeSubtitle,
		description:
			'Drive the Timeline Navigation service (travel, anchors, pause, fast-forward, rewind, events, timelines) and send Chat-App messages (templates, text, media, location) and check their delivery',
		defaults: { name: 'Timeline Navigation & Chat-App Messaging' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: nodeCredentials,
		properties: nodeProperties,
	};

	methods = {
		listSearch: { searchTimelines },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this);
	}
}
