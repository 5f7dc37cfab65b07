// The node's "Request Options" (how it talks to the service): the field shown on every
// operation, and reading it, checked against the limits the field declares, so an expression
// cannot set a timeout of -5 or 1,000 retries. The router reads them per item and hands them to
// the transport with the item.
import type { INodeProperties } from 'n8n-workflow';
import type { Item } from '../execution';
import type { RequestSettings } from '../transport';
import { parameter, valueOrInputError } from './parameters';
import { checkWholeNumber } from './validation';

/** Shown on every operation: how the node talks to the service. */
export const requestOptionsField: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Concurrency',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 100 },
			default: 10,
			description: 'How many items are sent to the service at the same time',
		},
		{
			displayName: 'Max Retries on Rate Limit',
			name: 'maxRetries',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 10 },
			default: 3,
			description:
				'How often an answer of HTTP 429 (rate limited: the service did nothing) is retried after its Retry-After. Other failures are never retried, so nothing is sent twice.',
		},
		{
			displayName: 'Max Retry Wait (Seconds)',
			name: 'maxRetryWait',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 60,
			description: 'The longest Retry-After the node will wait for; a longer one fails the item',
		},
		{
			displayName: 'Timeout (Ms)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 30000,
			description: 'How long to wait for an answer before the item fails',
		},
	],
};

const OPTIONS = (requestOptionsField.options ?? []) as INodeProperties[];

type OptionName = keyof RequestSettings | 'concurrency';

function option(name: OptionName): INodeProperties {
	const found = OPTIONS.find((candidate) => candidate.name === name);
	if (!found) throw new Error(`Request Options has no option "${name}"`);
	return found;
}

/** The settings when none are given (the fields' defaults): also what the timeline picker uses. */
export const DEFAULT_REQUEST_SETTINGS: RequestSettings = {
	timeout: option('timeout').default as number,
	maxRetries: option('maxRetries').default as number,
	maxRetryWait: option('maxRetryWait').default as number,
};

/** One option's value: a whole number within the bounds its field shows in the editor. */
function readOption(item: Item, name: OptionName, value: unknown): number {
	const field = option(name);
	if (value === undefined) return field.default as number;
	const { minValue = 0, maxValue } = field.typeOptions ?? {};
	return valueOrInputError(item, field.displayName, value, checkWholeNumber(value, minValue, maxValue));
}

function readGiven(item: Item): Partial<Record<OptionName, unknown>> {
	return parameter(item, 'requestOptions', {}) as Partial<Record<OptionName, unknown>>;
}

/** How many items are sent at the same time: one setting for the whole run, read from the first item. */
export function readConcurrency(first: Item): number {
	return readOption(first, 'concurrency', readGiven(first).concurrency);
}

/** The settings for one item's request. */
export function readRequestSettings(item: Item): RequestSettings {
	const given = readGiven(item);
	return {
		timeout: readOption(item, 'timeout', given.timeout),
		maxRetries: readOption(item, 'maxRetries', given.maxRetries),
		maxRetryWait: readOption(item, 'maxRetryWait', given.maxRetryWait),
		field: requestOptionsField.displayName,
	};
}
