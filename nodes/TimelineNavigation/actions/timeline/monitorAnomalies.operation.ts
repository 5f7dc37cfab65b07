import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { withExtraFields } from '../../helpers/body';
import { outputModeField } from '../../helpers/fields';
import { entriesOrWholeAnswer } from '../../helpers/output';
import { nodeParameter, requireLocatorId } from '../../helpers/parameters';
import { apiRequest, type CallContext } from '../../transport/request';
import type { OperationDefinition } from '../types';
import { timelineField } from './fields';

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
	async execute(this: IExecuteFunctions, call: CallContext) {
		const { itemIndex } = call;
		const timelineId = requireLocatorId(this, itemIndex, timelineField);
		const qs = withExtraFields(
			this,
			itemIndex,
			extraQuery.displayName,
			{ timeline_id: timelineId },
			nodeParameter(this, extraQuery.name, itemIndex, '{}'),
		);
		const answer = await apiRequest.call(this, call, { method: 'GET', path: '/monitor-timeline', qs });
		return entriesOrWholeAnswer(this, itemIndex, answer, output, 'anomalies', call.label, { timeline_id: timelineId });
	},
};
