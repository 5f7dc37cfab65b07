/**
 * A scripted, OpenAI-compatible chat model for tests: n8n's OpenAI Chat Model node (with its
 * credential's Base URL pointed here) talks to it instead of a real model. Each answer is
 * taken from a script the test sets, and every request is recorded, so a test can read
 * exactly what the model was offered (the tools, their descriptions and parameters) and
 * what it was sent back (the tool's result).
 *
 *   const model = await startModelServer();
 *   model.script([{ toolCall: { tool: 'Send_Template', arguments: { to: '+1...' } } }, { text: 'Done.' }]);
 *   // credential: { apiKey: model.apiKey, url: model.baseUrl }
 *   await model.close();
 *
 * Only `POST /v1/chat/completions` is served (what ChatOpenAI calls when the node's
 * "Use Responses API" is off), on 127.0.0.1; a request that asks for a stream gets the same
 * reply as OpenAI's stream chunks.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { parseJson, readBody, sendJson } from '../../tools/sandbox/http';

export const MODEL_SERVER_KEY = 'model-server-test-key';
export const SCRIPTED_MODEL = 'scripted-model';

/** One scripted answer: call a tool the request offers, or answer with text. */
export type ScriptedReply = { toolCall: { tool: string; arguments: Record<string, unknown> } } | { text: string };

/** A function the model was offered, as OpenAI's chat completions API describes it. */
export interface OfferedTool {
	name: string;
	description?: string;
	parameters?: {
		type: string;
		properties?: Record<string, { type?: string; description?: string; [k: string]: unknown }>;
		required?: string[];
		[k: string]: unknown;
	};
}

/** A chat message as the OpenAI API carries it (only the fields the tests read). */
export interface ChatMessage {
	role: string;
	content?: unknown;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
	tool_call_id?: string;
}

export interface ModelRequest {
	model: string;
	messages: ChatMessage[];
	tools: OfferedTool[];
	stream: boolean;
	/** The reply the server gave (undefined when it refused the request). */
	answeredWith?: ScriptedReply;
}

export interface ModelServer {
	/** `http://127.0.0.1:PORT/v1`: the OpenAI credential's Base URL. */
	baseUrl: string;
	apiKey: string;
	/** Replaces the script and forgets earlier requests; tool call ids start again at `call_1`. */
	script(replies: ScriptedReply[]): void;
	/** Every chat completion request received since the last `script()`, in order. */
	requests(): ModelRequest[];
	/** Scripted replies not yet given. */
	remaining(): number;
	close(): Promise<void>;
}

interface ChatCompletionBody {
	model?: unknown;
	messages?: unknown;
	tools?: Array<{ type?: string; function?: OfferedTool }>;
	stream?: unknown;
}

/** The error shape of the OpenAI API, so the client shows the message. */
function refuse(res: http.ServerResponse, status: number, message: string): void {
	sendJson(res, status, { error: { message: `model server: ${message}`, type: 'invalid_request_error' } });
}

export async function startModelServer(options: { port?: number; apiKey?: string } = {}): Promise<ModelServer> {
	const apiKey = options.apiKey ?? MODEL_SERVER_KEY;
	let queue: ScriptedReply[] = [];
	let received: ModelRequest[] = [];
	let callCount = 0;

	const answer = (res: http.ServerResponse, body: ChatCompletionBody): void => {
		const request: ModelRequest = {
			model: String(body.model ?? ''),
			messages: Array.isArray(body.messages) ? (body.messages as ChatMessage[]) : [],
			tools: (body.tools ?? []).flatMap((t) => (t.function ? [t.function] : [])),
			stream: body.stream === true,
		};
		received.push(request);
		const reply = queue[0];
		if (!reply) return refuse(res, 500, `no scripted reply left for request ${received.length}`);
		if ('toolCall' in reply) {
			const offered = request.tools.map((t) => t.name);
			if (!offered.includes(reply.toolCall.tool)) {
				return refuse(res, 400, `the script calls tool "${reply.toolCall.tool}", but the request offers ${JSON.stringify(offered)}`);
			}
		}
		queue.shift();
		request.answeredWith = reply;
		callCount++;
		const message: { role: string; content: string | null; tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }> } =
			'toolCall' in reply
				? {
						role: 'assistant',
						content: null,
						tool_calls: [
							{
								id: `call_${callCount}`,
								type: 'function',
								function: { name: reply.toolCall.tool, arguments: JSON.stringify(reply.toolCall.arguments) },
							},
						],
					}
				: { role: 'assistant', content: reply.text };
		const head = { id: `chatcmpl-${callCount}`, created: Math.floor(Date.now() / 1000), model: request.model };
		const finishReason = 'toolCall' in reply ? 'tool_calls' : 'stop';
		if (request.stream) {
			// As OpenAI streams (older AI Agent versions ask so): the message as one delta, then its end.
			const delta = { ...message, tool_calls: message.tool_calls?.map((call, index) => ({ index, ...call })) };
			const chunks = [
				{ ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] },
				{ ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: finishReason }] },
			];
			res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
			res.end(`${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`);
			return;
		}
		sendJson(res, 200, {
			...head,
			object: 'chat.completion',
			choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
			usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
		});
	};

	const server = http.createServer(async (req, res) => {
		try {
			const { text } = await readBody(req);
			if (req.headers.authorization !== `Bearer ${apiKey}`) return refuse(res, 401, 'wrong or missing API key');
			if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/chat/completions') {
				return refuse(res, 404, `${req.method} ${req.url} is not served (only POST /v1/chat/completions)`);
			}
			const parsed = parseJson(text);
			if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) {
				return refuse(res, 400, 'the body is not a JSON object');
			}
			answer(res, parsed.value as ChatCompletionBody);
		} catch (err) {
			refuse(res, 500, String(err));
		}
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
	});
	const { port } = server.address() as AddressInfo;

	return {
		baseUrl: `http://127.0.0.1:${port}/v1`,
		apiKey,
		script(replies) {
			queue = [...replies];
			received = [];
			callCount = 0;
		},
		requests: () => received,
		remaining: () => queue.length,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
