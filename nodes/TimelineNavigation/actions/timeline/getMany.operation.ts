import type { IExecuteFunctions } from 'n8n-workflow';
import { returnAllFields } from '../../helpers/fields';
import { listEntries } from '../../helpers/output';
import { nodeParameter, valueOrInputError } from '../../helpers/parameters';
import { checkWholeNumber } from '../../helpers/validation';
import { apiRequest, type CallContext } from '../../transport/request';
import type { OperationDefinition } from '../types';

function readLimit(context: IExecuteFunctions, itemIndex: number): number | undefined {
	if (nodeParameter(context, 'returnAll', itemIndex, false) === true) return undefined;
	const limit = nodeParameter(context, 'limit', itemIndex, 50);
	return valueOrInputError(context, itemIndex, 'Limit', limit, checkWholeNumber(limit, 1));
}

export const getMany: OperationDefinition = {
	value: 'getAll',
	name: 'Get Many',
	action: 'Get many timelines',
	description: 'List the timelines',
	properties: returnAllFields,
	async execute(this: IExecuteFunctions, call: CallContext) {
		const limit = readLimit(this, call.itemIndex);
		const answer = await apiRequest.call(this, call, { method: 'GET', path: '/timelines' });
		// The service shows no paging, so the whole list arrives and the limit applies here.
		const timelines = listEntries(this, call.itemIndex, answer, 'timelines', call.label);
		return limit === undefined ? timelines : timelines.slice(0, limit);
	},
};
