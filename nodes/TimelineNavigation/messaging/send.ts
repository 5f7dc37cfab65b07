// What every message send shares: the recipient, the POST to /messages on the chat-app
// channel, and the refusals the service can answer with, explained in plain words.
//
// The documents show neither error codes nor an error body shape, so a refusal is recognised
// only from what is known: a 4xx status and the service's own words. Anything not recognised
// passes through unchanged, with the status and the service's words.
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { ServiceError, showValue } from '../errors';
import { definedBelow } from '../helpers/fields';
import { mappedFrom, nodeParameter, readChecked } from '../helpers/parameters';
import { checkE164 } from '../helpers/validation';
import { apiRequest, type CallContext } from '../transport/request';

export const CHANNEL = 'chatapp';

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

/** A template message: the ID and its parameters in placeholder order. */
export interface TemplateChoice {
	id: string;
	parameters: string[];
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
export async function postMessage(context: IExecuteFunctions, call: CallContext, body: IDataObject): Promise<IDataObject> {
	const answer = await apiRequest.call(context, call, { method: 'POST', path: '/messages', body });
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
