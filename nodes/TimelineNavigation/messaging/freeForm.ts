// Free-form sends (text, media, location, custom) are allowed only inside the customer's
// 24-hour window. When the service refuses one because the window is closed, the send fails
// with an error that says so, or, with "Fallback to Template" on, the named
// template is sent instead and the output says which message went.
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { EXTRA_BODY_FIELD, readAdditionalFields, withExtraFields } from '../helpers/body';
import { additionalFieldsCollection } from '../helpers/fields';
import { nodeParameter } from '../helpers/parameters';
import type { CallContext } from '../transport/request';
import type { ServiceError } from '../errors';
import {
	CHANNEL,
	explainSendError,
	isWindowClosed,
	postMessage,
	refusalOf,
	templateBody,
	windowClosedError,
	type TemplateChoice,
} from './send';
import { FALLBACK_TEMPLATE_FIELDS, readTemplate, templateFields } from './template';

const fallbackToTemplate: INodeProperties = {
	displayName: 'Fallback to Template',
	name: 'fallbackToTemplate',
	type: 'boolean',
	default: false,
	description:
		"Whether to send a template instead when the service refuses this message because the customer's 24-hour window is closed. The output's sent_as and fallback_reason say which message was sent.",
};

/** The window fallback's switch and its template, then the Additional Fields collection. */
export function freeFormFields(additional: INodeProperties = additionalFieldsCollection()): INodeProperties[] {
	return [
		fallbackToTemplate,
		...templateFields(FALLBACK_TEMPLATE_FIELDS, 'The approved template to send when the window is closed', {
			fallbackToTemplate: [true],
		}),
		additional,
	];
}

/**
 * Sends a free-form message. `payload` holds message_type and its content; `report` is added to
 * the output when the message itself was sent.
 */
export async function sendFreeForm(
	context: IExecuteFunctions,
	call: CallContext,
	to: string,
	payload: IDataObject,
	report: IDataObject = {},
): Promise<IDataObject> {
	const { itemIndex, label } = call;
	const { extraBody } = readAdditionalFields(context, itemIndex);
	const body = withExtraFields(context, itemIndex, EXTRA_BODY_FIELD, { channel: CHANNEL, to, ...payload }, extraBody);
	// Read (and check) the fallback before anything is sent, so a mistake in it fails early.
	const useFallback = nodeParameter(context, fallbackToTemplate.name, itemIndex, false) as boolean;
	const fallback = useFallback ? readTemplate(context, itemIndex, FALLBACK_TEMPLATE_FIELDS) : undefined;
	const fallbackBody = fallback
		? withExtraFields(context, itemIndex, EXTRA_BODY_FIELD, templateBody(to, fallback), extraBody)
		: undefined;
	const outcome = await postOrFallBack(
		context,
		call,
		body,
		fallback && fallbackBody ? { template: fallback, body: fallbackBody } : undefined,
		(refusal) => windowClosedError(label, to, refusal),
	);
	if (!outcome.refusal) return { ...outcome.sent, ...report, sent_as: body.message_type };
	const said = outcome.refusal.serviceMessage;
	return {
		...outcome.sent,
		sent_as: 'template',
		requested_message_type: body.message_type,
		fallback_reason: `The 24-hour customer service window for ${to} is closed, so the ${String(body.message_type)} message was not sent and template "${fallback?.id}" was sent instead.${said ? ` The service said: ${said}` : ''}`,
	};
}

/** A template sent instead of a free-form message when the window is closed. */
export interface WindowFallback {
	template: TemplateChoice;
	/** The template message's request body. */
	body: IDataObject;
}

/**
 * The one rule of the 24-hour window: posts `body`; when the service refuses it because the
 * window is closed, posts the fallback template instead, or throws `withoutFallback(refusal)`.
 * Any other refusal is explained and thrown. `refusal` is set when the fallback went.
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
