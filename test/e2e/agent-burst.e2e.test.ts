/**
 * Example 07 in real n8n: n8n's AI Agent answers a customer's burst of messages once. The inbox
 * trigger gathers the burst (Messages in Quick Succession → Gather Into One Run, the example's
 * Quiet Time of 5 s), the agent's OpenAI Chat Model talks to the scripted model server of
 * test/support/model-server.ts, and Send Text answers. Asserted where it lands: three messages
 * within 4 s start one run, the model is asked once with all three, and the customer's phone
 * (the sandbox) shows one answer, the model's.
 */
import { NODE_TYPES } from '../../tools/n8n/communityPackage';
import { wireCredentials } from '../../tools/n8n/client';
import { EXAMPLE_DATA, EXAMPLE_FILES, readExample, seedExampleData } from '../../tools/n8n/examples';
import { webhookHeadersFor } from '../../tools/n8n/sandboxCredentials';
import { webhookUrlsOf } from '../../tools/n8n/webhooks';
import { waitFor } from '../../tools/shared/wait';
import { SCRIPTED_MODEL, type ModelServer } from '../support/model-server';
import { scriptedModel } from './agentWorkflow';
import { creds, n8n, sandbox, settledCount } from './support';

jest.setTimeout(300_000);

const ADA = EXAMPLE_DATA.contacts[0].phone;
const ANSWER = 'Your order #1042 left our warehouse on Tuesday and arrives tomorrow.';
let model: ModelServer;
let workflowId: string;

beforeAll(async () => {
	await sandbox.reset();
	await seedExampleData(sandbox);
	const scripted = await scriptedModel(n8n, 'Scripted model (example 07)');
	model = scripted.model;
	const example = readExample(EXAMPLE_FILES.agentBurstReply);
	const chatModel = example.nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.lmChatOpenAi')!;
	chatModel.parameters = { ...chatModel.parameters, model: { __rl: true, mode: 'id', value: SCRIPTED_MODEL } };
	workflowId = await n8n.importWorkflow(wireCredentials(example, [...creds, scripted.credential]));
	await n8n.activate(workflowId);
	const url = (await webhookUrlsOf(n8n, workflowId)).find((u) => u.nodeType === NODE_TYPES.trigger)!.url;
	await sandbox.setWebhook(url, webhookHeadersFor(example));
});

afterAll(async () => {
	await sandbox.setWebhook(null);
	await n8n.deactivate(workflowId);
	await model?.close();
});

test('three messages within 4 s: one run, the model asked once with all three, one answer on the phone', async () => {
	model.script([{ text: ANSWER }]);
	const texts = ['hi', 'I ordered on Monday', 'where is it?'];
	for (const text of texts) {
		await sandbox.inbound(ADA, text);
		await new Promise((resolve) => setTimeout(resolve, 1500));
	}
	expect((await sandbox.flushWebhooks()).filter((d) => d.eventType === 'message.inbound').map((d) => d.status)).toEqual([200, 200, 200]);
	await waitFor('the answer on the phone', async () => (await sandbox.messages({ phone: ADA })).some((m) => m.direction === 'outbound'), { timeoutMs: 60_000, intervalMs: 500 }).catch(async (error: Error) => {
		const runs = await Promise.all((await n8n.executions(workflowId)).map(async (e: { id: string }) => (await n8n.api('GET', `/executions/${e.id}?includeData=true`)).body));
		throw new Error(`${error.message}; the workflow's runs: ${JSON.stringify(runs.map((run) => ({ status: run.status, error: run.data?.resultData?.error?.message, nodes: Object.keys(run.data?.resultData?.runData ?? {}), trigger: run.data?.resultData?.runData?.['On a Burst of Messages']?.[0]?.data?.main?.[0]?.[0]?.json, agent: run.data?.resultData?.runData?.['AI Agent']?.[0]?.data?.main?.[0]?.[0]?.json })))}; the model's requests: ${model.requests().length}`);
	});
	expect(await settledCount(workflowId, 5000)).toBe(1);

	expect(model.requests()).toHaveLength(1);
	const asked = JSON.stringify(model.requests()[0].messages);
	for (const text of texts) expect(asked).toContain(text);
	expect((await sandbox.messages({ phone: ADA })).filter((m) => m.direction === 'outbound').map((m) => m.text)).toEqual([ANSWER]);
	const [execution] = await n8n.executions(workflowId);
	expect(execution.status).toBe('success');
});
