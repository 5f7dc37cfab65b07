import type { INodeProperties } from 'n8n-workflow';
import type { OperationDefinition, OperationItem } from '../../actionNode/operation';
import { pathSegment, requireString } from '../../fields/parameters';
import { request } from '../../transport';

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
	async execute(item: OperationItem) {
		const id = requireString(item, messageId);
		const segment = pathSegment(item, messageId, id);
		return await request(item, { method: 'GET', path: `/messages/${segment}` });
	},
};
