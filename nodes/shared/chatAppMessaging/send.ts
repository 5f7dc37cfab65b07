// Sending a message, in one place: the recipient, the POST to /messages on the chat-app channel,
// the refusals the service can answer with explained in plain words, and the customer's 24-hour
// service window. Free-form messages (text, media, location, custom, and Send and Wait's
// question) go only within 24 hours of the customer's last message; `sendInWindow` is the one
// rule for all of them: post the message, or on a closed-window refusal post the approved
// fallback template instead, or fail saying so.
//
// The documents show neither error codes nor an error body shape, so a refusal is recognised
// only from what is known: a 4xx status and the service's own words. Anything not recognised
// passes through unchanged, with the status and the service's words.
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import type { OperationItem } from '../actionNode/operation';
import { ServiceError, showValue } from '../errors';
import type { Item } from '../execution';
import { readAdditionalFields, withExtraFields } from '../fields/body';
import { additionalFieldsCollection, shownForDefineBelow, EXTRA_BODY_LABEL } from '../fields/builders';
import { mappedFrom, parameter, readChecked } from '../fields/parameters';
import { checkE164 } from '../fields/validation';
import { request } from '../transport';
import {
	FALLBACK_TEMPLATE_FIELDS,
	readTemplate,
	type TemplateChoice,
	type TemplateFieldNames,
	templateFields,
} from './template';

export const CHANNEL = 'chatapp';

const toField: INodeProperties = {
	displayName: 'To',
	name: 'to',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. +14155550123',
	description: "The recipient's phone number in E.164 form: a +, the country code and the number",
};

const normalizePhoneNumberField: INodeProperties = {
	displayName: 'Normalize Phone Number',
	name: 'normalizePhoneNumber',
	type: 'boolean',
	default: true,
	description:
		'Whether to remove spaces, dashes, dots and parentheses (and turn a leading 00 into +) before checking the number, so "+1 (415) 555-0123" becomes +14155550123',
};

const toRef = mappedFrom(toField, 'to');

/**
 * To and Normalize Phone Number. In a send with "Data to Send", To is read from the input item in
 * "Map Automatically" mode and shown only for "Define Below".
 */
export function recipientFields({ withDataToSend }: { withDataToSend: boolean }): INodeProperties[] {
	return [...(withDataToSend ? shownForDefineBelow([toField]) : [toField]), normalizePhoneNumberField];
}

/** The recipient, in E.164, normalised first when "Normalize Phone Number" is on. */
export function readRecipient(item: Item): string {
	const normalize = parameter(item, normalizePhoneNumberField.name, true) as boolean;
	return readChecked(item, toRef, (value) => checkE164(value, normalize));
}

export function templateBody(recipient: string, template: TemplateChoice): IDataObject {
	return {
		channel: CHANNEL,
		to: recipient,
		message_type: 'template',
		template: { id: template.id, parameters: template.parameters },
	};
}

/**
 * Sends the body and returns the service's answer with what was sent: `message_id` and
 * `conversation_id` first, then the fields sent (to, message_type, ...), so the next node has both.
 */
export async function postMessage(item: OperationItem, body: IDataObject): Promise<IDataObject> {
	const answer = await request(item, { method: 'POST', path: '/messages', body });
	const response = (Array.isArray(answer) ? (answer[0] ?? {}) : answer) as IDataObject;
	return {
		message_id: response.message_id,
		conversation_id: response.conversation_id,
		...body,
		...response,
	};
}

/** A 4xx answer of the service: it refused the message, and did not send it. */
export function refusalOf(error: unknown): ServiceError | undefined {
	return error instanceof ServiceError && error.isRefusal ? error : undefined;
}

function isBusinessNotConnected(refusal: ServiceError): boolean {
	return /business account[^.]*not (been )?connected|not connected[^.]*business account/i.test(refusal.serviceMessage ?? '');
}

type TemplateProblem = 'parameters' | 'not_approved' | 'not_found' | 'other';

function templateProblemOf(refusal: ServiceError): TemplateProblem | undefined {
	const said = refusal.serviceMessage ?? '';
	if (/template[^.]*parameter|parameter[^.]*template/i.test(said)) return 'parameters';
	if (/template[^.]*not (been )?approved/i.test(said)) return 'not_approved';
	if (/template[^.]*(not found|does not exist|unknown)/i.test(said)) return 'not_found';
	if (/\btemplate\b/i.test(said)) return 'other';
	return undefined;
}

const TEMPLATE_EXPLANATIONS: Record<TemplateProblem, (id: string, sent: string) => [string, string]> = {
	parameters: (id, sent) => [
		`the service rejected template "${id}": a parameter is missing, extra or out of order (${sent})`,
		"List the parameters in the order of the template's placeholders {{1}}, {{2}}, ... with one value for each; the node sends them exactly in the order given.",
	],
	not_approved: (id) => [
		`the service rejected template "${id}": it is not approved yet, and only approved templates can be sent`,
		'Wait for the channel operator to approve the template, or choose an approved one.',
	],
	not_found: (id) => [
		`the service does not know template "${id}"`,
		'Check the template ID in the messaging dashboard (IDs are case-sensitive).',
	],
	other: (id, sent) => [`the service rejected template "${id}" (${sent})`, "See the service's message for what to change."],
};

