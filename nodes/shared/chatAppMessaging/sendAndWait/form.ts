// The custom form of a Send and Wait question: its fields as the node defines them (in the
// editor or as JSON, with n8n's Form node names so a form can be copied over), the HTML of those
// fields, and the check of what the person submitted.
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { escapeHtml } from './html';

export const FIELD_TYPES = ['checkbox', 'date', 'dropdown', 'email', 'number', 'radio', 'text', 'textarea'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
const CHOICE_TYPES: readonly FieldType[] = ['checkbox', 'dropdown', 'radio'];

export interface FormField {
	label: string;
	type: FieldType;
	required: boolean;
	placeholder: string;
	/** The choices of a dropdown, radio or checkbox field. */
	options: string[];
	/** A dropdown that takes several choices (a checkbox field always does). */
	multiple: boolean;
}

const JSON_EXAMPLE = JSON.stringify(
	[
		{ fieldLabel: 'Decision', fieldType: 'radio', fieldOptions: { values: [{ option: 'Refund' }, { option: 'Replace' }] }, requiredField: true },
		{ fieldLabel: 'Note to the customer', fieldType: 'textarea' },
	],
	null,
	2,
);

export const formDefinitionFields: INodeProperties[] = [
	{
		displayName: 'Define Form',
		name: 'defineForm',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Using Fields Below', value: 'fields' },
			{ name: 'Using JSON', value: 'json' },
		],
		default: 'fields',
		description: 'How the fields of the form the person fills in are given',
	},
	{
		displayName: 'Form Elements',
		name: 'formFields',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Form Element',
		default: {},
		displayOptions: { show: { defineForm: ['fields'] } },
		options: [
			{
				displayName: 'Values',
				name: 'values',
				values: [
					{
						displayName: 'Field Label',
						name: 'fieldLabel',
						type: 'string',
						default: '',
						placeholder: 'e.g. What is your name?',
						description: 'Shown above the field, and the name of the answer in the output',
						required: true,
					},
					{
						displayName: 'Field Options',
						name: 'fieldOptions',
						type: 'fixedCollection',
						typeOptions: { multipleValues: true, sortable: true },
						placeholder: 'Add Field Option',
						default: { values: [{ option: '' }] },
						displayOptions: { show: { fieldType: ['checkbox', 'dropdown', 'radio'] } },
						options: [
							{
								displayName: 'Values',
								name: 'values',
								values: [{ displayName: 'Option', name: 'option', type: 'string', default: '' }],
							},
						],
					},
					{
						displayName: 'Field Type',
						name: 'fieldType',
						type: 'options',
						default: 'text',
						options: [
							{ name: 'Checkboxes', value: 'checkbox' },
							{ name: 'Date', value: 'date' },
							{ name: 'Dropdown List', value: 'dropdown' },
							{ name: 'Email', value: 'email' },
							{ name: 'Number', value: 'number' },
							{ name: 'Radio Buttons', value: 'radio' },
							{ name: 'Text', value: 'text' },
							{ name: 'Textarea', value: 'textarea' },
						],
					},
					{
						displayName: 'Multiple Choice',
						name: 'multiselect',
						type: 'boolean',
						default: false,
						description: 'Whether the person may choose more than one option',
						displayOptions: { show: { fieldType: ['dropdown'] } },
					},
					{
						displayName: 'Placeholder',
						name: 'placeholder',
						type: 'string',
						default: '',
						description: 'Sample text shown in the empty field',
						displayOptions: { show: { fieldType: ['email', 'number', 'text', 'textarea'] } },
					},
					{
						displayName: 'Required Field',
						name: 'requiredField',
						type: 'boolean',
						default: false,
						description: 'Whether the form can be sent only with this field filled in',
					},
				],
			},
		],
	},
	{
		displayName: 'Form Fields (JSON)',
		name: 'jsonOutput',
		type: 'json',
		default: JSON_EXAMPLE,
		description:
			"An array of fields as n8n's Form node defines them: fieldLabel, fieldType (checkbox, date, dropdown, email, number, radio, text, textarea), requiredField, placeholder, multiselect, and fieldOptions.values[].option for choices",
		displayOptions: { show: { defineForm: ['json'] } },
	},
];

/** What is wrong with a form definition: the field as the editor names it, and the value. */
export interface FormProblem {
	field: string;
	value: unknown;
	problem: string;
}

type Parsed = { ok: true; fields: FormField[] } | ({ ok: false } & FormProblem);

/** Reads a node parameter (the execute and the webhook context read them differently). */
export type ReadParameter = (name: string, fallback: unknown) => unknown;

