import type { OperationDefinition, OperationItem } from '../../actionNode/operation';
import type { Item } from '../../execution';
import { returnAllFields } from '../../fields/builders';
import { listEntries } from '../../fields/output';
import { parameter, valueOrInputError } from '../../fields/parameters';
import { checkWholeNumber } from '../../fields/validation';
import { request } from '../../transport';

function readLimit(item: Item): number | undefined {
	if (parameter(item, 'returnAll', false) === true) return undefined;
	const limit = parameter(item, 'limit', 50);
	return valueOrInputError(item, 'Limit', limit, checkWholeNumber(limit, 1));
}

export const getMany: OperationDefinition = {
	value: 'getAll',
	name: 'Get Many',
	action: 'Get many timelines',
	description: 'List the timelines',
	properties: returnAllFields,
	async execute(item: OperationItem) {
		const limit = readLimit(item);
		const answer = await request(item, { method: 'GET', path: '/timelines' });
		// The service shows no paging, so the whole list arrives and the limit applies here.
		const timelines = listEntries(item, answer, 'timelines');
		return limit === undefined ? timelines : timelines.slice(0, limit);
	},
};
