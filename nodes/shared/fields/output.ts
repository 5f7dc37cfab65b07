// What list answers become: the list found in an answer, one output entry per element, or the
// whole answer (the Output choice).
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { type OperationPlace, serviceFailure } from '../errors';
import type { Item } from '../execution';
import { readChoice } from './parameters';

/**
 * The list inside an answer: the answer itself when it is an array, else its `key` property,
 * else its only array property. The documents do not show list shapes, so all three are read.
 * Returns undefined when no list is found.
 */
export function findList(answer: unknown, key: string): unknown[] | undefined {
	if (Array.isArray(answer)) return answer;
	if (!answer || typeof answer !== 'object') return undefined;
	const object = answer as IDataObject;
	if (Array.isArray(object[key])) return object[key] as unknown[];
	const arrays = Object.values(object).filter(Array.isArray);
	return arrays.length === 1 ? (arrays[0] as unknown[]) : undefined;
}

/** One output entry per list element; a non-object element is kept as `{ value }`. */
export function listEntries(operation: OperationPlace, answer: unknown, key: string): IDataObject[] {
	const list = findList(answer, key);
	if (!list) {
		throw serviceFailure(operation, {
			what: `the service's answer holds no list of ${key}`,
			description: 'Set "Output" to "Whole Response" (where offered) to see the answer as it came.',
		});
	}
	return list.map((entry) =>
		entry && typeof entry === 'object' && !Array.isArray(entry) ? (entry as IDataObject) : { value: entry as IDataObject[string] },
	);
}

/**
 * What an operation with an "Output" choice returns: one item per entry of the answer's list
 * (the default), or the whole answer as one item. Each entry also carries `question` (what was
 * asked, such as the location and time range), so the next node need not reach back for it;
 * a field of the entry's own wins.
 */
export function entriesOrWholeAnswer(
	operation: Item & OperationPlace,
	answer: IDataObject | IDataObject[],
	outputField: INodeProperties,
	key: string,
	question: IDataObject,
): IDataObject | IDataObject[] {
	if (readChoice(operation, outputField) === 'response') return answer;
	return listEntries(operation, answer, key).map((entry) => ({ ...entry, ...without(question, entry) }));
}

/** The fields of `fields` that `entry` does not have. */
function without(fields: IDataObject, entry: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(fields).filter(([name]) => !Object.prototype.hasOwnProperty.call(entry, name)));
}
