// Posting one message: every send is POST /messages on the chat-app channel.
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import type { ItemCall } from '../actions/types';
import { apiRequest } from '../transport/request';

export const CHANNEL = 'chatapp';

/** A template message: the ID and its parameters in placeholder order. */
export interface TemplateChoice {
	id: string;
	parameters: string[];
}

export function templateBody(to: string, template: TemplateChoice): IDataObject {
	return { channel: CHANNEL, to, message_type: 'template', template: { id: template.id, parameters: template.parameters } };
}

/**
 * Sends the body and returns the service's answer with what was sent: `message_id` and
 * `conversation_id` first, then the fields sent (to, message_type, ...), so the next node has both.
 */
export async function postMessage(context: IExecuteFunctions, item: ItemCall, body: IDataObject): Promise<IDataObject> {
	const answer = await apiRequest.call(context, item, { method: 'POST', path: '/messages', body });
	const response = (Array.isArray(answer) ? (answer[0] ?? {}) : answer) as IDataObject;
	return {
		message_id: response.message_id,
		conversation_id: response.conversation_id,
		...body,
		...response,
	};
}
