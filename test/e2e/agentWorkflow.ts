/**
 * A workflow in which n8n's AI Agent uses this package's node as a tool: Manual Trigger →
 * AI Agent, with an OpenAI Chat Model (its credential's Base URL pointed at the scripted model
 * server of test/support/model-server.ts) and one node of this package in tool form, whose fields are
 * filled by the model through `$fromAI(...)`. Run it with `n8n execute`.
 */
import { randomUUID } from 'node:crypto';

import { SCRIPTED_MODEL, startModelServer, type ModelServer } from '../support/model-server';
import type { N8nClient, StoredCredential, WorkflowJson } from '../../tools/n8n/client';
import { NODE_TYPES } from '../../tools/n8n/communityPackage';

/** The action node as n8n offers it to an AI Agent (`usableAsTool` adds the `Tool` type). */
export const TOOL_NODE_TYPE = `${NODE_TYPES.action}Tool`;
/** Its Send and Wait operation as n8n 2.x offers it for human review of another tool's call. */
export const HUMAN_REVIEW_NODE_TYPE = `${NODE_TYPES.action}HitlTool`;
export const AGENT_NODE = 'AI Agent';
export const AGENT_NODE_TYPE = '@n8n/n8n-nodes-langchain.agent';
export const CHAT_MODEL_NODE_TYPE = '@n8n/n8n-nodes-langchain.lmChatOpenAi';

export interface AgentToolSpec {
	/** The node's name: n8n derives the tool name from it (`Send Event Alert` → `Send_Event_Alert`). */
	name: string;
	/** The node's parameters (resource, operation, fields with `$fromAI(...)`). */
	parameters: Record<string, unknown>;
	/** The package credential the operation needs. */
	credential: StoredCredential;
}

/** `{{ $fromAI(key, description, type) }}` as the expression of a field. */
export function fromAI(key: string, description: string, type: 'string' | 'number' | 'boolean' | 'json'): string {
	if (/[{}'\\]/.test(description)) throw new Error(`keep braces, quotes and backslashes out of $fromAI descriptions: ${description}`);
	return `={{ $fromAI('${key}', '${description}', '${type}') }}`;
}

export function agentWorkflow(options: {
	name: string;
	prompt: string;
	tool: AgentToolSpec;
	openAiCredential: StoredCredential;
	/** The AI Agent's node version: 3.1 in n8n 2.41; n8n 1.123 bundles versions up to 3. */
	agentVersion?: number;
	/** The OpenAI Chat Model's node version (default 1.3; before 1.2 it takes the model by name, before 1.3 it has no Responses API). */
	modelVersion?: number;
	/** The tool's node type (default the combined package's action node as a tool). */
	toolType?: string;
	/** A human-review node between the tool and the agent: the tool runs only once a person approves. */
	review?: AgentToolSpec;
	/** Start with a Webhook on this path (a waiting execution needs a saved, published workflow) instead of Manual Trigger. */
	webhookPath?: string;
}): WorkflowJson {
	const { tool } = options;
	const node = (name: string, type: string, typeVersion: number, position: [number, number], rest: object) => ({
		id: randomUUID(),
		name,
		type,
		typeVersion,
		position,
		...rest,
	});
	const ref = (c: StoredCredential) => ({ [c.type]: { id: c.id, name: c.name } });
	const { review, webhookPath } = options;
	const modelVersion = options.modelVersion ?? 1.3;
	const start = webhookPath
		? node('Start', 'n8n-nodes-base.webhook', 2.1, [0, 0], { parameters: { httpMethod: 'POST', path: webhookPath, options: {} }, webhookId: randomUUID() })
		: node('Start', 'n8n-nodes-base.manualTrigger', 1, [0, 0], { parameters: {} });
	const toAgent = [{ node: AGENT_NODE, type: 'ai_tool', index: 0 }];
	return {
		name: options.name,
		nodes: [
			start,
			node(AGENT_NODE, AGENT_NODE_TYPE, options.agentVersion ?? 3.1, [240, 0], {
				parameters: { promptType: 'define', text: options.prompt, options: {} },
			}),
			node('Chat Model', CHAT_MODEL_NODE_TYPE, modelVersion, [160, 240], {
				// Chat Completions (POST /v1/chat/completions), which OpenAI-compatible servers share.
				parameters: {
					model: modelVersion >= 1.2 ? { __rl: true, mode: 'id', value: SCRIPTED_MODEL } : SCRIPTED_MODEL,
					...(modelVersion >= 1.3 && { responsesApiEnabled: false }),
					options: {},
				},
				credentials: ref(options.openAiCredential),
			}),
			node(tool.name, options.toolType ?? TOOL_NODE_TYPE, 1, [400, 240], {
				parameters: tool.parameters,
				credentials: ref(tool.credential),
			}),
			...(review
				? [node(review.name, HUMAN_REVIEW_NODE_TYPE, 1, [400, 120], { parameters: review.parameters, credentials: ref(review.credential) })]
				: []),
		],
		connections: {
			Start: { main: [[{ node: AGENT_NODE, type: 'main', index: 0 }]] },
			'Chat Model': { ai_languageModel: [[{ node: AGENT_NODE, type: 'ai_languageModel', index: 0 }]] },
			...(review
				? { [tool.name]: { ai_tool: [[{ node: review.name, type: 'ai_tool', index: 0 }]] }, [review.name]: { ai_tool: [toAgent] } }
				: { [tool.name]: { ai_tool: [toAgent] } }),
		},
		settings: { executionOrder: 'v1' },
	};
}

/** A scripted model server, and the OpenAI credential pointing at it imported into n8n under `name`. */
export async function scriptedModel(n8n: N8nClient, name: string): Promise<{ model: ModelServer; credential: StoredCredential }> {
	const model = await startModelServer();
	const [credential] = await n8n.importCredentials([{ name, type: 'openAiApi', data: { apiKey: model.apiKey, url: model.baseUrl } }]);
	return { model, credential };
}

/** Time → Fast-Forward as a tool, with Amount and Unit left to the model. */
export function fastForwardTool(credential: StoredCredential): AgentToolSpec {
	return {
		name: 'Fast Forward',
		credential,
		parameters: {
			resource: 'time',
			operation: 'fastForward',
			durationAmount: fromAI('amount', 'How many units of time to move forward, a whole number', 'number'),
			durationUnit: fromAI('unit', 'The unit of the amount: minutes, hours or days', 'string'),
		},
	};
}
