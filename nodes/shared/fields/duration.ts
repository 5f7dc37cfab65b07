// A duration, as Fast-Forward and Rewind take it: an Amount and a Unit in the editor, sent as
// the service's `15m`, `2h`, `3d`. The units are listed once, here.
import type { INodeProperties } from 'n8n-workflow';
import type { Item } from '../execution';
import { type FieldRef, readChecked } from './parameters';
import { type Checked, checkWholeNumber, ok, problem } from './validation';

/** Each unit the editor offers, with the service's letter for it and its length. */
const UNITS = {
	minutes: { name: 'Minutes', letter: 'm', ms: 60_000 },
	hours: { name: 'Hours', letter: 'h', ms: 3_600_000 },
	days: { name: 'Days', letter: 'd', ms: 86_400_000 },
} as const;
export type DurationUnit = keyof typeof UNITS;
type UnitLetter = (typeof UNITS)[DurationUnit]['letter'];

const DURATION_PATTERN = new RegExp(`^[1-9][0-9]*[${Object.values(UNITS).map((unit) => unit.letter).join('')}]$`);

/** One of the units; anything else, named. */
function checkUnit(unit: unknown): Checked<DurationUnit> {
	// Own keys only: "__proto__" or "toString" must not read as a unit.
	if (typeof unit !== 'string' || !Object.prototype.hasOwnProperty.call(UNITS, unit)) {
		return problem(`expected the unit ${Object.keys(UNITS).join(', ').replace(/, (?=[^,]*$)/, ' or ')}`);
	}
	return ok(unit as DurationUnit);
}

/** The service's unit letter for a unit choice: minutes → m, hours → h, days → d. */
export function checkDurationUnit(unit: unknown): Checked<UnitLetter> {
	const checked = checkUnit(unit);
	return checked.ok ? ok(UNITS[checked.value].letter) : checked;
}

/** A unit choice in milliseconds (Send and Wait's Limit Wait Time). */
export function checkUnitMilliseconds(unit: unknown): Checked<number> {
	const checked = checkUnit(unit);
	return checked.ok ? ok(UNITS[checked.value].ms) : checked;
}

/** Amount 15 with the unit letter m becomes `15m`: the service's duration grammar. */
export function buildDuration(amount: unknown, letter: UnitLetter): Checked<string> {
	const count = checkWholeNumber(amount, 1);
	if (!count.ok) return count;
	const duration = `${count.value}${letter}`;
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
export function readDuration(item: Item): string {
	const letter = readChecked(item, unit, checkDurationUnit, 'hours');
	return readChecked(item, amount, (value) => buildDuration(value, letter), 1);
}
