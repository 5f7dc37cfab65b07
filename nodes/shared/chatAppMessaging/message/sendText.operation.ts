import type { IDataObject, INodeProperties } from 'n8n-workflow';
import type { OperationDefinition, OperationItem } from '../../actionNode/operation';
import { InputField, invalidInput } from '../../errors';
import type { Item } from '../../execution';
import { dataToSendFields, shownForDefineBelow } from '../../fields/builders';
import {
	fieldLabel,
	inputFieldValue,
	isAutoMapped,
	mappedFrom,
	parameter,
	readChoice,
	requireString,
	valueOrInputError,
} from '../../fields/parameters';
import { findPlaceholders, parseJsonObject, removePlaceholders } from '../../fields/validation';
import { freeFormFields, readRecipient, recipientFields, sendFreeForm } from '../send';

const text: INodeProperties = {
	displayName: 'Text',
	name: 'text',
	type: 'string',
	typeOptions: { rows: 4 },
	required: true,
	default: '',
	placeholder: 'e.g. Hi {first_name}, your order {{ $json.order_id }} is ready.',
	description:
		'The message. n8n expressions in {{ }} work here as in any field (drag an input field in): n8n fills them in before sending. Named placeholders such as {first_name} are filled by the service from Injected Fields (or fields stored on the contact).',
};

const textRef = mappedFrom(text, 'text');

// Named placeholders in the text ({first_name}) are filled by the service; Injected Fields give
// values for this message only, as name/value pairs or as one JSON object.
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


/** The input item's field read in "Map Automatically" mode. */
const INPUT_FIELD = 'injected_fields';

/** One object of placeholder name to value; each value must be text, a number or a boolean. */
function injectedFromObject(
	item: Item,
	raw: unknown,
	field: string | InputField,
	valueField: (name: string) => string | InputField,
): IDataObject {
	const object = valueOrInputError(item, field, raw, parseJsonObject(raw));
	const fields: IDataObject = {};
	for (const [name, value] of Object.entries(object)) {
		if (!['string', 'number', 'boolean'].includes(typeof value)) {
			throw invalidInput(
				item,
				valueField(name),
				value,
				'expected text, a number or a boolean: a placeholder is replaced by one value',
			);
		}
		fields[name] = value as string | number | boolean;
	}
	return fields;
}

/**
 * Injected fields as name/value pairs or one JSON object; values must be text, numbers or
 * booleans. In "Map Automatically" mode, the input item's optional `injected_fields` object.
 */
function readInjectedFields(item: Item): IDataObject {
	if (isAutoMapped(item)) {
		const raw = inputFieldValue(item, INPUT_FIELD);
		if (raw === undefined || raw === null) return {};
		return injectedFromObject(item, raw, new InputField(INPUT_FIELD), (name) => new InputField(`${INPUT_FIELD}.${name}`));
	}
	const mode = readChoice(item, inputMode);
	if (mode === 'json') {
		const raw = parameter(item, json.name, '{}');
		return injectedFromObject(item, raw, json.displayName, (name) => `${json.displayName} "${name}"`);
	}
	const fields: IDataObject = {};
	const entries = parameter(item, `${pairs.name}.field`, []) as IDataObject[];
	entries.forEach((pair, index) => {
		const name = typeof pair.name === 'string' ? pair.name.trim() : String(pair.name ?? '').trim();
		const field = `${pairs.displayName} ${index + 1} → Name`;
		if (name === '') {
			throw invalidInput(item, field, pair.name, 'expected the placeholder name, such as first_name for {first_name}');
		}
		if (Object.prototype.hasOwnProperty.call(fields, name)) {
			throw invalidInput(item, field, name, 'expected each name once: this name is already listed above');
		}
		fields[name] = (pair.value ?? '') as string | number | boolean;
	});
	return fields;
}

