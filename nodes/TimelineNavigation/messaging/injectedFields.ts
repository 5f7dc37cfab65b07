// Named placeholders in free-form text ({first_name}) and the values injected for this message
// only, given as name/value pairs or as one JSON object.
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { invalidInput, unwrap } from '../helpers/parameters';
import { findPlaceholders, parseJsonObject } from '../helpers/validation';

const inputMode: INodeProperties = {
	displayName: 'Specify Injected Fields',
	name: 'injectedFieldsInput',
	type: 'options',
	options: [
		{ name: 'Using Fields Below', value: 'pairs' },
		{ name: 'Using JSON', value: 'json' },
	],
	default: 'pairs',
	description: 'How the values for the placeholders are given',
};

const pairs: INodeProperties = {
	displayName: 'Injected Fields',
	name: 'injectedFields',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Field',
	default: {},
	description: 'Values for the placeholders of this message only; they win over fields stored on the contact',
	displayOptions: { show: { injectedFieldsInput: ['pairs'] } },
	options: [
		{
			displayName: 'Field',
			name: 'field',
			values: [
				{
					displayName: 'Name',
					name: 'name',
					type: 'string',
					default: '',
					placeholder: 'e.g. first_name',
					description: 'The placeholder name, without braces',
				},
				{
					displayName: 'Value',
					name: 'value',
					type: 'string',
					default: '',
					description: 'What the placeholder is replaced with',
				},
			],
		},
	],
};

const json: INodeProperties = {
	displayName: 'Injected Fields (JSON)',
	name: 'injectedFieldsJson',
	type: 'json',
	default: '{}',
	placeholder: '{"first_name": "Ada"}',
	description: 'An object of placeholder name to value (text, number or boolean), for this message only',
	displayOptions: { show: { injectedFieldsInput: ['json'] } },
};

export const injectedFieldsFields: INodeProperties[] = [inputMode, pairs, json];

/** Injected fields as name/value pairs or one JSON object; values must be text, numbers or booleans. */
export function readInjectedFields(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const mode = context.getNodeParameter(inputMode.name, itemIndex, 'pairs') as string;
	const fields: IDataObject = {};
	if (mode === 'json') {
		const raw = context.getNodeParameter(json.name, itemIndex, '{}') as unknown;
		const object = unwrap(context, itemIndex, json.displayName, raw, parseJsonObject(raw));
		for (const [name, value] of Object.entries(object)) {
			if (!['string', 'number', 'boolean'].includes(typeof value)) {
				throw invalidInput(
					context,
					itemIndex,
					`${json.displayName} "${name}"`,
					value,
					'expected text, a number or a boolean: a placeholder is replaced by one value',
				);
			}
			fields[name] = value as string | number | boolean;
		}
		return fields;
	}
	const entries = context.getNodeParameter(`${pairs.name}.field`, itemIndex, []) as IDataObject[];
	entries.forEach((pair, index) => {
		const name = typeof pair.name === 'string' ? pair.name.trim() : String(pair.name ?? '').trim();
		const field = `Injected Field ${index + 1} Name`;
		if (name === '') {
			throw invalidInput(context, itemIndex, field, pair.name, 'expected the placeholder name, such as first_name for {first_name}');
		}
		if (Object.prototype.hasOwnProperty.call(fields, name)) {
			throw invalidInput(context, itemIndex, field, name, 'expected each name once: this name is already listed above');
		}
		fields[name] = (pair.value ?? '') as string | number | boolean;
	});
	return fields;
}

/** Placeholders in the text that no injected field fills, in order of appearance. */
export function unfilledPlaceholders(text: string, injected: IDataObject): string[] {
	return findPlaceholders(text).filter((name) => !Object.prototype.hasOwnProperty.call(injected, name));
}
