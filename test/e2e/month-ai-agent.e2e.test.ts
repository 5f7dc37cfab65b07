/**
 * A month of example 07 (an AI agent that answers a burst of messages once) in minutes, in a real
 * n8n of this file's own (its user folder kept across a restart): the example published with the
 * agent's OpenAI Chat Model on the scripted model server (test/support/model-server.ts), the
 * sandbox posting its webhooks over thirty sandbox days: known customers and unknown numbers
 * writing bursts of one to three messages, a question the agent answers with the package's
 * Message → Get Status as its tool, and n8n restarted one second after the second message of a
 * burst. Asserted where it lands: each burst is one run and one answer on the customer's phone,
 * the model asked once per burst with all its messages, nothing answered twice.
 */
import { NODE_TYPES } from '../../tools/n8n/communityPackage';
import { wireCredentials, type StoredCredential } from '../../tools/n8n/client';
import { settledExecutions } from '../../tools/n8n/database';
import { EXAMPLE_DATA, EXAMPLE_FILES, readExample, seedExampleData } from '../../tools/n8n/examples';
import { sandboxCredentials, webhookHeadersFor } from '../../tools/n8n/sandboxCredentials';
import { webhookUrlsOf } from '../../tools/n8n/webhooks';
import { waitFor } from '../../tools/shared/wait';
import { SCRIPTED_MODEL, startModelServer, type ModelServer } from '../support/model-server';
import { e2eRuntime } from './environment';
import { useOwnN8n } from './ownN8n';
import { env, sandbox } from './support';

jest.setTimeout(1_200_000);

const DAY = 24 * 3600_000;
/** The trigger's Quiet Time here (the example's is 5 s), for a shorter month. */
const QUIET_SECONDS = 2;
const runtime = e2eRuntime();
const [ADA, GRACE] = EXAMPLE_DATA.contacts.map((contact) => contact.phone);
const STRANGERS = ['+15550001111', '+447700900123', '+61400000777'];

const own = useOwnN8n('month-ai-agent');
let model: ModelServer;
let workflowId = '';
const lines: string[] = [];

beforeAll(async () => {
	const n8n = own.n8n;
	await sandbox.reset();
	await seedExampleData(sandbox);
	model = await startModelServer();
	const creds: StoredCredential[] = await n8n.importCredentials([
		...sandboxCredentials(env.sandbox),
		{ name: 'Scripted model (a month)', type: 'openAiApi', data: { apiKey: model.apiKey, url: model.baseUrl } },
	]);
	const example = readExample(EXAMPLE_FILES.agentBurstReply);
	for (const node of example.nodes) {
		if (node.type === NODE_TYPES.trigger) node.parameters = { ...node.parameters, quietSeconds: QUIET_SECONDS };
		if (node.type === '@n8n/n8n-nodes-langchain.lmChatOpenAi') node.parameters = { ...node.parameters, model: { __rl: true, mode: 'id', value: SCRIPTED_MODEL } };
	}
	workflowId = await n8n.importWorkflow(wireCredentials(example, creds));
	await n8n.activate(workflowId);
	const url = (await webhookUrlsOf(n8n, workflowId)).find((u) => u.nodeType === NODE_TYPES.trigger)!.url;
	await sandbox.setWebhook(url, webhookHeadersFor(example));
}, 300_000);

afterAll(async () => {
	await sandbox.setWebhook(null);
	await model?.close();
	console.log(`example 07, a month:\n  ${lines.join('\n  ')}`);
}, 120_000);

/** The answers a number has received, oldest first. */
async function answers(phone: string): Promise<string[]> {
	return (await sandbox.messages({ phone })).filter((m) => m.direction === 'outbound').map((m) => m.text ?? '');
}

/** The customer writes a burst (a second apart); each message is answered 200 by the trigger. */
async function writes(phone: string, texts: string[]): Promise<void> {
	for (const [i, text] of texts.entries()) {
		if (i > 0) await new Promise((resolve) => setTimeout(resolve, 1000));
		await sandbox.inbound(phone, text);
	}
	const delivered = (await sandbox.flushWebhooks()).filter((d) => d.eventType === 'message.inbound').slice(-texts.length);
	expect(delivered.map((d) => d.status)).toEqual(texts.map(() => 200));
}

