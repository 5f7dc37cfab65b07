// The customer's 24-hour service window, in one place: free-form messages (text, media,
// location, custom, and Send and Wait's question) are allowed only within 24 hours of the
// customer's last message. Here are how a refusal for that reason is recognised, how the node
// words it, the "Fallback to Template" field, and the rule: post the message, or on a
// closed-window refusal post the fallback template instead.
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { ServiceError } from '../errors';
import type { CallContext } from '../transport/request';
import { explainSendError, postMessage, refusalOf, type TemplateChoice } from './send';
import { templateFields, type TemplateFieldNames } from './template';

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
 * The refusal explained: "<label> failed: the window for <to> is closed, so <what could not
 * go>", with what to do (`hint`) and the service's own words.
 */
export function windowClosedError(label: string, recipient: string, refusal: ServiceError, couldNot: string, hint: string): ServiceError {
	return refusal.explained(`${label} failed: ${windowClosedWords(recipient)}, so ${couldNot}`, hint);
}

/**
 * "Fallback to Template" and, when it is on, the template to send instead: `names` are the
 * group's parameter names, `templateHint` describes its Template ID.
 */
export function windowFallbackFields(names: TemplateFieldNames, templateHint: string): INodeProperties[] {
	return [
		{
			displayName: 'Fallback to Template',
			name: FALLBACK_SWITCH,
			type: 'boolean',
			default: false,
			description:
				"Whether to send an approved template instead when the service refuses the message because the customer's 24-hour window is closed",
		},
		...templateFields(names, templateHint, { [FALLBACK_SWITCH]: [true] }),
	];
}

/** Whether "Fallback to Template" is on for the item. */
export function fallbackIsOn(read: (name: string, fallback: unknown) => unknown): boolean {
	return read(FALLBACK_SWITCH, false) === true;
}

/** A template sent instead of a free-form message when the window is closed. */
export interface WindowFallback {
	template: TemplateChoice;
	/** The template message's request body. */
	body: IDataObject;
}

/**
 * The rule: posts `body`; when the service refuses it because the window is closed, posts the
 * fallback template instead, or throws `withoutFallback(refusal)`. Any other refusal is
 * explained and thrown. `refusal` is set when the fallback went.
 */
export async function postOrFallBack(
	context: IExecuteFunctions,
	call: CallContext,
	body: IDataObject,
	fallback: WindowFallback | undefined,
	withoutFallback: (refusal: ServiceError) => Error,
): Promise<{ sent: IDataObject; refusal?: ServiceError }> {
	try {
		return { sent: await postMessage(context, call, body) };
	} catch (error) {
		const refusal = refusalOf(error);
		if (!refusal || !isWindowClosed(refusal)) throw explainSendError(call.label, error);
		if (!fallback) throw withoutFallback(refusal);
		const fallbackCall = { ...call, label: `${call.label} (fallback template "${fallback.template.id}")` };
		try {
			return { sent: await postMessage(context, fallbackCall, fallback.body), refusal };
		} catch (fallbackError) {
			throw explainSendError(fallbackCall.label, fallbackError, fallback.template);
		}
	}
}
