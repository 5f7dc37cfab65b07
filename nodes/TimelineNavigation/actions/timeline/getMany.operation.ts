import type { IExecuteFunctions } from 'n8n-workflow';
import { returnAllFields } from '../../helpers/fields';
import { listEntries } from '../../helpers/output';
import { invalidInput, nodeParameter } from '../../helpers/parameters';
import { apiRequest } from '../../transport/request';
import type { ItemCall, OperationDefinition } from '../types';

function readLimit(context: IExecuteFunctions, itemIndex: number): number | undefined {
	if (nodeParameter(context, 'returnAll', itemIndex, false) === true) return undefined;
	const limit = nodeParameter(context, 'limit', itemIndex, 50);
	if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
		throw invalidInput(context, itemIndex, 'Limit', limit, 'expected a whole number of at least 1');
	}
	return limit;
}

export const getMany: OperationDefinition = {
	value: 'getAll',
	name: 'Get Many',
	action: 'Get many timelines',
	description: 'List the timelines',
	properties: returnAllFields,
	async execute(this: IExecuteFunctions, item: ItemCall) {
		const limit = readLimit(this, item.itemIndex);
		const answer = await apiRequest.call(this, item, { method: 'GET', path: '/timelines' });
		// The service shows no paging, so the whole list arrives and the limit applies here.
		const timelines = listEntries(this, item.itemIndex, answer, 'timelines', item.label);
		return limit === undefined ? timelines : timelines.slice(0, limit);
	},
};
