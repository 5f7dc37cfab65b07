// The recipient of every send: a phone number in E.164, normalised first by default.
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { definedBelow } from '../helpers/fields';
import { mappedFrom, nodeParameter, readChecked } from '../helpers/parameters';
import { checkE164 } from '../helpers/validation';

const to: INodeProperties = {
	displayName: 'To',
	name: 'to',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. +14155550123',
	description: "The recipient's phone number in E.164 form: a +, the country code and the number",
};

const normalizePhoneNumber: INodeProperties = {
	displayName: 'Normalize Phone Number',
	name: 'normalizePhoneNumber',
	type: 'boolean',
	default: true,
	description:
		'Whether to remove spaces, dashes, dots and parentheses (and turn a leading 00 into +) before checking the number, so "+1 (415) 555-0123" becomes +14155550123',
};

const toRef = mappedFrom(to, 'to');

export const recipientFields: INodeProperties[] = [...definedBelow([to]), normalizePhoneNumber];

/** The recipient, in E.164, normalised first when "Normalize Phone Number" is on. */
export function readRecipient(context: IExecuteFunctions, itemIndex: number): string {
	const normalize = nodeParameter(context, normalizePhoneNumber.name, itemIndex, true) as boolean;
	return readChecked(context, itemIndex, toRef, (value) => checkE164(value, normalize));
}
