import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { bodyWithAdditionalFields } from '../../helpers/body';
import { additionalFieldsCollection, dateTimeField } from '../../helpers/fields';
import { optionalDateTime, requireString } from '../../helpers/parameters';
import { apiRequest, type CallContext } from '../../transport/request';
import type { OperationDefinition } from '../types';

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
	async execute(this: IExecuteFunctions, call: CallContext) {
		const anchor = requireString(this, call.itemIndex, anchorId);
		const destination = optionalDateTime(this, call.itemIndex, destinationTime);
		const body = bodyWithAdditionalFields(this, call.itemIndex, {
			anchor_id: anchor,
			...(destination !== undefined && { destination_time: destination }),
		});
		return await apiRequest.call(this, call, { method: 'POST', path: '/travels', body });
	},
};
