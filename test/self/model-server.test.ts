/**
 * The scripted model server speaks the OpenAI chat completions format the agent tests rely on:
 * a tool call (arguments as JSON text), then a final text, in script order; and it refuses,
 * without using up the script, what would make a test pass for the wrong reason.
 */
import { startModelServer, type ModelServer } from '../support/model-server';

let model: ModelServer;

beforeAll(async () => {
	model = await startModelServer();
});

afterAll(async () => {
	await model.close();
});

const sendTool = {
	type: 'function',
	function: {
		name: 'Send_Template',
		description: 'Send a template message',
		parameters: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
	},
};

async function complete(body: object, key = model.apiKey) {
	const res = await fetch(`${model.baseUrl}/chat/completions`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
		body: JSON.stringify(body),
	});
	return { status: res.status, body: (await res.json()) as any };
}

test('answers the script in order: a tool call with its arguments as JSON text, then the final text; records what it was offered and sent', async () => {
	model.script([
		{ toolCall: { tool: 'Send_Template', arguments: { to: '+14155550123' } } },
		{ text: 'Sent.' },
	]);
	const user = { role: 'user', content: 'Tell Ada' };
	const first = await complete({ model: 'scripted-model', messages: [user], tools: [sendTool] });
	expect(first.status).toBe(200);
	expect(first.body.choices).toEqual([
		{
			index: 0,
			finish_reason: 'tool_calls',
			logprobs: null,
			message: {
				role: 'assistant',
				content: null,
				tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'Send_Template', arguments: '{"to":"+14155550123"}' } }],
			},
		},
	]);

	const toolResult = { role: 'tool', tool_call_id: 'call_1', content: '[{"message_id":"msg_1"}]' };
	const second = await complete({ model: 'scripted-model', messages: [user, first.body.choices[0].message, toolResult], tools: [sendTool] });
	expect(second.body.choices[0]).toEqual(
		expect.objectContaining({ finish_reason: 'stop', message: { role: 'assistant', content: 'Sent.' } }),
	);

	expect(model.remaining()).toBe(0);
	const requests = model.requests();
	expect(requests.map((r) => r.tools)).toEqual([[sendTool.function], [sendTool.function]]);
	expect(requests[1].messages.at(-1)).toEqual(toolResult);
});

test('refuses a wrong key, a tool the request does not offer and a request past the script, keeping the script', async () => {
	model.script([{ toolCall: { tool: 'Fast_Forward', arguments: {} } }]);
	const request = { model: 'scripted-model', messages: [{ role: 'user', content: 'Go' }], tools: [sendTool] };

	expect((await complete(request, 'wrong-key')).status).toBe(401);
	const notOffered = await complete(request);
	expect(notOffered.status).toBe(400);
	expect(notOffered.body.error.message).toBe(
		'model server: the script calls tool "Fast_Forward", but the request offers ["Send_Template"]',
	);
	expect(model.remaining()).toBe(1);

	model.script([]);
	const pastScript = await complete(request);
	expect(pastScript.status).toBe(500);
	expect(pastScript.body.error.message).toMatch(/no scripted reply left/);
});

test('streams the same replies when the request asks for a stream (older AI Agent versions do), as OpenAI streams it', async () => {
	model.script([{ toolCall: { tool: 'Send_Template', arguments: { to: '+14155550123' } } }, { text: 'Sent.' }]);
	const streamed = async () => {
		const res = await fetch(`${model.baseUrl}/chat/completions`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: `Bearer ${model.apiKey}` },
			body: JSON.stringify({ model: 'scripted-model', messages: [{ role: 'user', content: 'Go' }], tools: [sendTool], stream: true }),
		});
		expect(res.headers.get('content-type')).toBe('text/event-stream');
		const events = (await res.text()).split('\n\n').filter(Boolean).map((event) => event.replace(/^data: /, ''));
		expect(events.at(-1)).toBe('[DONE]');
		return events.slice(0, -1).map((event) => JSON.parse(event).choices[0]);
	};
	expect(await streamed()).toEqual([
		{
			index: 0,
			delta: { role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'Send_Template', arguments: '{"to":"+14155550123"}' } }] },
			finish_reason: null,
		},
		{ index: 0, delta: {}, finish_reason: 'tool_calls' },
	]);
	expect(await streamed()).toEqual([
		{ index: 0, delta: { role: 'assistant', content: 'Sent.' }, finish_reason: null },
		{ index: 0, delta: {}, finish_reason: 'stop' },
	]);
	expect(model.requests().map((request) => request.stream)).toEqual([true, true]);
});