/** Turns the refusals every send can meet into plain-words errors; anything else is returned unchanged. */
export function explainSendError(label: string, error: unknown, template?: TemplateChoice): unknown {
	const refusal = refusalOf(error);
	if (!refusal) return error;
	if (isBusinessNotConnected(refusal)) {
		return refusal.explained(
			`${label} failed: the business account is not connected to the chat-app channel, so nothing can be sent`,
			'Connect a business account to the chat-app channel in the messaging dashboard, then run the workflow again.',
		);
	}
	const problem = template ? templateProblemOf(refusal) : undefined;
	if (!template || !problem) return error;
	const sent = `parameters sent, in this order: ${
		template.parameters.length ? template.parameters.map((p, i) => `{{${i + 1}}} ${showValue(p)}`).join(', ') : 'none'
	}`;
	const [explanation, hint] = TEMPLATE_EXPLANATIONS[problem](template.id, sent);
	return refusal.explained(`${label} failed: ${explanation}`, hint);
}

const FALLBACK_SWITCH = 'fallbackToTemplate';

/**
 * The window has no documented error code: a 4xx whose words name it. The documents show
 * neither codes nor a body shape, so the service's own words are all there is to go by.
 */
export function isWindowClosed(refusal: ServiceError | undefined): boolean {
	const said = refusal?.serviceMessage ?? '';
	return /24[\s-]*h(ou)?r|service window|conversation window|messaging window|window (is )?(closed|expired)/i.test(said);
}

/** How the node says it, wherever it says it. */
export function windowClosedWords(recipient: string): string {
	return `the 24-hour customer service window for ${recipient} is closed`;
}

/**
 * "Fallback to Template" and, when it is on, the template to send instead: `names` are the
 * group's parameter names, `templateHint` describes its Template ID, `notice` (shown with the
 * template) says what the template needs.
 */
export function windowFallbackFields(names: TemplateFieldNames, templateHint: string, notice?: INodeProperties): INodeProperties[] {
	return [
		{
			displayName: 'Fallback to Template',
			name: FALLBACK_SWITCH,
			type: 'boolean',
			default: false,
			description:
				"Whether to send an approved template instead when the service refuses the message because the customer's 24-hour window is closed",
		},
		...(notice ? [notice] : []),
		...templateFields(names, templateHint, { [FALLBACK_SWITCH]: [true] }),
	];
}

/** Whether "Fallback to Template" is on for the item. */
export function fallbackIsOn(item: Item): boolean {
	return parameter(item, FALLBACK_SWITCH, false) === true;
}

/** A message for the customer's 24-hour window, and what happens when the window is closed. */
export interface WindowMessage {
	/** The request body: channel, to, message_type and its content. */
	body: IDataObject;
	/** Added to the output when the message itself was sent. */
	report?: IDataObject;
	/** The approved template sent instead when the window is closed (Fallback to Template). */
	fallback?: { template: TemplateChoice; body: IDataObject };
	/** Without a fallback: what could not go ("a free-form message cannot be sent"), and what to do. */
	whenClosed: { couldNot: string; hint: string };
}

/**
 * The rule: posts the message; when the service refuses it because the window is closed, posts
 * the fallback template instead, or fails saying the window is closed. Any other refusal is
 * explained and thrown. Returns what was sent, and which message went (`sent_as`).
 */
export async function sendInWindow(item: OperationItem, message: WindowMessage): Promise<IDataObject> {
	const { body, fallback } = message;
	let refusal: ServiceError | undefined;
	try {
		return { ...(await postMessage(item, body)), ...message.report, sent_as: body.message_type };
	} catch (error) {
		refusal = refusalOf(error);
		if (!refusal || !isWindowClosed(refusal)) throw explainSendError(item.label, error);
	}
	const recipient = String(body.to);
	if (!fallback) {
		throw refusal.explained(`${item.label} failed: ${windowClosedWords(recipient)}, so ${message.whenClosed.couldNot}`, message.whenClosed.hint);
	}
	const fallbackItem = { ...item, label: `${item.label} (fallback template "${fallback.template.id}")` };
	let sent: IDataObject;
	try {
		sent = await postMessage(fallbackItem, fallback.body);
	} catch (fallbackError) {
		throw explainSendError(fallbackItem.label, fallbackError, fallback.template);
	}
	const said = refusal.serviceMessage;
	return {
		...sent,
		sent_as: 'template',
		requested_message_type: body.message_type,
		fallback_reason: `Template "${fallback.template.id}" was sent instead of the ${String(body.message_type)} message: ${windowClosedWords(recipient)}.${said ? ` The service said: ${said}` : ''}`,
	};
}

/** The fields after a free-form send's own: Fallback to Template and its template, then Additional Fields. */
export function freeFormFields(additional: INodeProperties = additionalFieldsCollection()): INodeProperties[] {
	return [...windowFallbackFields(FALLBACK_TEMPLATE_FIELDS, 'The approved template to send when the window is closed'), additional];
}

/**
 * Sends a free-form message (text, media, location, custom) in the window: `payload` holds
 * message_type and its content; the item's Extra Body Fields and fallback template are read
 * (and checked) before anything is sent; `report` is added to the output when the message
 * itself went.
 */
export async function sendFreeForm(item: OperationItem, to: string, payload: IDataObject, report: IDataObject = {}): Promise<IDataObject> {
	const { extraBody } = readAdditionalFields(item);
	const body = withExtraFields(item, EXTRA_BODY_LABEL, { channel: CHANNEL, to, ...payload }, extraBody);
	const template = fallbackIsOn(item) ? readTemplate(item, FALLBACK_TEMPLATE_FIELDS) : undefined;
	return await sendInWindow(item, {
		body,
		report,
		fallback: template && { template, body: withExtraFields(item, EXTRA_BODY_LABEL, templateBody(to, template), extraBody) },
		whenClosed: {
			couldNot: 'a free-form message cannot be sent',
			hint: 'The window opens for 24 hours each time the customer writes to you; outside it, only approved templates can be sent. Use "Send Template", or turn on "Fallback to Template".',
		},
	});
}
