/**
 * Messages in Quick Succession → Gather Into One Run, in a real n8n of this file's own (its user
 * folder kept across a restart), deliveries posted to the published trigger's Production URL as
 * the messaging service posts them:
 * - three messages one second apart start one run with the three, in order; a fourth after the
 *   Quiet Time starts a second run;
 * - n8n stopped one second after the second message of a burst, then started again: the burst's
 *   run starts once after the restart, with both messages: on n8n 1.x without a delivery (n8n
 *   calls the webhook's `create` hook at start-up, which calls the trigger's own URL); on n8n 2.x,
 *   which runs no hook of a webhook node at start-up, with the next delivery to the trigger;
 * - no run twice.
 */
import { settledExecutions } from '../../tools/n8n/database';
import { waitFor } from '../../tools/shared/wait';
import { inboundEvent, post, publish, triggerOnlyWorkflow } from '../e2e-queue/support';
import { e2eRuntime } from './environment';
import { useOwnN8n } from './ownN8n';

jest.setTimeout(600_000);

const QUIET_SECONDS = 3;
const runtime = e2eRuntime();
const own = useOwnN8n('bursts');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The trigger alone, gathering bursts; each execution's item is one burst. */
function gatheringWorkflow(name: string) {
	const workflow = triggerOnlyWorkflow(name);
	workflow.nodes[0].typeVersion = 1.1;
	workflow.nodes[0].parameters = { events: ['message.inbound'], quickMessages: 'gather', quietSeconds: QUIET_SECONDS, longestWaitSeconds: 30 };
	return workflow;
}

/** The texts of each burst the workflow's executions started, oldest first. */
async function bursts(workflowId: string): Promise<string[][]> {
	const texts: string[][] = [];
	for (const { id } of await settledExecutions(own.n8n, workflowId)) {
		const execution = (await own.n8n.api('GET', `/executions/${id}?includeData=true`)).body;
		const item = execution.data?.resultData?.runData?.['Chat-App Messaging Trigger']?.[0]?.data?.main?.[0]?.[0]?.json;
		texts.push([...(item?.messages ?? [])].map((message: { text: string }) => message.text));
	}
	return texts.sort((a, b) => a[0].localeCompare(b[0]));
}

test('three messages a second apart start one run with the three; a fourth after the Quiet Time starts a second; a restart in the middle of a burst loses nothing and starts nothing twice', async () => {
	const { id, url } = await publish(own.n8n, gatheringWorkflow('Bursts: one run per burst'));
	const deliver = async (text: string) => {
		const answer = await post(url, inboundEvent(`msg_${text.replace(/\W/g, '_')}_${Date.now()}`, text));
		expect([answer.status, answer.body?.received]).toEqual([200, true]);
	};

	for (const text of ['a1 hi', 'a2 I ordered on Monday', 'a3 where is it?']) {
		await deliver(text);
		await sleep(1000);
	}
	await waitFor('the first burst', async () => (await bursts(id)).length === 1, { timeoutMs: 30_000, intervalMs: 500 });
	expect(await bursts(id)).toEqual([['a1 hi', 'a2 I ordered on Monday', 'a3 where is it?']]);

	await sleep(QUIET_SECONDS * 1000);
	await deliver('b1 hello again');
	await waitFor('the second burst', async () => (await bursts(id)).length === 2, { timeoutMs: 30_000, intervalMs: 500 });

	// n8n stops one second after the second message of a burst, and starts again.
	await sleep(QUIET_SECONDS * 1000);
	await deliver('c1 one more thing');
	await sleep(1000);
	await deliver('c2 and another');
	await sleep(1000);
	await own.restart();
	if (runtime.id === '1.123') {
		// n8n 1.x calls the webhook's create hook at start-up: the trigger calls its own URL.
		await waitFor('the burst after the restart', async () => (await bursts(id)).length === 3, { timeoutMs: 60_000, intervalMs: 500 });
	} else {
		// n8n 2.x runs no hook of a webhook node at start-up (the webhook is already stored, and
		// n8n skips `create`): the held burst waits for the next delivery to the trigger.
		await sleep(QUIET_SECONDS * 3000);
		expect(await bursts(id)).toHaveLength(2);
		const next = await post(url, { ...inboundEvent(`msg_d1_${Date.now()}`, 'd1 someone else'), from: '+15551234567' });
		expect(next.body).toMatchObject({ received: true, started: true });
		await waitFor('the held burst and the new one', async () => (await bursts(id)).length === 4, { timeoutMs: 60_000, intervalMs: 500 });
	}
	// Nothing more starts: no run twice.
	await sleep(QUIET_SECONDS * 2000);
	expect(await bursts(id)).toEqual([
		['a1 hi', 'a2 I ordered on Monday', 'a3 where is it?'],
		['b1 hello again'],
		['c1 one more thing', 'c2 and another'],
		...(runtime.id === '1.123' ? [] : [['d1 someone else']]),
	]);
});
