import type { INodeProperties } from 'n8n-workflow';
import type { OperationDefinition, OperationItem } from '../../actionNode/operation';
import { bodyWithAdditionalFields } from '../../fields/body';
import { additionalFieldsCollection, dateTimeField } from '../../fields/builders';
import { optionalDateTime, requireString } from '../../fields/parameters';
import { request } from '../../transport';

const anchorId: INodeProperties = {
	displayName: 'Anchor ID',
	name: 'anchorId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. anc_123',
	description: 'The anchor to return to, as returned by Set or Create',
};

const destinationTime = dateTimeField({
	name: 'destinationTime',
	displayName: 'Destination Time',
	description: 'When to arrive (sent as ISO 8601). Leave empty to arrive at the anchored moment.',
	required: false,
});

export const returnTo: OperationDefinition = {
	value: 'returnTo',
	name: 'Return To',
	action: 'Return to an anchor',
	description: 'Travel back to a temporal anchor set earlier',
	properties: [anchorId, destinationTime, additionalFieldsCollection()],
	async execute(item: OperationItem) {
		const anchor = requireString(item, anchorId);
		const destination = optionalDateTime(item, destinationTime);
		const body = bodyWithAdditionalFields(item, {
			anchor_id: anchor,
			...(destination !== undefined && { destination_time: destination }),
		});
		return await request(item, { method: 'POST', path: '/travels', body });
	},
};
