import type { IExecuteFunctions } from 'n8n-workflow';
import { bodyWithAdditionalFields } from '../../helpers/body';
import { additionalFieldsCollection } from '../../helpers/fields';
import { optionalString } from '../../helpers/parameters';
import { apiRequest, type CallContext } from '../../transport/request';
import type { OperationDefinition } from '../types';
import { descriptionField, readTimestamp, timestampField } from './fields';

export const create: OperationDefinition = {
	value: 'create',
	name: 'Create',
	action: 'Create an anchor',
	description:
		'Create an anchor as a resource (path /anchors), optionally in a timeline, to return to at the end of time travel. Use it when you organise work in timelines; use Set for a quick anchor without one.',
	properties: [
		timestampField,
		descriptionField,
		additionalFieldsCollection([
			{
				displayName: 'Timeline ID',
				name: 'timeline_id',
				type: 'string',
				default: '',
				description: 'The timeline the anchor belongs to (sent as timeline_id)',
			},
		]),
	],
	async execute(this: IExecuteFunctions, call: CallContext) {
		const description = optionalString(this, call.itemIndex, descriptionField);
		const body = bodyWithAdditionalFields(this, call.itemIndex, {
			timestamp: readTimestamp(this, call.itemIndex),
			...(description !== undefined && { description }),
		});
		return await apiRequest.call(this, call, { method: 'POST', path: '/anchors', body });
	},
};
