/**
 * n8n's AI Agent uses this package's node as a tool, in real n8n: the agent's OpenAI Chat
 * Model talks to a scripted model server (test/support/model-server.ts) that answers first with a tool
 * call and then, once it has the tool's result, with a final text. Asserted: what the model
 * was offered (tool name, description, the `$fromAI` parameters), the exact request the
 * sandbox received for the scripted arguments, the tool result the model got back, and the
 * agent's final answer.
 */
import { agentWorkflow, AGENT_NODE, fastForwardTool, fromAI, scriptedModel, type AgentToolSpec } from './agentWorkflow';
import type { ModelServer, ScriptedReply } from '../support/model-server';
import type { StoredCredential } from '../../tools/n8n/client';
import { env, n8n, sandbox } from './support';

let model: ModelServer;
let openAiCredential: StoredCredential;

beforeAll(async () => {
	({ model, credential: openAiCredential } = await scriptedModel(n8n, 'Scripted model (tests)'));
	await sandbox.reset();
});

afterAll(async () => {
	await model?.close();
});

beforeEach(async () => {
	await sandbox.clearRequests();
});

/** Imports the agent workflow, scripts the model and runs it once with `n8n execute`. */
async function runAgent(name: string, prompt: string, tool: AgentToolSpec, script: ScriptedReply[]) {
	model.script(script);
	const agentVersion = env.versions.n8n.startsWith('1.') ? 3 : 3.1;
	const id = await n8n.importWorkflow(agentWorkflow({ name, prompt, tool, openAiCredential, agentVersion }));
	const res = await n8n.executeWorkflow(id);
	if (res.code !== 0 || !res.data) {
		throw new Error(`n8n execute of "${name}" exited ${res.code}:\n${res.stdout.slice(-3000)}\n${res.stderr.slice(-2000)}`);
	}
	const runData = res.data.data?.resultData?.runData ?? res.data.resultData?.runData ?? {};
	const agentRuns: any[] = runData[AGENT_NODE] ?? [];
	return {
		status: res.data.status as string,
		/** The agent's final answer (its last run's output). */
		answer: agentRuns.at(-1)?.data?.main?.[0]?.[0]?.json?.output as string | undefined,
		/** Every run of the tool node: what it was given and what it returned. */
		toolRuns: ((runData[tool.name] ?? []) as any[]).map((run) => ({
			// n8n 1.x also records the model's call id beside the arguments
			input: run.inputOverride?.ai_tool?.[0]?.map(({ json: { toolCallId: _callId, ...args } }: any) => args),
			output: run.data?.ai_tool?.[0]?.map((item: any) => item.json),
			error: run.error?.message as string | undefined,
		})),
	};
}

/** The tool result the model was sent back for its n-th tool call, parsed. */
function toolResultSentToModel(callNumber: number): unknown {
	const messages = model.requests().flatMap((r) => r.messages);
	const result = messages.find((m) => m.role === 'tool' && m.tool_call_id === `call_${callNumber}`);
	if (!result) throw new Error(`the model never received the result of call_${callNumber}`);
	return JSON.parse(String(result.content));
}

/** The /v1 requests the sandbox received: method, path, body and the status it answered. */
async function serviceRequests() {
	const all = await sandbox.requests();
	return all
		.filter((r) => r.path.startsWith('/v1/'))
		.map((r) => ({ method: r.method, path: r.path, body: r.body, status: r.responseStatus }));
}

