import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { pathSegment, requireString } from '../../helpers/parameters';
import { apiRequest, type CallContext } from '../../transport/request';
import type { OperationDefinition } from '../types';

const messageId: INodeProperties = {
	displayName: 'Message ID',
	name: 'messageId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. msg_123',
	description: 'The message_id a send returned',
};

export const getStatus: OperationDefinition = {
	value: 'getStatus',
	name: 'Get Status',
	action: 'Get the delivery status of a message',
	description: 'Look up the latest delivery status of a sent message',
	properties: [messageId],
	async execute(this: IExecuteFunctions, call: CallContext) {
		const id = requireString(this, call.itemIndex, messageId);
		const segment = pathSegment(this, call.itemIndex, messageId, id);
		return await apiRequest.call(this, call, { method: 'GET', path: `/messages/${segment}` });
	},
};
