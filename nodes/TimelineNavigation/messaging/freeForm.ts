// Free-form sends (text, media, location, custom): the message goes only inside the customer's
// 24-hour window (./window.ts). When the service refuses it because the window is closed, the
// send fails with an error that says so, or, with "Fallback to Template" on, the named template
// is sent instead and the output says which message went.
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { readAdditionalFields, withExtraFields } from '../helpers/body';
import { additionalFieldsCollection, EXTRA_BODY_LABEL } from '../helpers/fields';
import { nodeParameter } from '../helpers/parameters';
import type { CallContext } from '../transport/request';
import { CHANNEL, templateBody } from './send';
import { FALLBACK_TEMPLATE_FIELDS, readTemplate } from './template';
import { fallbackIsOn, postOrFallBack, windowClosedError, windowClosedWords, windowFallbackFields } from './window';

/** The window fallback's switch and its template, then the Additional Fields collection. */
export function freeFormFields(additional: INodeProperties = additionalFieldsCollection()): INodeProperties[] {
	return [...windowFallbackFields(FALLBACK_TEMPLATE_FIELDS, 'The approved template to send when the window is closed'), additional];
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
	const body = withExtraFields(context, itemIndex, EXTRA_BODY_LABEL, { channel: CHANNEL, to, ...payload }, extraBody);
	// Read (and check) the fallback before anything is sent, so a mistake in it fails early.
	const fallback = fallbackIsOn((name, value) => nodeParameter(context, name, itemIndex, value))
		? readTemplate(context, itemIndex, FALLBACK_TEMPLATE_FIELDS)
		: undefined;
	const outcome = await postOrFallBack(
		context,
		call,
		body,
		fallback && { template: fallback, body: withExtraFields(context, itemIndex, EXTRA_BODY_LABEL, templateBody(to, fallback), extraBody) },
		(refusal) =>
			windowClosedError(
				label,
				to,
				refusal,
				'a free-form message cannot be sent',
				'The window opens for 24 hours each time the customer writes to you; outside it, only approved templates can be sent. Use "Send Template", or turn on "Fallback to Template".',
			),
	);
	if (!outcome.refusal) return { ...outcome.sent, ...report, sent_as: body.message_type };
	const said = outcome.refusal.serviceMessage;
	return {
		...outcome.sent,
		sent_as: 'template',
		requested_message_type: body.message_type,
		fallback_reason: `Template "${fallback?.id}" was sent instead of the ${String(body.message_type)} message: ${windowClosedWords(to)}.${said ? ` The service said: ${said}` : ''}`,
	};
}
