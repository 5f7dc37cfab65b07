import type { INodeProperties } from 'n8n-workflow';
import type { OperationDefinition, OperationItem } from '../../actionNode/operation';
import { withExtraFields } from '../../fields/body';
import { outputModeField } from '../../fields/builders';
import { entriesOrWholeAnswer } from '../../fields/output';
import { parameter, requireLocatorId } from '../../fields/parameters';
import { request } from '../../transport';
import { timelineField } from '../fields';

const extraQuery: INodeProperties = {
	displayName: 'Extra Query Fields (JSON)',
	name: 'extraQuery',
	type: 'json',
	default: '{}',
	description: 'Query parameters added to the request as given, for parameters this node does not list',
};

const output = outputModeField('Anomaly');

export const monitorAnomalies: OperationDefinition = {
	value: 'monitorAnomalies',
	name: 'Monitor Anomalies',
	action: 'Monitor a timeline for anomalies',
	description: 'Get the anomalies detected in a timeline',
	properties: [timelineField, output, extraQuery],
	async execute(item: OperationItem) {
		const timelineId = requireLocatorId(item, timelineField);
		const qs = withExtraFields(
			item,
			extraQuery.displayName,
			{ timeline_id: timelineId },
			parameter(item, extraQuery.name, '{}'),
		);
		const answer = await request(item, { method: 'GET', path: '/monitor-timeline', qs });
		return entriesOrWholeAnswer(item, answer, output, 'anomalies', { timeline_id: timelineId });
	},
};
