/**
 * n8n 2.41 derives a human-review tool (`…HitlTool`) from every node type with waiting webhooks
 * and a `sendAndWait` operation, community packages included: here the package's Send and Wait
 * reviews an AI Agent's call of the package's Time → Fast-Forward tool. The scripted model asks
 * for the tool; the person gets the question over chat (the sandbox) and answers through the
 * link; the timeline action happens only on approval, and the agent then answers.
 */
import { randomUUID } from 'node:crypto';
import type { ModelServer } from '../support/model-server';
import { agentWorkflow, fastForwardTool, HUMAN_REVIEW_NODE_TYPE, scriptedModel } from './agentWorkflow';
import { fetchOnOpenConnection, type StoredCredential } from '../../tools/n8n/client';
import { postAnswer } from '../support/sendAndWaitWorkflow';
import { env, executionsWithWaiting, n8n, postToWebhook, sandbox, waitForExecutionsWhere } from './support';

const MANAGER = '+14155550199';
let model: ModelServer;
let openAiCredential: StoredCredential;
const published: string[] = [];

beforeAll(async () => {
	({ model, credential: openAiCredential } = await scriptedModel(n8n, 'Scripted model (human review tests)'));
	await sandbox.reset();
});

afterAll(async () => {
	for (const id of published) await n8n.deactivate(id);
	await model?.close();
});

beforeEach(async () => {
	await sandbox.inbound(MANAGER, 'Hi');
	await sandbox.clearRequests();
});

/** Publishes the agent workflow (Webhook → AI Agent, Fast Forward reviewed by a person), starts it, and returns the waiting execution and the question. */
async function startReviewedAgent(finalText: string) {
	// A reviewed tool takes the tool's own arguments under toolParameters (n8n's human-review layer).
	model.script([
		{ toolCall: { tool: 'Fast_Forward', arguments: { toolParameters: { amount: 2, unit: 'hours' }, hitlParameters: {} } } },
		{ text: finalText },
	]);
	const path = `e2e-agent-review-${randomUUID()}`;
	const id = await n8n.importWorkflow(
		agentWorkflow({
			name: `Agent with human review (${path})`,
			prompt: 'Move time forward by two hours.',
			openAiCredential,
			webhookPath: path,
			tool: fastForwardTool(env.credentials.timeline),
			review: {
				name: 'Ask the Manager',
				credential: env.credentials.messaging,
				parameters: {
					to: MANAGER,
					// $tool: the reviewed tool's name and the model's arguments for it.
					message: '={{ $tool.name }}: the agent wants to move time forward by {{ $tool.parameters.amount }} {{ $tool.parameters.unit }}. Allow it?',
					approvalOptions: { values: { approvalType: 'double' } },
				},
			},
		}),
	);
	await n8n.activate(id);
	published.push(id);
	expect((await postToWebhook(path, {})).status).toBe(200);
	const [execution] = await waitForExecutionsWhere(id, 'a waiting execution', (list) => list[0]?.status === 'waiting', 60000, executionsWithWaiting);
	const sent = (await sandbox.messages({ phone: MANAGER })).filter((m) => m.direction === 'outbound').at(-1)!;
	return { id, executionId: String(execution.id), question: sent.text ?? '', link: sent.links![0] };
}

const timelineRequests = async () => (await sandbox.requests()).filter((r) => r.path === '/v1/fast-forward');

async function endOf(id: string, executionId: string) {
	const list = await waitForExecutionsWhere(
		id,
		`the end of execution ${executionId}`,
		(all) => ['success', 'error'].includes(all.find((e) => String(e.id) === executionId)?.status),
		60000,
		executionsWithWaiting,
	);
	return list.find((e) => String(e.id) === executionId);
}

test('n8n offers the package\'s Send and Wait as a human-review tool', async () => {
	const res = await fetchOnOpenConnection(`${n8n.url}/types/nodes.json`, { headers: { cookie: n8n.cookie, 'browser-id': n8n.browserId } });
	const review = ((await res.json()) as any[]).find((type) => type.name === HUMAN_REVIEW_NODE_TYPE);
	expect(review).toEqual(expect.objectContaining({ subtitle: 'Send and wait', description: 'Request human approval for tools' }));
	expect(review.properties.find((p: any) => p.name === 'operation')).toEqual(expect.objectContaining({ type: 'hidden', default: 'sendAndWait' }));
});

test('the agent asks the manager over chat before the timeline action, and acts on approval', async () => {
	const { id, executionId, question, link } = await startReviewedAgent('Time moved forward by two hours, approved by the manager.');

	// What the model was offered: the tool, its arguments wrapped by the review layer.
	const [offered] = model.requests()[0].tools;
	expect(offered.name).toBe('Fast_Forward');
	expect(Object.keys(offered.parameters?.properties ?? {})).toEqual(['toolParameters', 'hitlParameters']);
	// The model asked for the tool; the person is asked first, nothing has moved yet.
	expect(question).toBe(`Fast_Forward: the agent wants to move time forward by 2 hours. Allow it?\n\nApprove or Decline: ${link}`);
	expect(await timelineRequests()).toEqual([]);

	const page = await fetchOnOpenConnection(link);
	expect(await page.text()).toContain('Fast_Forward: the agent wants to move time forward by 2 hours. Allow it?');
	expect(await timelineRequests()).toEqual([]);
	expect((await postAnswer(link, { answer: 'approve' })).status).toBe(200);

	const execution = await endOf(id, executionId);
	expect(execution.status).toBe('success');
	expect((await timelineRequests()).map((r) => r.body)).toEqual([{ duration: '2h' }]);
	const agentRuns = execution.data.resultData.runData['AI Agent'];
	expect(agentRuns.at(-1).data.main[0][0].json.output).toBe('Time moved forward by two hours, approved by the manager.');
	expect(model.remaining()).toBe(0);
});

test('declined, the timeline action never happens and the model is told so', async () => {
	const { id, executionId, link } = await startReviewedAgent('The manager declined; time was not moved.');

	expect((await postAnswer(link, { answer: 'decline' })).status).toBe(200);
	const execution = await endOf(id, executionId);
	expect(execution.status).toBe('success');
	expect(await timelineRequests()).toEqual([]);
	const toolMessage = model.requests().at(-1)!.messages.find((m) => m.role === 'tool');
	expect(String(toolMessage?.content)).toContain('User rejected the tool call to Fast Forward');
	expect(execution.data.resultData.runData['AI Agent'].at(-1).data.main[0][0].json.output).toBe('The manager declined; time was not moved.');
});
