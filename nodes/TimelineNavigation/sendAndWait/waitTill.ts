// How long a Send and Wait question waits: forever (n8n's WAIT_INDEFINITELY), or until the
// Limit Wait Time option's interval or date. Checked before the message goes out.
import { WAIT_INDEFINITELY, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';
import { invalidInput } from '../errors';
import { nodeParameter, unwrap } from '../helpers/parameters';
import { toIsoDateTime } from '../helpers/validation';

const UNIT_MS: Record<string, number> = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

export function readWaitTill(context: IExecuteFunctions, itemIndex: number, now = Date.now()): Date {
	const limit = (nodeParameter(context, 'options.limitWaitTime.values', itemIndex, {}) ?? {}) as IDataObject;
	if (Object.keys(limit).length === 0) return WAIT_INDEFINITELY;
	if (limit.limitType === 'atSpecifiedTime') {
		const field = 'Limit Wait Time: Max Date and Time';
		const iso = unwrap(context, itemIndex, field, limit.maxDateAndTime, toIsoDateTime(limit.maxDateAndTime, context.getTimezone()));
		const until = new Date(iso);
		if (until.getTime() <= now) {
			throw invalidInput(context, itemIndex, field, limit.maxDateAndTime, 'expected a time in the future: nobody could answer before it');
		}
		return until;
	}
	const unit = String(limit.resumeUnit ?? 'hours');
	if (!Object.prototype.hasOwnProperty.call(UNIT_MS, unit)) {
		throw invalidInput(context, itemIndex, 'Limit Wait Time: Unit', limit.resumeUnit, 'expected minutes, hours or days');
	}
	const amount = Number(limit.resumeAmount ?? 1);
	if (!Number.isFinite(amount) || amount <= 0) {
		throw invalidInput(context, itemIndex, 'Limit Wait Time: Amount', limit.resumeAmount, 'expected a number above 0');
	}
	return new Date(now + amount * UNIT_MS[unit]);
}
