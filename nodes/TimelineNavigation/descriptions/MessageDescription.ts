import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';
import { FALLBACK_TEMPLATE_FIELDS, TEMPLATE_FIELDS, type TemplateFieldNames } from '../shared/messaging';
import { additionalFieldsCollection, operationField, showFor } from './common';

const SENDS = ['sendCustom', 'sendLocation', 'sendMedia', 'sendTemplate', 'sendText'];
/** Sends the service accepts only inside the customer's 24-hour window. */
const FREE_FORM = ['sendCustom', 'sendLocation', 'sendMedia', 'sendText'];

export const messageOperations: INodeProperties[] = [
	operationField(
		'message',
		[
			{
				name: 'Get Status',
				value: 'getStatus',
				action: 'Get the delivery status of a message',
				description: 'Look up the latest delivery status of a sent message (GET /messages/{message_id})',
			},
			{
				name: 'Send Custom',
				value: 'sendCustom',
				action: 'Send a custom message',
				description: 'Send a JSON object as a custom message, inside the 24-hour window (POST /messages)',
			},
			{
				name: 'Send Location',
				value: 'sendLocation',
				action: 'Send a location',
				description: 'Send a static location, inside the 24-hour window (POST /messages)',
			},
			{
				name: 'Send Media',
				value: 'sendMedia',
				action: 'Send an image, video, audio or file',
				description: 'Send an image, video, audio or file by URL, inside the 24-hour window (POST /messages)',
			},
			{
				name: 'Send Template',
				value: 'sendTemplate',
				action: 'Send a template message',
				description:
					'Send an approved template with its ordered parameters; allowed at any time (POST /messages)',
			},
			{
				name: 'Send Text',
				value: 'sendText',
				action: 'Send a text message',
				description:
					'Send free-form text with named placeholders, inside the 24-hour window (POST /messages)',
			},
		],
		'sendTemplate',
	),
];

/**
 * A template ID and its ordered parameters, listed one by one or given as one array.
 * Used twice: for Send Template, and for the fallback template of the free-form sends.
 */
function templateFields(
	operations: string[],
	names: TemplateFieldNames,
	idDescription: string,
	extraShow: IDisplayOptions['show'] = {},
): INodeProperties[] {
	const prefix = names.labelPrefix;
	const show = (more: IDisplayOptions['show'] = {}): IDisplayOptions => ({
		show: { resource: ['message'], operation: operations, ...extraShow, ...more },
	});
	return [
		{
			displayName: `${prefix}Template ID`,
			name: names.templateId,
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. order_update',
			description: idDescription,
			displayOptions: show(),
		},
		{
			displayName: `${prefix}Parameters Input`,
			name: names.input,
			type: 'options',
			options: [
				{
					name: 'From an Array',
					value: 'array',
					description:
						'One expression that yields the parameters as an array, in order (for example from an AI agent or a previous node)',
				},
				{
					name: 'One by One',
					value: 'list',
					description: 'List the parameters in order: the first fills {{1}}, the second {{2}}, and so on',
				},
			],
			default: 'list',
			description: "How the values for the template's numbered placeholders ({{1}}, {{2}} and so on) are given",
			displayOptions: show(),
		},
		{
			displayName: `${prefix}Parameters`,
			name: names.list,
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			placeholder: 'Add Parameter',
			default: {},
			description:
				'The values for {{1}}, {{2}}, ... in this order. Sent exactly as listed: never reordered, and an empty one is an error.',
			displayOptions: show({ [names.input]: ['list'] }),
			options: [
				{
					displayName: 'Parameter',
					name: 'parameter',
					values: [
						{
							displayName: 'Value',
							name: 'value',
							type: 'string',
							default: '',
							description: 'The value of the placeholder at this position',
						},
					],
				},
			],
		},
		{
			displayName: `${prefix}Parameters (Array)`,
			name: names.array,
			type: 'json',
			required: true,
			default: '[]',
			placeholder: '={{ $json.parameters }}',
			description:
				'An array of the values for {{1}}, {{2}}, ... in order, such as ["Ada", "#1042"]. Usually an expression.',
			displayOptions: show({ [names.input]: ['array'] }),
		},
	];
}

