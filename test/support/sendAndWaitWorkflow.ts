/**
 * The workflow the real-n8n Send and Wait tests publish: Webhook (POST) → Ask (Message → Send
 * and Wait for Response) → After (No Operation), and the answer as a browser posts the page's form.
 */
import { randomUUID } from 'node:crypto';
import { fetchOnOpenConnection, type StoredCredential, type WorkflowJson } from '../../tools/n8n/client';
import { NODE_TYPES } from '../../tools/n8n/communityPackage';
import { workflowNode } from './workflowNode';

export function sendAndWaitWorkflow(o: {
	name: string;
	/** The Webhook trigger's path (after /webhook/). */
	path: string;
	to: string;
	messaging: StoredCredential;
	/** The Ask node's parameters besides resource, operation and To. */
	ask: Record<string, unknown>;
	/** The action node type asking (default the combined package's). */
	actionType?: string;
}): WorkflowJson {
	const node = workflowNode;
	return {
		name: o.name,
		nodes: [
			node('Webhook', 'n8n-nodes-base.webhook', 2.1, 0, { httpMethod: 'POST', path: o.path, options: {} }, { webhookId: randomUUID() }),
			node(
				'Ask',
				o.actionType ?? NODE_TYPES.action,
				1,
				220,
				{ resource: 'message', operation: 'sendAndWait', to: o.to, ...o.ask },
				{ credentials: { [o.messaging.type]: { id: o.messaging.id, name: o.messaging.name } } },
			),
			node('After', 'n8n-nodes-base.noOp', 1, 440, {}),
		],
		connections: {
			Webhook: { main: [[{ node: 'Ask', type: 'main', index: 0 }]] },
			Ask: { main: [[{ node: 'After', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** Posts the answer as the page's form does (multipart/form-data). */
export async function postAnswer(link: string, fields: Record<string, string>): Promise<Response> {
	const form = new FormData();
	for (const [name, value] of Object.entries(fields)) form.append(name, value);
	return await fetchOnOpenConnection(link, { method: 'POST', body: form });
}