// What happens to a placeholder that no injected field fills. The service may fill it from a
// field stored on the contact, which the node cannot see; a contact without one would read the
// placeholder in braces. So the choice is the user's, and leaving it to the service stays the default.
const withoutValue: INodeProperties = {
	displayName: 'Placeholders Without a Value',
	name: 'placeholdersWithoutValue',
	type: 'options',
	options: [
		{
			name: 'Leave Them to the Service',
			value: 'service',
			description:
				'Send the text as written: the service may fill them from fields stored on the contact. A contact without such a field reads the placeholder, braces and all.',
		},
		{
			name: 'Remove Them',
			value: 'remove',
			description:
				'Take each one out with the spaces before it, so "Hi {first_name}, thanks" reads "Hi, thanks". Fields stored on the contact are not used for them.',
		},
		{
			name: 'Stop With an Error',
			value: 'error',
			description: 'Fail the item before anything is sent, naming the placeholders',
		},
	],
	default: 'service',
	description: 'What to do with a placeholder of the text that no injected field fills, or that one fills with empty text',
};

const unfilledHint = (names: string[]) => names.map((name) => `{${name}}`).join(', ');

/** Placeholders in the text that no injected field fills (with `emptyCounts`, or fills with empty text), in order. */
function unfilledPlaceholders(text: string, injected: IDataObject, emptyCounts: boolean): string[] {
	const fills = (name: string) =>
		Object.prototype.hasOwnProperty.call(injected, name) && !(emptyCounts && String(injected[name]).trim() === '');
	return findPlaceholders(text).filter((name) => !fills(name));
}

/**
 * The text and injected fields to send, and what the output reports of the placeholders, after
 * the "Placeholders Without a Value" choice; "Stop With an Error" throws here, before sending.
 */
function resolvePlaceholders(item: OperationItem, text: string, injected: IDataObject): { text: string; injected: IDataObject; report: IDataObject } {
	const choice = readChoice(item, withoutValue);
	if (choice === 'service') {
		const unfilled = unfilledPlaceholders(text, injected, false);
		const report: IDataObject = { unfilled_placeholders: unfilled };
		if (unfilled.length > 0) {
			report.placeholder_note = `No injected field fills ${unfilledHint(unfilled)}. A field stored on the contact may still fill it on the service side; otherwise the customer sees the placeholder as written.`;
		}
		return { text, injected, report };
	}
	const unfilled = unfilledPlaceholders(text, injected, true);
	if (unfilled.length > 0 && choice === 'error') {
		throw invalidInput(
			item,
			fieldLabel(item, textRef),
			text,
			`expected a value for ${unfilledHint(unfilled)}: no injected field fills ${unfilled.length > 1 ? 'them' : 'it'} (or one fills it with empty text). Add ${unfilled.length > 1 ? 'them' : 'it'} to the Injected Fields, or change "${withoutValue.displayName}"`,
		);
	}
	const kept = Object.fromEntries(Object.entries(injected).filter(([name]) => !unfilled.includes(name)));
	return { text: removePlaceholders(text, unfilled), injected: kept, report: { unfilled_placeholders: [], removed_placeholders: unfilled } };
}

export const sendText: OperationDefinition = {
	value: 'sendText',
	name: 'Send Text',
	action: 'Send a text message',
	description: "Send free-form text with named placeholders, inside the customer's 24-hour window",
	properties: [
		...dataToSendFields({ required: ['to', 'text'], optional: ['injected_fields'] }),
		...recipientFields({ withDataToSend: true }),
		...shownForDefineBelow([text, inputMode, pairs, json]),
		withoutValue,
		...freeFormFields(),
	],
	async execute(item: OperationItem) {
		const to = readRecipient(item);
		const { text: message, injected, report } = resolvePlaceholders(item, requireString(item, textRef), readInjectedFields(item));
		const payload: IDataObject = { message_type: 'text', text: message };
		if (Object.keys(injected).length > 0) payload.injected_fields = injected;
		return await sendFreeForm(item, to, payload, report);
	},
};
