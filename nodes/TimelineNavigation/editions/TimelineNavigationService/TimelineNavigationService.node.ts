// The Timeline Navigation package's action node: the timeline service's operations of the
// combined node, built from the same operation modules (only the timeline service's resources).
import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';
import { actionNodeParts } from '../../actions/node.description';
import { route } from '../../actions/router';
import { TIMELINE_RESOURCES } from '../../actions/timeline.resources';
import { searchTimelines } from '../../methods/listSearch';

const parts = actionNodeParts(TIMELINE_RESOURCES, 'time');

export class TimelineNavigationService implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Timeline Navigation',
		name: 'timelineNavigationService',
		icon: { light: 'file:timelineNavigation.svg', dark: 'file:timelineNavigation.dark.svg' },
		group: ['transform'],
		// A list, even of one version: n8n adds a "Custom API Call" choice to a node whose
		// `defaultVersion` is missing or equals `version` (see the combined node).
		version: [1],
		defaultVersion: 1,
		subtitle: parts.subtitle,
		description:
			'Drive the Timeline Navigation service: travel, anchors, pause, resume, fast-forward, rewind, events, timelines, items and paradox checks',
		defaults: { name: 'Timeline Navigation' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: parts.credentials,
		properties: parts.properties,
	};

	methods = {
		listSearch: { searchTimelines },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this, parts.operations);
	}
}
