// A duration, as Fast-Forward and Rewind take it: an Amount and a Unit in the editor, sent as
// the service's `15m`, `2h`, `3d`. The units are listed once, here.
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { readChecked, type FieldRef } from './parameters';
import { ok, problem, type Checked } from './validation';

/** Each unit the editor offers, with the service's letter for it. */
const UNITS = {
	minutes: { name: 'Minutes', letter: 'm' },
	hours: { name: 'Hours', letter: 'h' },
	days: { name: 'Days', letter: 'd' },
} as const;
export type DurationUnit = keyof typeof UNITS;
type UnitLetter = (typeof UNITS)[DurationUnit]['letter'];

const DURATION_PATTERN = new RegExp(`^[1-9][0-9]*[${Object.values(UNITS).map((unit) => unit.letter).join('')}]$`);

/** The service's unit letter for a unit choice: minutes → m, hours → h, days → d. */
export function checkDurationUnit(unit: unknown): Checked<UnitLetter> {
	// Own keys only: "__proto__" or "toString" must not read as a unit.
	if (typeof unit !== 'string' || !Object.prototype.hasOwnProperty.call(UNITS, unit)) {
		return problem(`expected the unit ${Object.keys(UNITS).join(', ').replace(/, (?=[^,]*$)/, ' or ')}`);
	}
	return ok(UNITS[unit as DurationUnit].letter);
}

/** Amount 15 with the unit letter m becomes `15m`: the service's duration grammar. */
export function buildDuration(amount: unknown, letter: UnitLetter): Checked<string> {
	const count = typeof amount === 'string' && amount.trim() !== '' ? Number(amount) : amount;
	if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) {
		return problem('expected a whole number of at least 1');
	}
	const duration = `${count}${letter}`;
	return DURATION_PATTERN.test(duration) ? ok(duration) : problem('expected a duration such as 15m, 2h or 3d');
}

const amount: FieldRef = { displayName: 'Amount', name: 'durationAmount' };
const unit: FieldRef = { displayName: 'Unit', name: 'durationUnit' };

/** Minutes, hours and days as an options field offers them (also Send and Wait's Limit Wait Time). */
export const DURATION_UNIT_OPTIONS = Object.entries(UNITS).map(([value, { name }]) => ({ name, value }));

/** The Amount and Unit fields; `verb` says what the amount does ("move forward"). */
export function durationFields(verb: string): INodeProperties[] {
	return [
		{
			...amount,
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			required: true,
			default: 1,
			description: `How many units of time to ${verb}`,
		},
		{
			...unit,
			type: 'options',
			options: DURATION_UNIT_OPTIONS,
			default: 'hours',
			description: 'The unit of the amount',
		},
	];
}

/** Amount and Unit as the service's duration, such as `2h`. */
export function readDuration(context: IExecuteFunctions, itemIndex: number): string {
	const letter = readChecked(context, itemIndex, unit, checkDurationUnit, 'hours');
	return readChecked(context, itemIndex, amount, (value) => buildDuration(value, letter), 1);
}
