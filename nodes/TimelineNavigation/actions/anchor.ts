import type { IExecuteFunctions } from 'n8n-workflow';
import { optionalDateTime, optionalString, requireString, withAdditionalFields } from '../shared/parameters';
import type { ResourceHandlers } from '../shared/runner';
import { apiRequest } from '../transport/request';

/** An empty Timestamp means "now": the moment this item is processed, in UTC. */
function anchorTimestamp(context: IExecuteFunctions, itemIndex: number): string {
	return optionalDateTime(context, 'timestamp', itemIndex, 'Timestamp') ?? new Date().toISOString();
}

export const anchorHandlers: ResourceHandlers = {
	async set(this: IExecuteFunctions, itemIndex: number) {
		// Group A: every listed field is sent; the description may be empty.
		const body = {
			timestamp: anchorTimestamp(this, itemIndex),
			description: optionalString(this, 'description', itemIndex) ?? '',
		};
		return await apiRequest.call(
			this,
			'timeline',
			{ method: 'POST', path: '/set-anchor', body },
			{ itemIndex, operation: 'Anchor → Set' },
		);
	},

	async create(this: IExecuteFunctions, itemIndex: number) {
		const description = optionalString(this, 'description', itemIndex);
		const body = withAdditionalFields(this, itemIndex, {
			timestamp: anchorTimestamp(this, itemIndex),
			...(description !== undefined && { description }),
		});
		return await apiRequest.call(
			this,
			'timeline',
			{ method: 'POST', path: '/anchors', body },
			{ itemIndex, operation: 'Anchor → Create' },
		);
	},

	async returnTo(this: IExecuteFunctions, itemIndex: number) {
		const anchorId = requireString(this, 'anchorId', itemIndex, 'Anchor ID');
		const destination = optionalDateTime(this, 'destinationTime', itemIndex, 'Destination Time');
		const body = withAdditionalFields(this, itemIndex, {
			anchor_id: anchorId,
			...(destination !== undefined && { destination_time: destination }),
		});
		return await apiRequest.call(
			this,
			'timeline',
			{ method: 'POST', path: '/travels', body },
			{ itemIndex, operation: 'Anchor → Return To' },
		);
	},
};
