// The messaging service's refusals (a closed 24-hour window, a disconnected business account,
// a template it will not send), explained in plain words. The documents show neither error
// codes nor an error body shape, so a refusal is recognised only from what is known: a 4xx
// status and the service's own message. Anything not recognised passes through unchanged, with
// the status and the service's words.
import { NodeApiError, type IDataObject, type IExecuteFunctions, type JsonObject } from 'n8n-workflow';
import { showValue } from '../helpers/parameters';
import type { TemplateChoice } from './send';

export interface ServiceRefusal {
	status: number;
	/** The service's own words, when its answer held any. */
	message?: string;
}

/** What the service answered to a failed request (from the transport's error context). */
export function refusalOf(error: unknown): ServiceRefusal | undefined {
	if (!(error instanceof NodeApiError)) return undefined;
	const context = (error.context ?? {}) as IDataObject;
	if (typeof context.status !== 'number' || context.status < 400 || context.status >= 500) return undefined;
	return {
		status: context.status,
		message: typeof context.serviceMessage === 'string' ? context.serviceMessage : undefined,
	};
}

export function isWindowClosed(refusal: ServiceRefusal | undefined): boolean {
	const said = refusal?.message ?? '';
	return /24[\s-]*h(ou)?r|service window|conversation window|messaging window|window (is )?(closed|expired)/i.test(said);
}

function isBusinessNotConnected(refusal: ServiceRefusal): boolean {
	return /business account[^.]*not (been )?connected|not connected[^.]*business account/i.test(refusal.message ?? '');
}

type TemplateProblem = 'parameters' | 'not_approved' | 'not_found' | 'other';

function templateProblemOf(refusal: ServiceRefusal): TemplateProblem | undefined {
	const said = refusal.message ?? '';
	if (/template[^.]*parameter|parameter[^.]*template/i.test(said)) return 'parameters';
	if (/template[^.]*not (been )?approved/i.test(said)) return 'not_approved';
	if (/template[^.]*(not found|does not exist|unknown)/i.test(said)) return 'not_found';
	if (/\btemplate\b/i.test(said)) return 'other';
	return undefined;
}

/**
 * A refusal explained: a short message that says what happened, and the description with what
 * to do and the service's own words (so the message does not say the same thing twice).
 */
function explainedRefusal(
	context: IExecuteFunctions,
	itemIndex: number,
	refusal: ServiceRefusal,
	explanation: string,
	hint: string,
): NodeApiError {
	const message = `${explanation} (HTTP ${refusal.status})`;
	const description = refusal.message ? `${hint} The service said: ${refusal.message}` : hint;
	const error = new NodeApiError(context.getNode(), { message, description } as JsonObject, {
		message,
		description,
		httpCode: String(refusal.status),
		itemIndex,
	});
	error.context = { ...error.context, status: refusal.status, serviceMessage: refusal.message };
	return error;
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
export function explainSendError(
	context: IExecuteFunctions,
	itemIndex: number,
	label: string,
	error: unknown,
	template?: TemplateChoice,
): unknown {
	const refusal = refusalOf(error);
	if (!refusal) return error;
	if (isBusinessNotConnected(refusal)) {
		return explainedRefusal(
			context,
			itemIndex,
			refusal,
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
	return explainedRefusal(context, itemIndex, refusal, `${label} failed: ${explanation}`, hint);
}

export function windowClosedError(
	context: IExecuteFunctions,
	itemIndex: number,
	label: string,
	to: string,
	refusal: ServiceRefusal,
): NodeApiError {
	return explainedRefusal(
		context,
		itemIndex,
		refusal,
		`${label} failed: the 24-hour customer service window for ${to} is closed, so a free-form message cannot be sent`,
		'The window opens for 24 hours each time the customer writes to you; outside it, only approved templates can be sent. Use "Send Template", or turn on "Fallback to Template".',
	);
}
