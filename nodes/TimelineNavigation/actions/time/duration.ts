// Fast-Forward and Rewind: one duration, an Amount and a Unit, sent as `15m`, `2h`, `3d`.
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { readChecked, type FieldRef } from '../../helpers/parameters';
import { buildDuration, checkDurationUnit } from '../../helpers/validation';
import { apiRequest } from '../../transport/request';
import type { ItemCall, OperationDefinition } from '../types';

const amount: FieldRef = { displayName: 'Amount', name: 'durationAmount' };

const amountField = (verb: string): INodeProperties => ({
	...amount,
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	required: true,
	default: 1,
	description: `How many units of time to ${verb}`,
});

/** Minutes, hours or days: the units of a duration, also of Send and Wait's Limit Wait Time. */
export const DURATION_UNIT_OPTIONS = [
	{ name: 'Minutes', value: 'minutes' },
	{ name: 'Hours', value: 'hours' },
	{ name: 'Days', value: 'days' },
];

const unitField: INodeProperties = {
	displayName: 'Unit',
	name: 'durationUnit',
	type: 'options',
	options: DURATION_UNIT_OPTIONS,
	default: 'hours',
	description: 'The unit of the amount',
};

/** Amount and Unit as the service's duration. */
function readDuration(context: IExecuteFunctions, itemIndex: number): string {
	const letter = readChecked(context, itemIndex, unitField, checkDurationUnit, 'hours');
	return readChecked(context, itemIndex, amount, (value) => buildDuration(value, letter), 1);
}

/** An operation that moves the current time by a duration: POST `path` with `{ duration }`. */
export function durationOperation(
	option: Pick<OperationDefinition, 'value' | 'name' | 'action' | 'description'>,
	path: string,
	verb: string,
): OperationDefinition {
	return {
		...option,
		properties: [amountField(verb), unitField],
		async execute(this: IExecuteFunctions, item: ItemCall) {
			const body = { duration: readDuration(this, item.itemIndex) };
			return await apiRequest.call(this, item, { method: 'POST', path, body });
		},
	};
}
