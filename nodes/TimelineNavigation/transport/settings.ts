// The node's "Request Options" (how it talks to the service), read and checked against the
// limits their fields declare, so an expression cannot set a timeout of -5 or 1,000 retries.
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { requestOptionsField } from '../helpers/fields';
import { invalidInput, nodeParameter } from '../helpers/parameters';

export interface RequestSettings {
	concurrency: number;
	timeout: number;
	maxRetries: number;
	maxRetryWait: number;
}

const OPTIONS = (requestOptionsField.options ?? []) as INodeProperties[];

function option(name: keyof RequestSettings): INodeProperties {
	const found = OPTIONS.find((candidate) => candidate.name === name);
	if (!found) throw new Error(`Request Options has no option "${name}"`);
	return found;
}

export const DEFAULT_REQUEST_SETTINGS = Object.fromEntries(
	(['concurrency', 'timeout', 'maxRetries', 'maxRetryWait'] as const).map((name) => [name, option(name).default]),
) as unknown as RequestSettings;

/** One option's value: a whole number within the bounds its field shows in the editor. */
function readOption(context: IExecuteFunctions, itemIndex: number, name: keyof RequestSettings, value: unknown): number {
	const field = option(name);
	if (value === undefined) return DEFAULT_REQUEST_SETTINGS[name];
	const { minValue, maxValue } = field.typeOptions ?? {};
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	const inRange =
		typeof number === 'number' &&
		Number.isInteger(number) &&
		(minValue === undefined || number >= minValue) &&
		(maxValue === undefined || number <= maxValue);
	if (!inRange) {
		const range = maxValue === undefined ? `of at least ${minValue}` : `from ${minValue} to ${maxValue}`;
		throw invalidInput(context, itemIndex, field.displayName, value, `expected a whole number ${range}`);
	}
	return number;
}

function readGiven(context: IExecuteFunctions, itemIndex: number): Partial<Record<keyof RequestSettings, unknown>> {
	return nodeParameter(context, 'requestOptions', itemIndex, {}) as Partial<Record<keyof RequestSettings, unknown>>;
}

/** How many items are sent at the same time: one setting for the whole run, read from the first item. */
export function readConcurrency(context: IExecuteFunctions): number {
	return readOption(context, 0, 'concurrency', readGiven(context, 0).concurrency);
}

/** The settings for one item's request. */
export function readRequestSettings(context: IExecuteFunctions, itemIndex: number): RequestSettings {
	const given = readGiven(context, itemIndex);
	return {
		concurrency: readOption(context, itemIndex, 'concurrency', given.concurrency),
		timeout: readOption(context, itemIndex, 'timeout', given.timeout),
		maxRetries: readOption(context, itemIndex, 'maxRetries', given.maxRetries),
		maxRetryWait: readOption(context, itemIndex, 'maxRetryWait', given.maxRetryWait),
	};
}
