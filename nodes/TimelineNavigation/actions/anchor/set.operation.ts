import type { IExecuteFunctions } from 'n8n-workflow';
import { optionalString } from '../../helpers/parameters';
import { apiRequest, type CallContext } from '../../transport/request';
import type { OperationDefinition } from '../types';
import { descriptionField, readTimestamp, timestampField } from './fields';

export const set: OperationDefinition = {
	value: 'set',
	name: 'Set',
	action: 'Set an anchor',
	description:
		'Fix a point in time to return to after changes, through the action path /set-anchor (no timeline). Use it for a quick anchor before you travel; its answer carries a status message.',
	properties: [timestampField, descriptionField],
	async execute(this: IExecuteFunctions, call: CallContext) {
		// Group A: every listed field is sent; the description may be empty.
		const body = {
			timestamp: readTimestamp(this, call.itemIndex),
			description: optionalString(this, call.itemIndex, descriptionField) ?? '',
		};
		return await apiRequest.call(this, call, { method: 'POST', path: '/set-anchor', body });
	},
};
