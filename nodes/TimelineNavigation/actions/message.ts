import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { checkPathId, invalidInput, requireString, unwrap } from '../shared/parameters';
import {
	CHANNEL,
	FALLBACK_TEMPLATE_FIELDS,
	MEDIA_TYPES,
	TEMPLATE_FIELDS,
	checkHttpUrl,
	explainSendError,
	isWindowClosed,
	mergeExtraBody,
	readAdditionalFields,
	readInjectedFields,
	readJsonObject,
	readRecipient,
	readTemplate,
	refusalOf,
	unfilledPlaceholders,
	windowClosedError,
	type MediaType,
} from '../shared/messaging';
import type { ResourceHandlers } from '../shared/runner';
import { checkLatitude, checkLongitude } from '../shared/validation';
import { apiRequest, encodePathSegment } from '../transport/request';

const OPERATION_NAMES: Record<string, string> = {
	sendCustom: 'Message → Send Custom',
	sendLocation: 'Message → Send Location',
	sendMedia: 'Message → Send Media',
	sendTemplate: 'Message → Send Template',
	sendText: 'Message → Send Text',
	getStatus: 'Message → Get Status',
};

async function postMessage(
	context: IExecuteFunctions,
	itemIndex: number,
	operation: string,
	body: IDataObject,
): Promise<IDataObject> {
	const answer = await apiRequest.call(
		context,
		'messaging',
		{ method: 'POST', path: '/messages', body },
		{ itemIndex, operation },
	);
	const response = (Array.isArray(answer) ? (answer[0] ?? {}) : answer) as IDataObject;
	// message_id and conversation_id first, then what was sent (to, message_type, ...).
	return {
		message_id: response.message_id,
		conversation_id: response.conversation_id,
		...body,
		...response,
	};
}

function templateBody(to: string, template: { id: string; parameters: string[] }): IDataObject {
	return { channel: CHANNEL, to, message_type: 'template', template: { id: template.id, parameters: template.parameters } };
}

/**
 * Sends a free-form message (text, media, location, custom). When the customer's 24-hour
 * window is closed it fails with an error that says so, or, when "Fallback Template When
 * Window Closed" is on, sends the named template instead and says so in the output.
 */
async function sendFreeForm(
	context: IExecuteFunctions,
	itemIndex: number,
	operationKey: string,
	to: string,
	payload: IDataObject,
	extraBody: IDataObject,
	extraOutput: IDataObject = {},
): Promise<IDataObject> {
	const operation = OPERATION_NAMES[operationKey];
	const body = mergeExtraBody(context, itemIndex, { channel: CHANNEL, to, ...payload }, extraBody);
	// Read (and check) the fallback before anything is sent, so a mistake in it fails early.
	const useFallback = context.getNodeParameter('fallbackToTemplate', itemIndex, false) as boolean;
	const fallback = useFallback ? readTemplate(context, itemIndex, FALLBACK_TEMPLATE_FIELDS) : undefined;
	const fallbackBody = fallback ? mergeExtraBody(context, itemIndex, templateBody(to, fallback), extraBody) : undefined;
	try {
		const sent = await postMessage(context, itemIndex, operation, body);
		return { ...sent, ...extraOutput, sent_as: body.message_type };
	} catch (error) {
		const refusal = refusalOf(error);
		if (!isWindowClosed(refusal)) throw explainSendError(context, itemIndex, operation, error);
		if (!fallback || !fallbackBody) throw windowClosedError(context, itemIndex, operation, to, refusal!);
		const fallbackOperation = `${operation} (fallback template "${fallback.id}")`;
		let sent: IDataObject;
		try {
			sent = await postMessage(context, itemIndex, fallbackOperation, fallbackBody);
		} catch (fallbackError) {
			throw explainSendError(context, itemIndex, fallbackOperation, fallbackError, fallback);
		}
		return {
			...sent,
			sent_as: 'template',
			requested_message_type: body.message_type,
			fallback_reason: `The 24-hour customer service window for ${to} is closed, so the ${String(body.message_type)} message was not sent and template "${fallback.id}" was sent instead.${refusal?.message ? ` The service said: ${refusal.message}` : ''}`,
		};
	}
}