/** The form's fields, checked: each has a name of its own, and a choice field has choices. */
export function readFormDefinition(read: ReadParameter): Parsed {
	if (read('defineForm', 'fields') === 'json') {
		const raw = read('jsonOutput', '[]');
		let parsed: unknown = raw;
		if (typeof raw === 'string') {
			try {
				parsed = JSON.parse(raw);
			} catch (error) {
				return { ok: false, field: 'Form Fields (JSON)', value: raw, problem: `expected a JSON array of fields (it is not valid JSON: ${(error as Error).message})` };
			}
		}
		if (!Array.isArray(parsed)) {
			return { ok: false, field: 'Form Fields (JSON)', value: raw, problem: 'expected a JSON array of fields, such as [{"fieldLabel": "Reason", "fieldType": "text"}]' };
		}
		// Inside the JSON: the entry's index and its keys, as the user wrote them.
		return checkFields(parsed, 'Form Fields (JSON)', (index, key) => `Form Fields (JSON) [${index}]${key ? `.${key}` : ''}`);
	}
	const listed = read('formFields.values', []);
	// In the editor: the element's position and the sub-field's label.
	return checkFields(Array.isArray(listed) ? listed : [], 'Form Elements', (index, _key, label) => `Form Elements ${index + 1}${label ? ` → ${label}` : ''}`);
}

/** Where an entry (and one of its fields, by JSON key and editor label) is, as errors name it. */
type EntryLabel = (index: number, key?: string, label?: string) => string;

function checkFields(entries: unknown[], list: string, where: EntryLabel): Parsed {
	if (entries.length === 0) {
		return { ok: false, field: list, value: entries, problem: 'expected at least one field for the person to fill in' };
	}
	const fields: FormField[] = [];
	for (const [index, entry] of entries.entries()) {
		const field = where(index);
		const labelField = where(index, 'fieldLabel', 'Field Label');
		const typeField = where(index, 'fieldType', 'Field Type');
		const optionsField = where(index, 'fieldOptions', 'Field Options');
		if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
			return { ok: false, field, value: entry, problem: 'expected an object with at least fieldLabel' };
		}
		const { fieldLabel, fieldType = 'text', requiredField, placeholder, multiselect, fieldOptions } = entry as IDataObject;
		const label = typeof fieldLabel === 'string' || typeof fieldLabel === 'number' ? String(fieldLabel).trim() : '';
		if (label === '') return { ok: false, field: labelField, value: fieldLabel, problem: 'expected a name: it is shown above the field and names the answer in the output' };
		if (fields.some((known) => known.label === label)) {
			return { ok: false, field: labelField, value: label, problem: 'expected each field name once: the answers are output under their field names' };
		}
		if (typeof fieldType !== 'string' || !(FIELD_TYPES as readonly string[]).includes(fieldType)) {
			return { ok: false, field: typeField, value: fieldType, problem: `expected one of ${FIELD_TYPES.join(', ')}` };
		}
		const type = fieldType as FieldType;
		const options = CHOICE_TYPES.includes(type) ? readOptions(fieldOptions) : [];
		if (CHOICE_TYPES.includes(type)) {
			if (options.length === 0 || options.some((option) => option === '')) {
				return { ok: false, field: optionsField, value: fieldOptions, problem: 'expected at least one option, none of them empty' };
			}
			if (new Set(options).size !== options.length) {
				return { ok: false, field: optionsField, value: options, problem: 'expected each option once' };
			}
		}
		fields.push({
			label,
			type,
			required: requiredField === true || requiredField === 'true',
			placeholder: typeof placeholder === 'string' ? placeholder : '',
			options,
			multiple: type === 'checkbox' || (type === 'dropdown' && (multiselect === true || multiselect === 'true')),
		});
	}
	return { ok: true, fields };
}

function readOptions(fieldOptions: unknown): string[] {
	const values = (fieldOptions as IDataObject | undefined)?.values;
	if (!Array.isArray(values)) return [];
	return values.map((value) => {
		const option = (value as IDataObject | null)?.option;
		return typeof option === 'string' || typeof option === 'number' ? String(option).trim() : '';
	});
}

// ---- the page -------------------------------------------------------------------------

/** The name of field `index` in the posted form: labels may hold any character, indexes do not. */
const inputName = (index: number) => `field-${index}`;

export type Submitted = Record<string, string | string[] | undefined>;

const asList = (value: string | string[] | undefined): string[] =>
	value === undefined ? [] : (Array.isArray(value) ? value : [value]).map(String);