describe('the node as a tool of n8n\'s AI Agent', () => {
	test('Message → Send Template: the model picks recipient, template and its parameters as an array; the sandbox receives exactly those, in order; the agent answers', async () => {
		const tool: AgentToolSpec = {
			name: 'Send Event Alert',
			credential: env.credentials.messaging,
			parameters: {
				resource: 'message',
				operation: 'sendTemplate',
				to: fromAI('to', 'The customer phone number in E.164 form, such as +14155550123', 'string'),
				templateId: fromAI('template_id', 'The ID of an approved template, such as event_alert', 'string'),
				parametersInput: 'array',
				templateParametersArray: fromAI(
					'parameters',
					'The values of the template placeholders as an array of strings, in placeholder order',
					'json',
				),
			},
		};
		const call = {
			to: '+14155550123',
			template_id: 'event_alert',
			parameters: ['Alexandria, Egypt', '2030-05-01T10:00:00Z', 'The lighthouse of Pharos is lit'],
		};
		const finalText = 'I sent Ada the event_alert template about the lighthouse.';

		const run = await runAgent(
			'Agent: send an event alert (e2e)',
			'Tell Ada (+14155550123) with the event_alert template that the lighthouse of Pharos is lit in Alexandria, Egypt on 2030-05-01T10:00:00Z.',
			tool,
			[{ toolCall: { tool: 'Send_Event_Alert', arguments: call } }, { text: finalText }],
		);

		// What the model was offered: the tool, its description and the $fromAI parameters.
		const [first, second] = model.requests();
		expect(model.requests()).toHaveLength(2);
		expect(first.tools).toHaveLength(1);
		expect(first.tools[0]).toEqual(
			expect.objectContaining({
				name: 'Send_Event_Alert',
				description: 'Send a template message in Timeline Navigation & Chat-App Messaging',
			}),
		);
		expect(first.tools[0].parameters?.required?.sort()).toEqual(['parameters', 'template_id', 'to']);
		expect(first.tools[0].parameters?.properties?.to).toEqual({
			type: 'string',
			description: 'The customer phone number in E.164 form, such as +14155550123',
		});
		expect(first.tools[0].parameters?.properties?.template_id?.description).toBe(
			'The ID of an approved template, such as event_alert',
		);
		// n8n offers a 'json' $fromAI parameter without a type: its description is all the model reads.
		expect(first.tools[0].parameters?.properties?.parameters?.description).toBe(
			'The values of the template placeholders as an array of strings, in placeholder order',
		);

		// Exactly one send, with exactly the scripted recipient, template and parameter order.
		expect(await serviceRequests()).toEqual([
			{
				method: 'POST',
				path: '/v1/messages',
				body: {
					channel: 'chatapp',
					to: call.to,
					message_type: 'template',
					template: { id: call.template_id, parameters: call.parameters },
				},
				status: 200,
			},
		]);

		// The tool ran once with the model's arguments; its result went back to the model.
		expect(run.toolRuns).toHaveLength(1);
		expect(run.toolRuns[0].input).toEqual([call]);
		const [result] = run.toolRuns[0].output;
		expect(result.message_id).toMatch(/^msg_/);
		expect(toolResultSentToModel(1)).toEqual(run.toolRuns[0].output);
		expect(second.messages.at(-1)).toEqual(expect.objectContaining({ role: 'tool', tool_call_id: 'call_1' }));
		// what Ada reads
		expect((await sandbox.message(result.message_id)).text).toContain('The lighthouse of Pharos is lit');

		expect(run.status).toBe('success');
		expect(run.answer).toBe(finalText);
		expect(model.remaining()).toBe(0);
	});

	test('Time → Fast-Forward: amount (a number) and unit from the model become the service duration; the agent answers with the new time', async () => {
		const tool = fastForwardTool(env.credentials.timeline);
		const finalText = 'Time moved forward by 90 minutes.';

		const run = await runAgent(
			'Agent: fast-forward (e2e)',
			'Move time forward by an hour and a half.',
			tool,
			[{ toolCall: { tool: 'Fast_Forward', arguments: { amount: 90, unit: 'minutes' } } }, { text: finalText }],
		);

		const [first] = model.requests();
		expect(first.tools.map((t) => [t.name, t.description])).toEqual([
			['Fast_Forward', 'Fast forward time in Timeline Navigation & Chat-App Messaging'],
		]);
		expect(first.tools[0].parameters?.properties).toEqual({
			amount: { type: 'number', description: 'How many units of time to move forward, a whole number' },
			unit: { type: 'string', description: 'The unit of the amount: minutes, hours or days' },
		});

		expect(await serviceRequests()).toEqual([
			{ method: 'POST', path: '/v1/fast-forward', body: { duration: '90m' }, status: 200 },
		]);

		expect(run.toolRuns.map((r) => r.input)).toEqual([[{ amount: 90, unit: 'minutes' }]]);
		const [result] = run.toolRuns[0].output;
		expect(result).toEqual({ status: 'Fast-forwarded 90m.', new_time: expect.any(String) });
		expect(toolResultSentToModel(1)).toEqual([result]);

		expect(run.status).toBe('success');
		expect(run.answer).toBe(finalText);
		expect(model.remaining()).toBe(0);
	});

	if (env.versions.n8n.startsWith('1.')) {
		// Measured on n8n 1.123 (AI Agent 3): a tool's error is not handed back to the model; it
		// ends the execution, still naming Unit and the value, and nothing is sent.
		test(`on n8n ${env.versions.n8n}, a wrong unit from the model ends the execution with an error naming Unit and its value; nothing is sent`, async () => {
			const run = runAgent('Agent: fast-forward, wrong unit (e2e)', 'Move time forward by two weeks.', fastForwardTool(env.credentials.timeline), [
				{ toolCall: { tool: 'Fast_Forward', arguments: { amount: 2, unit: 'weeks' } } },
				{ text: 'unused' },
			]);
			await expect(run).rejects.toThrow('Invalid Unit in item 0: got "weeks", expected the unit minutes, hours or days');
			expect(await serviceRequests()).toEqual([]);
		});
		return;
	}

	test('a wrong unit from the model comes back to it as an error naming Unit and its value, nothing is sent; its corrected call (the amount as text) goes through', async () => {
		const finalText = 'Time moved forward by two weeks (14 days).';
		const run = await runAgent('Agent: fast-forward, corrected (e2e)', 'Move time forward by two weeks.', fastForwardTool(env.credentials.timeline), [
			{ toolCall: { tool: 'Fast_Forward', arguments: { amount: 2, unit: 'weeks' } } },
			// models sometimes give numbers as text
			{ toolCall: { tool: 'Fast_Forward', arguments: { amount: '14', unit: 'days' } } },
			{ text: finalText },
		]);

		// The first call failed inside the tool: the model read why, in the tool result.
		expect(run.toolRuns).toHaveLength(2);
		expect(run.toolRuns[0].error).toBe('Invalid Unit in item 0: got "weeks", expected the unit minutes, hours or days');
		expect(toolResultSentToModel(1)).toEqual([{ error: run.toolRuns[0].error }]);

		// Only the corrected call reached the service.
		expect(await serviceRequests()).toEqual([
			{ method: 'POST', path: '/v1/fast-forward', body: { duration: '14d' }, status: 200 },
		]);
		expect(toolResultSentToModel(2)).toEqual([{ status: 'Fast-forwarded 14d.', new_time: expect.any(String) }]);

		expect(run.status).toBe('success');
		expect(run.answer).toBe(finalText);
		expect(model.remaining()).toBe(0);
	});
});
