import type { IExecuteFunctions } from 'n8n-workflow';
import { optionalString, requireLocatorId, requireString, withAdditionalFields } from '../shared/parameters';
import type { ResourceHandlers } from '../shared/runner';
import { apiRequest } from '../transport/request';

export const itemHandlers: ResourceHandlers = {
	async register(this: IExecuteFunctions, itemIndex: number) {
		const timelineId = requireLocatorId(this, 'timelineId', itemIndex, 'Timeline');
		const name = requireString(this, 'name', itemIndex, 'Name');
		const description = optionalString(this, 'description', itemIndex);
		const body = withAdditionalFields(this, itemIndex, {
			timeline_id: timelineId,
			name,
			...(description !== undefined && { description }),
		});
		return await apiRequest.call(
			this,
			'timeline',
			{ method: 'POST', path: '/items', body },
			{ itemIndex, operation: 'Item → Register' },
		);
	},
};