export const messageHandlers: ResourceHandlers = {
	async sendTemplate(this: IExecuteFunctions, itemIndex: number) {
		const operation = OPERATION_NAMES.sendTemplate;
		const to = readRecipient(this, itemIndex);
		const template = readTemplate(this, itemIndex, TEMPLATE_FIELDS);
		const { body: extra } = readAdditionalFields(this, itemIndex);
		const body = mergeExtraBody(this, itemIndex, templateBody(to, template), extra);
		try {
			return { ...(await postMessage(this, itemIndex, operation, body)), sent_as: 'template' };
		} catch (error) {
			throw explainSendError(this, itemIndex, operation, error, template);
		}
	},

	async sendText(this: IExecuteFunctions, itemIndex: number) {
		const to = readRecipient(this, itemIndex);
		const text = requireString(this, 'text', itemIndex, 'Text');
		const injected = readInjectedFields(this, itemIndex);
		const { body: extra } = readAdditionalFields(this, itemIndex);
		const payload: IDataObject = { message_type: 'text', text };
		if (Object.keys(injected).length > 0) payload.injected_fields = injected;
		const unfilled = unfilledPlaceholders(text, injected);
		const report: IDataObject = { unfilled_placeholders: unfilled };
		if (unfilled.length > 0) {
			report.placeholder_note = `No injected field fills ${unfilled.map((name) => `{${name}}`).join(', ')}. A field stored on the contact may still fill it on the service side; otherwise the customer sees the placeholder as written.`;
		}
		return await sendFreeForm(this, itemIndex, 'sendText', to, payload, extra, report);
	},

	async sendMedia(this: IExecuteFunctions, itemIndex: number) {
		const to = readRecipient(this, itemIndex);
		const mediaType = this.getNodeParameter('mediaType', itemIndex) as MediaType;
		if (!MEDIA_TYPES.includes(mediaType)) {
			throw invalidInput(this, itemIndex, 'Media Type', mediaType, `expected one of ${MEDIA_TYPES.join(', ')}`);
		}
		const url = checkHttpUrl(this, itemIndex, 'Media URL', this.getNodeParameter('mediaUrl', itemIndex, ''));
		const { body: extra, media } = readAdditionalFields(this, itemIndex);
		const payload: IDataObject = { message_type: mediaType, [mediaType]: { ...media, url } };
		return await sendFreeForm(this, itemIndex, 'sendMedia', to, payload, extra);
	},

	async sendLocation(this: IExecuteFunctions, itemIndex: number) {
		const to = readRecipient(this, itemIndex);
		const latitudeValue = this.getNodeParameter('latitude', itemIndex) as unknown;
		const longitudeValue = this.getNodeParameter('longitude', itemIndex) as unknown;
		const location: IDataObject = {
			latitude: unwrap(this, itemIndex, 'Latitude', latitudeValue, checkLatitude(latitudeValue)),
			longitude: unwrap(this, itemIndex, 'Longitude', longitudeValue, checkLongitude(longitudeValue)),
		};
		const name = this.getNodeParameter('locationName', itemIndex, '') as string;
		const address = this.getNodeParameter('locationAddress', itemIndex, '') as string;
		if (name !== '') location.name = String(name);
		if (address !== '') location.address = String(address);
		const { body: extra } = readAdditionalFields(this, itemIndex);
		return await sendFreeForm(this, itemIndex, 'sendLocation', to, { message_type: 'location', location }, extra);
	},

	async sendCustom(this: IExecuteFunctions, itemIndex: number) {
		const to = readRecipient(this, itemIndex);
		const custom = readJsonObject(this, itemIndex, 'customPayload', 'Custom Payload (JSON)');
		const { body: extra } = readAdditionalFields(this, itemIndex);
		return await sendFreeForm(this, itemIndex, 'sendCustom', to, { message_type: 'custom', custom }, extra);
	},

	async getStatus(this: IExecuteFunctions, itemIndex: number) {
		const messageId = checkPathId(this, itemIndex, 'Message ID', requireString(this, 'messageId', itemIndex, 'Message ID'));
		return await apiRequest.call(
			this,
			'messaging',
			{ method: 'GET', path: `/messages/${encodePathSegment(messageId)}` },
			{ itemIndex, operation: OPERATION_NAMES.getStatus },
		);
	},
};
