// What Send and Wait adds to the node's description: its two waiting webhooks, the tooltip of a
// waiting node, and the fields n8n users know from n8n's own Send and Wait operations (same
// names: Response Type, Approval Options, the form fields, Limit Wait Time).
import type { INodeProperties, IWebhookDescription } from 'n8n-workflow';
import { shownOnlyWhen } from '../../fields/builders';
import { DURATION_UNIT_OPTIONS } from '../../fields/duration';
import { formDefinitionFields } from './form';

/**
 * n8n's waiting webhooks (`/webhook-waiting/<execution>/<node id>`): they exist only while an
 * execution waits at this node, are never registered with a service, and n8n checks the link's
 * signature before it calls the node. GET shows the page; POST takes the answer.
 */
export const SEND_AND_WAIT_WEBHOOKS: IWebhookDescription[] = ['GET', 'POST'].map((httpMethod) => ({
	name: 'default',
	httpMethod,
	responseMode: 'onReceived',
	responseData: '',
	path: '={{ $nodeId }}',
	restartWebhook: true,
	isFullPath: true,
}));

/** Shown on a node that waits, in the editor. */
export const SEND_AND_WAIT_TOOLTIP =
	'={{ $parameter["operation"] === "sendAndWait" ? "The execution goes on when the person answers through the link sent over chat" : "" }}';

export const RESPONSE_TYPES = ['approval', 'freeText', 'customForm'] as const;
export type ResponseType = (typeof RESPONSE_TYPES)[number];

export const responseTypeField: INodeProperties = {
	displayName: 'Response Type',
	name: 'responseType',
	type: 'options',
	options: [
		{ name: 'Approval', value: 'approval', description: 'The person approves (or declines) on the page the link opens' },
		{ name: 'Custom Form', value: 'customForm', description: 'The person fills in a form of your fields' },
		{ name: 'Free Text', value: 'freeText', description: 'The person writes an answer' },
	],
	default: 'approval',
};

export const DEFAULT_APPROVE_LABEL = 'Approve';
export const DEFAULT_DISAPPROVE_LABEL = 'Decline';

/**
 * Both buttons unless the workflow says otherwise, also when Approval Options was never added:
 * a person asked for approval may well say no.
 */
export const DEFAULT_APPROVAL_TYPE = 'double';

export const approvalOptionsField: INodeProperties = {
	displayName: 'Approval Options',
	name: 'approvalOptions',
	type: 'fixedCollection',
	placeholder: 'Add Option',
	// Empty: n8n-workflow cannot fill a missing single-value fixedCollection from a non-empty
	// default (getNodeParameters reads the saved value's entry and throws). The buttons without
	// options are DEFAULT_APPROVAL_TYPE's, and the notice below says so.
	default: {},
	description: 'The buttons on the page: Approve and Decline unless you change them here',
	displayOptions: { show: { responseType: ['approval'] } },
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [
				{
					displayName: 'Type of Approval',
					name: 'approvalType',
					type: 'options',
					options: [
						{ name: 'Approve Only', value: 'single' },
						{ name: 'Approve and Disapprove', value: 'double' },
					],
					default: DEFAULT_APPROVAL_TYPE,
				},
				{
					displayName: 'Approve Button Label',
					name: 'approveLabel',
					type: 'string',
					default: DEFAULT_APPROVE_LABEL,
				},
				{
					displayName: 'Disapprove Button Label',
					name: 'disapproveLabel',
					type: 'string',
					default: DEFAULT_DISAPPROVE_LABEL,
					displayOptions: { show: { approvalType: ['double'] } },
				},
			],
		},
	],
};

export const customFormFields: INodeProperties[] = shownOnlyWhen({ responseType: ['customForm'] }, formDefinitionFields);

/** What the answer item holds, per response type, as n8n's own Send and Wait nodes output it. */
const ANSWER_SHAPES: Record<ResponseType, string> = {
	approval: '{ "data": { "approved": true or false, "respondedAt": the date and time } }',
	freeText: '{ "data": { "text": the answer, "respondedAt": the date and time } }',
	customForm: '{ "data": { each field by its label: its value, "respondedAt": the date and time } }',
};

/**
 * The output, said in the node before it runs: the answer's shape, the time-out's, and how the
 * next node reaches the person who wrote in.
 */
export const outputNotices: INodeProperties[] = RESPONSE_TYPES.map((responseType) => ({
	displayName: `${responseType === 'approval' ? 'The page offers Approve and Decline (Approval Options changes them). ' : ''}Output: one item, ${ANSWER_SHAPES[responseType]}. If nobody answers within Limit Wait Time, the input items go on unchanged, without data. To reply to the person the workflow started for, turn on Options → Include Input Fields (then {{ $json.from }}), or refer to the trigger: {{ $('On Inbound Message').item.json.from }}.`,
	name: `outputNotice_${responseType}`,
	type: 'notice',
	default: '',
	displayOptions: { show: { responseType: [responseType] } },
}));

const limitWaitTime: INodeProperties = {
	displayName: 'Limit Wait Time',
	name: 'limitWaitTime',
	type: 'fixedCollection',
	description:
		'Whether the execution goes on by itself when nobody answers in time. It then outputs the input items unchanged, without a data field.',
	default: { values: { limitType: 'afterTimeInterval', resumeAmount: 45, resumeUnit: 'minutes' } },
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [
				{
					displayName: 'Limit Type',
					name: 'limitType',
					type: 'options',
					options: [
						{ name: 'After Time Interval', value: 'afterTimeInterval', description: 'Waits for a certain amount of time' },
						{ name: 'At Specified Time', value: 'atSpecifiedTime', description: 'Waits until a date and time' },
					],
					default: 'afterTimeInterval',
				},
				{
					displayName: 'Amount',
					name: 'resumeAmount',
					type: 'number',
					typeOptions: { minValue: 0, numberPrecision: 2 },
					default: 1,
					description: 'How long to wait for the answer',
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
				},
				{
					displayName: 'Unit',
					name: 'resumeUnit',
					type: 'options',
					options: DURATION_UNIT_OPTIONS,
					default: 'hours',
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
				},
				{
					displayName: 'Max Date and Time',
					name: 'maxDateAndTime',
					type: 'dateTime',
					default: '',
					description: 'When to stop waiting for the answer',
					displayOptions: { show: { limitType: ['atSpecifiedTime'] } },
				},
			],
		},
	],
};

export const optionsField: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Include Input Fields',
			name: 'includeInputFields',
			type: 'boolean',
			default: false,
			description:
				'Whether the answer item also holds the fields of the item the question was sent for (the first input item), beside data, so that the next node finds the number to reply to on the item itself. A field named data is replaced by the answer.',
		},
		{
			displayName: 'Link Label',
			name: 'messageButtonLabel',
			type: 'string',
			default: 'Respond',
			description:
				'The words before the link in the chat message. Without it: the button label(s) for an approval, "Respond" for a form.',
		},
		limitWaitTime,
		{
			displayName: 'Response Form Button Label',
			name: 'responseFormButtonLabel',
			type: 'string',
			default: 'Submit',
			description: 'The button that sends a free text or custom form answer',
		},
		{
			displayName: 'Response Form Description',
			name: 'responseFormDescription',
			type: 'string',
			default: '',
			description: 'Shown on the page under the title instead of the message',
		},
		{
			displayName: 'Response Form Title',
			name: 'responseFormTitle',
			type: 'string',
			default: '',
			description: 'The heading of the page the link opens',
		},
	],
};