/** The fields as HTML, filled with what was submitted before and with each field's problem. */
export function formFieldsHtml(fields: FormField[], submitted: Submitted = {}, problems: Record<number, string> = {}): string {
	return fields
		.map((field, index) => {
			const name = inputName(index);
			const id = `f${index}`;
			const given = asList(submitted[name]);
			const required = field.required ? ' required' : '';
			const star = field.required ? ' <span class="required">*</span>' : '';
			const problem = problems[index] ? `<p class="error">${escapeHtml(problems[index])}</p>` : '';
			const placeholder = field.placeholder ? ` placeholder="${escapeHtml(field.placeholder)}"` : '';
			const value = escapeHtml(given[0] ?? '');
			if (field.type === 'radio' || field.type === 'checkbox') {
				const kind = field.type;
				const choices = field.options
					.map((option, n) => {
						const checked = given.includes(option) ? ' checked' : '';
						// A required radio group needs one choice; checkboxes are checked on the server.
						const need = kind === 'radio' && n === 0 ? required : '';
						return `<label class="choice"><input type="${kind}" name="${name}" value="${escapeHtml(option)}"${checked}${need}> ${escapeHtml(option)}</label>`;
					})
					.join('\n');
				return `<fieldset class="field"><legend>${escapeHtml(field.label)}${star}</legend>\n${choices}${problem}</fieldset>`;
			}
			let control: string;
			if (field.type === 'dropdown') {
				const empty = field.multiple ? '' : `<option value="">Choose…</option>`;
				const options = field.options
					.map((option) => `<option value="${escapeHtml(option)}"${given.includes(option) ? ' selected' : ''}>${escapeHtml(option)}</option>`)
					.join('');
				control = `<select id="${id}" name="${name}"${field.multiple ? ' multiple' : ''}${required}>${empty}${options}</select>`;
			} else if (field.type === 'textarea') {
				control = `<textarea id="${id}" name="${name}"${placeholder}${required}>${value}</textarea>`;
			} else {
				const step = field.type === 'number' ? ' step="any"' : '';
				control = `<input id="${id}" type="${field.type}" name="${name}" value="${value}"${placeholder}${step}${required}>`;
			}
			return `<div class="field"><label for="${id}">${escapeHtml(field.label)}${star}</label>${control}${problem}</div>`;
		})
		.join('\n');
}

// ---- the answer -----------------------------------------------------------------------

/** Text as the person typed it: browsers send each line break of a text box as CR LF. */
export const normalizeLineBreaks = (text: string): string => text.replace(/\r\n?/g, '\n');

export type FormAnswer = { ok: true; data: IDataObject } | { ok: false; problems: Record<number, string> };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The submitted form, checked against its fields; the answers are named by field name. */
export function readFormAnswer(fields: FormField[], submitted: Submitted): FormAnswer {
	const data: IDataObject = {};
	const problems: Record<number, string> = {};
	fields.forEach((field, index) => {
		const given = asList(submitted[inputName(index)]).map((value) => value.trim());
		const filled = given.filter((value) => value !== '');
		if (field.required && filled.length === 0) {
			problems[index] = field.multiple ? 'Choose at least one option.' : 'This field is required.';
			return;
		}
		if (CHOICE_TYPES.includes(field.type)) {
			const unknown = filled.find((value) => !field.options.includes(value));
			if (unknown !== undefined) problems[index] = `"${unknown}" is not one of the choices.`;
			else if (!field.multiple && filled.length > 1) problems[index] = 'Choose one option.';
			else data[field.label] = field.multiple ? filled : (filled[0] ?? '');
			return;
		}
		const value = filled[0] ?? '';
		if (field.type === 'number') {
			const number = Number(value);
			if (value !== '' && !Number.isFinite(number)) problems[index] = 'Enter a number.';
			else data[field.label] = value === '' ? null : number;
		} else if (field.type === 'email' && value !== '' && !EMAIL.test(value)) {
			problems[index] = 'Enter an email address, such as name@example.com.';
		} else if (field.type === 'date' && value !== '' && !(DATE.test(value) && !Number.isNaN(Date.parse(value)))) {
			problems[index] = 'Enter a date (year-month-day).';
		} else {
			// Text keeps what the person typed, spaces and line breaks included.
			data[field.label] = field.type === 'text' || field.type === 'textarea' ? normalizeLineBreaks(asList(submitted[inputName(index)])[0] ?? '') : value;
		}
	});
	return Object.keys(problems).length > 0 ? { ok: false, problems } : { ok: true, data };
}
