// How long a Send and Wait question waits: forever (n8n's WAIT_INDEFINITELY), or until the
// Limit Wait Time option's interval or date. Checked before the message goes out.
import { WAIT_INDEFINITELY, type IDataObject } from 'n8n-workflow';
import { invalidInput } from '../../errors';
import type { Item } from '../../execution';
import { checkUnitMilliseconds } from '../../fields/duration';
import { parameter, valueOrInputError } from '../../fields/parameters';
import { toIsoDateTime } from '../../fields/validation';

// As the editor shows them: Options → Limit Wait Time, then the field.
const LIMIT_DATE = 'Limit Wait Time → Max Date and Time';
const LIMIT_UNIT = 'Limit Wait Time → Unit';
const LIMIT_AMOUNT = 'Limit Wait Time → Amount';

export function readWaitTill(item: Item, now = Date.now()): Date {
	const limit = (parameter(item, 'options.limitWaitTime.values', {}) ?? {}) as IDataObject;
	if (Object.keys(limit).length === 0) return WAIT_INDEFINITELY;
	if (limit.limitType === 'atSpecifiedTime') {
		const field = LIMIT_DATE;
		const iso = valueOrInputError(item, field, limit.maxDateAndTime, toIsoDateTime(limit.maxDateAndTime, item.execution.n8n.getTimezone()));
		const until = new Date(iso);
		if (until.getTime() <= now) {
			throw invalidInput(item, field, limit.maxDateAndTime, 'expected a time in the future: nobody could answer before it');
		}
		return until;
	}
	const unitMs = valueOrInputError(item, LIMIT_UNIT, limit.resumeUnit, checkUnitMilliseconds(limit.resumeUnit ?? 'hours'));
	const amount = Number(limit.resumeAmount ?? 1);
	if (!Number.isFinite(amount) || amount <= 0) {
		throw invalidInput(item, LIMIT_AMOUNT, limit.resumeAmount, 'expected a number above 0');
	}
	return new Date(now + amount * unitMs);
}