/** Waits for the `count`-th answer to `phone`. */
async function answered(phone: string, count: number): Promise<string[]> {
	return await waitFor(`answer ${count} to ${phone}`, async () => {
		const got = await answers(phone);
		return got.length >= count && got;
	}, { timeoutMs: 60_000, intervalMs: 500 });
}

/** What the model was sent in its n-th request since the last script: the system prompt and the customer's burst. */
const asked = (n: number) => JSON.stringify(model.requests()[n]?.messages ?? []);

test('thirty days of bursts: one run and one answer per burst, the model asked once with all its messages, across a restart in the middle of a burst', async () => {
	const answersTo = new Map<string, number>();
	/** The customer's next answer arrives: it must be `text`. */
	const answerArrives = async (phone: string, text: string) => {
		answersTo.set(phone, (answersTo.get(phone) ?? 0) + 1);
		expect((await answered(phone, answersTo.get(phone)!)).at(-1)).toBe(text);
	};

	for (let day = 1; day <= 30; day++) {
		await sandbox.advanceClock(DAY);
		if (day === 10) {
			// n8n restarts one second after the second message of a burst.
			const sorry = 'Sorry for the wait: your parcel is on its way.';
			model.script([{ text: sorry }, { text: 'Hello Ada!' }]);
			await writes(GRACE, ['hello', 'my parcel?']);
			await new Promise((resolve) => setTimeout(resolve, 1000));
			await own.restart();
			if (runtime.id !== '1.123') {
				// n8n 2.x runs no hook of a webhook node at start-up: the next message starts the held burst.
				await sandbox.advanceClock(60_000);
				await writes(ADA, ['hi there']);
				await answerArrives(ADA, 'Hello Ada!');
			}
			await answerArrives(GRACE, sorry);
			expect(asked(0)).toMatch(/hello.*my parcel\?/s);
			lines.push(`day ${day}: Grace writes twice, n8n restarts a second later -> one answer with both (${runtime.id === '1.123' ? 'when n8n is back' : 'with the next message to the trigger'})`);
		} else if (day === 20) {
			// The agent looks up its last answer's delivery with the package's node as its tool.
			const [lastAnswer] = (await sandbox.messages({ phone: ADA })).filter((m) => m.direction === 'outbound').slice(-1);
			model.script([{ toolCall: { tool: 'Check_Delivery_Status', arguments: { message_id: lastAnswer.message_id } } }, { text: 'Yes, my last message reached you.' }]);
			await writes(ADA, ['did you get', 'my question?']);
			await answerArrives(ADA, 'Yes, my last message reached you.');
			const lookups = (await sandbox.requests({ method: 'GET' })).filter((r) => r.path === `/v1/messages/${lastAnswer.message_id}`);
			expect(lookups).toHaveLength(1);
			expect(model.requests()).toHaveLength(2);
			lines.push(`day ${day}: Ada asks about her last answer -> the agent checks its delivery with Message → Get Status, one answer`);
		} else {
			const phone = [ADA, GRACE, ...STRANGERS][day % 5];
			const texts = Array.from({ length: 1 + (day % 3) }, (_, i) => `day ${day}, line ${i + 1}`);
			model.script([{ text: `Answer of day ${day}` }]);
			await writes(phone, texts);
			await answerArrives(phone, `Answer of day ${day}`);
			expect(model.requests()).toHaveLength(1);
			for (const text of texts) expect(asked(0)).toContain(text);
			lines.push(`day ${day}: ${phone} writes ${texts.length} -> one answer`);
		}
	}

	// Nothing answered twice: one run per burst, each a success.
	for (const [phone, count] of answersTo) expect(await answers(phone)).toHaveLength(count);
	const runs = await settledExecutions(own.n8n, workflowId);
	expect(runs.map((run) => run.status)).toEqual(runs.map(() => 'success'));
	expect(runs).toHaveLength([...answersTo.values()].reduce((a, b) => a + b, 0));
	lines.push(`${runs.length} runs, each burst answered once`);
});