export const messageFields: INodeProperties[] = [
	// ---- every send --------------------------------------------------------------
	{
		displayName: 'To',
		name: 'to',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +14155550123',
		description: 'The recipient\'s phone number in E.164 form: a +, the country code and the number',
		displayOptions: showFor('message', SENDS),
	},
	{
		displayName: 'Normalize Phone Number',
		name: 'normalizePhoneNumber',
		type: 'boolean',
		default: true,
		description:
			'Whether to remove spaces, dashes, dots and parentheses (and turn a leading 00 into +) before checking the number, so "+1 (415) 555-0123" becomes +14155550123',
		displayOptions: showFor('message', SENDS),
	},

	// ---- Send Template -----------------------------------------------------------
	...templateFields(['sendTemplate'], TEMPLATE_FIELDS, 'The ID of an approved template'),

	// ---- Send Text ---------------------------------------------------------------
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: '',
		placeholder: 'e.g. Hi {first_name}, your table is ready.',
		description:
			'The message. Named placeholders such as {first_name} are filled by the service from Injected Fields (or fields stored on the contact).',
		displayOptions: showFor('message', ['sendText']),
	},
	{
		displayName: 'Specify Injected Fields',
		name: 'injectedFieldsInput',
		type: 'options',
		options: [
			{ name: 'Using Fields Below', value: 'pairs' },
			{ name: 'Using JSON', value: 'json' },
		],
		default: 'pairs',
		description: 'How the values for the placeholders are given',
		displayOptions: showFor('message', ['sendText']),
	},
	{
		displayName: 'Injected Fields',
		name: 'injectedFields',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Field',
		default: {},
		description: 'Values for the placeholders of this message only; they win over fields stored on the contact',
		displayOptions: { show: { resource: ['message'], operation: ['sendText'], injectedFieldsInput: ['pairs'] } },
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
	},
	{
		displayName: 'Injected Fields (JSON)',
		name: 'injectedFieldsJson',
		type: 'json',
		default: '{}',
		placeholder: '{"first_name": "Ada"}',
		description: 'An object of placeholder name to value (text, number or boolean), for this message only',
		displayOptions: { show: { resource: ['message'], operation: ['sendText'], injectedFieldsInput: ['json'] } },
	},

	// ---- Send Media --------------------------------------------------------------
	{
		displayName: 'Media Type',
		name: 'mediaType',
		type: 'options',
		options: [
			{ name: 'Audio', value: 'audio' },
			{ name: 'File', value: 'file' },
			{ name: 'Image', value: 'image' },
			{ name: 'Video', value: 'video' },
		],
		default: 'image',
		description: 'What kind of media the URL points to',
		displayOptions: showFor('message', ['sendMedia']),
	},
	{
		displayName: 'Media URL',
		name: 'mediaUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com/photo.jpg',
		description: 'A public http or https address the service fetches the media from',
		displayOptions: showFor('message', ['sendMedia']),
	},

	// ---- Send Location -----------------------------------------------------------
	{
		displayName: 'Latitude',
		name: 'latitude',
		type: 'number',
		typeOptions: { minValue: -90, maxValue: 90, numberPrecision: 6 },
		required: true,
		default: 0,
		description: 'From -90 (south) to 90 (north)',
		displayOptions: showFor('message', ['sendLocation']),
	},
	{
		displayName: 'Longitude',
		name: 'longitude',
		type: 'number',
		typeOptions: { minValue: -180, maxValue: 180, numberPrecision: 6 },
		required: true,
		default: 0,
		description: 'From -180 (west) to 180 (east)',
		displayOptions: showFor('message', ['sendLocation']),
	},
	{
		displayName: 'Name',
		name: 'locationName',
		type: 'string',
		default: '',
		placeholder: 'e.g. Central Station',
		description: 'The name of the place. Locations are static: live location is not supported.',
		displayOptions: showFor('message', ['sendLocation']),
	},
	{
		displayName: 'Address',
		name: 'locationAddress',
		type: 'string',
		default: '',
		placeholder: 'e.g. 1 Station Square',
		description: 'The address of the place',
		displayOptions: showFor('message', ['sendLocation']),
	},

	// ---- Send Custom -------------------------------------------------------------
	{
		displayName: 'Custom Payload (JSON)',
		name: 'customPayload',
		type: 'json',
		required: true,
		default: '{}',
		description: 'A JSON object sent unchanged as the message\'s "custom" field',
		displayOptions: showFor('message', ['sendCustom']),
	},

	// ---- free-form sends: the window fallback -------------------------------------
	{
		displayName: 'Fallback Template When Window Closed',
		name: 'fallbackToTemplate',
		type: 'boolean',
		default: false,
		description:
			"Whether to send a template instead when the service refuses this message because the customer's 24-hour window is closed. The output's sent_as and fallback_reason say which message was sent.",
		displayOptions: showFor('message', FREE_FORM),
	},
	...templateFields(
		FREE_FORM,
		FALLBACK_TEMPLATE_FIELDS,
		'The approved template to send when the window is closed',
		{ fallbackToTemplate: [true] },
	),

	// ---- Additional Fields -------------------------------------------------------
	additionalFieldsCollection('message', ['sendCustom', 'sendLocation', 'sendTemplate', 'sendText']),
	additionalFieldsCollection('message', ['sendMedia'], [
		{
			displayName: 'Caption',
			name: 'caption',
			type: 'string',
			default: '',
			description: 'Text shown with the media (sent as caption in the media object)',
		},
		{
			displayName: 'Extra Media Fields (JSON)',
			name: 'extraMedia',
			type: 'json',
			default: '{}',
			description: 'Fields merged into the media object as given, for fields this node does not list',
		},
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			placeholder: 'e.g. invoice.pdf',
			description: 'The name the recipient sees (sent as filename in the media object)',
		},
	]),

	// ---- Get Status --------------------------------------------------------------
	{
		displayName: 'Message ID',
		name: 'messageId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. msg_123',
		description: 'The message_id a send returned',
		displayOptions: showFor('message', ['getStatus']),
	},
];
