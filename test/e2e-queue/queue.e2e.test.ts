/**
 * This package in n8n's queue mode, end to end: PostgreSQL 17, Redis, the main process, two
 * workers and two webhook processes behind the round-robin balancer (tools/n8n/queue.ts), with
 * the sandbox standing in for both services. One file, so that the tests can restart
 * processes of the cluster they started; the sections run in order:
 *
 *  1. every example runs on a worker (executions, worker logs, the sandbox's request log);
 *  2. webhooks through the balancer: inbound -> reply, delivered and read, a wrong secret,
 *     200 distinct deliveries at 10 in flight;
 *  3. Send and Wait: the question's link through the balancer, the answer resumes the execution
 *     on a worker, and so does Limit Wait Time (the main process's wait tracker);
 *  4. repeated deliveries, measured: one webhook process, two (round-robin, and pinned by
 *     path at the balancer), across a restart of the webhook processes, and single mode
 *     across an n8n restart (table in .artifacts/e2e-queue/repeats.md);
 *  5. no bearer key in PostgreSQL's execution data or any process's log.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { digestOf } from '../../nodes/shared/digest';
import { SandboxClient } from '../../tools/sandbox/client';
import { executionsOf, queryN8nDatabase, settledExecutions } from '../../tools/n8n/database';
import { EXAMPLE_DATA, EXAMPLE_FILES, importExample, inboundReplyText, readExample, seedExampleData, SESSION_REQUESTS } from '../../tools/n8n/examples';
import { wireCredentials, type StoredCredential } from '../../tools/n8n/client';
import { startN8n, type N8nInstance } from '../../tools/n8n/instance';
import { freePort } from '../../tools/n8n/processes';
import { PINNED_WEBHOOK_PATHS, startQueueCluster, type QueueCluster } from '../../tools/n8n/queue';
import { waitFor } from '../../tools/shared/wait';
import { ARTIFACTS_DIR } from '../../tools/n8n/runtime';
import { byRole, sandboxCredentials, webhookHeadersFor } from '../../tools/n8n/sandboxCredentials';
import { postAnswer, sendAndWaitWorkflow } from '../support/sendAndWaitWorkflow';
import { acrossRestart, atTheSameTime, burst, oneAfterAnother, writeRepeatReport, type RepeatResult, type RepeatTarget } from './repeats';
import {
	deliverAtLeastOnce,
	directUrl,
	inboundEvent,
	matchesInExecutionData,
	nodeOutput,
	pool,
	post,
	publish,
	runManually,
	storedDigests,
	triggerOnlyWorkflow,
	unexpectedAnswers,
	workerOf,
} from './support';

/** Logs and the repeat table; another folder for a run of the suite beside CI's own (stop.e2e stops one). */
const OUT_DIR = process.env.E2E_QUEUE_ARTIFACTS ?? path.join(ARTIFACTS_DIR, 'e2e-queue');
/** docs/trigger.md: a process saves its new events with its first call this long after its previous save. */
const SAVED_AFTER_MS = 250;
const log = (line: string) => process.stderr.write(line + '\n');

let cluster: QueueCluster;
let sandboxServer: { url: string; timelineKey: string; messagingKey: string; close(): Promise<void> | void };
let sandbox: SandboxClient;
let creds: StoredCredential[];
const repeatResults: RepeatResult[] = [];
/** Log files of processes that are gone (a single-mode n8n stopped by its section). */
const extraLogs: string[] = [];

beforeAll(async () => {
	fs.rmSync(OUT_DIR, { recursive: true, force: true });
	const { startSandbox } = await import('../../tools/sandbox/server');
	sandboxServer = await startSandbox({ port: 0 });
	sandbox = new SandboxClient(sandboxServer.url);
	await seedExampleData(sandbox);
	cluster = await startQueueCluster({ logDir: OUT_DIR, log });
	log(`[e2e-queue] cluster ready: ${JSON.stringify(cluster.timings)}`);
	creds = Object.values(byRole(await cluster.main.importCredentials(sandboxCredentials(sandboxServer))));
}, 600_000);

afterAll(async () => {
	if (repeatResults.length) log(`[e2e-queue] repeated deliveries:\n${writeRepeatReport(OUT_DIR, repeatResults)}`);
	await cluster?.stop();
	await sandboxServer?.close();
}, 120_000);

/** The requests the sandbox received for the service APIs (not its control surface). */
async function serviceRequests() {
	return (await sandbox.requests()).filter((r) => r.path.startsWith('/v1/'));
}

describe('every example runs on a worker', () => {
	beforeEach(async () => {
		await sandbox.setWebhook(null);
		await sandbox.clearRequests();
	});

	async function runExample(file: string, triggerName: string) {
		const id = await importExample(cluster.main, file, creds);
		const execution = await runManually(cluster.main, id, triggerName);
		expect(execution.status).toBe('success');
		expect(execution.mode).toBe('manual');
		expect(workerOf(cluster.workers, String(execution.id))).toBeDefined();
		return execution;
	}

	test('event alerts: published, the trigger polls on the main process alone, once a minute, and a new event runs on a worker once', async () => {
		const wf = readExample(EXAMPLE_FILES.eventAlerts);
		const trigger = wf.nodes.find((node) => node.type.endsWith('.timelineNavigationEventsTrigger'))!;
		trigger.parameters = { ...trigger.parameters, pollTimes: { item: [{ mode: 'everyMinute' }] } };
		const id = await cluster.main.importWorkflow(wireCredentials({ ...wf, name: `${wf.name} (every minute)` }, creds));
		const polls = async () => await sandbox.requests({ path: '/v1/monitor-events' });
		const polled = (count: number) => waitFor(`poll ${count}`, async () => (await polls()).length >= count, { timeoutMs: 75_000, intervalMs: 500 });
		await cluster.main.activate(id);
		try {
			await polled(1);
			const event = { location: EXAMPLE_DATA.location, time: new Date(Date.now() - 60_000).toISOString(), description: 'A new lighthouse keeper' };
			await sandbox.seedEvent(event);
			await polled(2);
			await waitFor('the alert run', async () => (await executionsOf(cluster.main, id)).length > 0, { timeoutMs: 30_000 });
			const [execution] = await settledExecutions(cluster.main, id, { timeoutMs: 30_000 });
			expect(execution.status).toBe('success');
			expect(workerOf(cluster.workers, String(execution.id))).toBeDefined();
			await polled(3);
		} finally {
			await cluster.main.deactivate(id);
		}
		const sends = await sandbox.requests({ method: 'POST', path: '/v1/messages' });
		expect(sends.map((request) => (request.body as any).template.parameters[2])).toEqual(['A new lighthouse keeper']);
		// One poller: two processes polling on their own would ask twice within a minute. The first
		// poll is n8n's check at activation, which may fall just before the first scheduled one.
		const times = (await polls()).map((request) => Date.parse(request.time));
		const gaps = times.slice(1).map((time, index) => time - times[index]);
		log(`[e2e-queue] event alerts: ${times.length} polls, gaps ${gaps.map((gap) => `${Math.round(gap / 1000)} s`).join(', ')}`);
		const scheduledGaps = gaps.slice(1);
		expect(scheduledGaps.length).toBeGreaterThan(0);
		expect(scheduledGaps.filter((gap) => gap <= 45_000)).toEqual([]);
	});

	test('delivery tracking: the template is sent, then Get Status answers delivered', async () => {
		const execution = await runExample(EXAMPLE_FILES.deliveryTracking, 'When Clicking Execute');
		const reqs = await serviceRequests();
		const [sent] = nodeOutput(execution, 'Send Order Update');
		expect(reqs.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/messages', `GET /v1/messages/${sent.message_id}`]);
		expect((reqs[0].body as any).template).toEqual({ id: 'order_update', parameters: ['Ada', '#1042'] });
		expect(nodeOutput(execution, 'Get Delivery Status')[0]).toEqual(
			expect.objectContaining({ message_id: sent.message_id, status: 'delivered' }),
		);
	});

	test('timeline session: seven requests in order, the return with the first one\'s anchor_id, then home', async () => {
		const execution = await runExample(EXAMPLE_FILES.session, 'When Clicking Execute');
		const reqs = await serviceRequests();
		expect(reqs.map((r) => `${r.method} ${r.path}`)).toEqual(SESSION_REQUESTS);
		const [anchor] = nodeOutput(execution, 'Set Anchor');
		expect(reqs[5].body).toEqual({ anchor_id: anchor.anchor_id });
		expect(reqs[6].body).toEqual({ destination_time: expect.any(String), location: EXAMPLE_DATA.location });
		expect(nodeOutput(execution, 'Fast-Forward 6 Hours')[0].new_time).toBe('1969-07-21T02:17:40.000Z');
	});
});

describe('webhooks through the balancer', () => {
	let reply: { id: string; url: string };
	let statusFlow: { id: string; url: string };
	const replyHeaders = webhookHeadersFor(readExample(EXAMPLE_FILES.inboundReply));
	const statusHeaders = webhookHeadersFor(readExample(EXAMPLE_FILES.statusWebhook));
	const customer = EXAMPLE_DATA.customerPhone;

	beforeAll(async () => {
		const published = async (file: string) => publish(cluster.main, wireCredentials(readExample(file), creds));
		reply = await published(EXAMPLE_FILES.inboundReply);
		statusFlow = await published(EXAMPLE_FILES.statusWebhook);
	});

	beforeEach(async () => {
		await sandbox.clearRequests();
	});

	test('the production URLs are the balancer\'s', () => {
		expect(reply.url.startsWith(`${cluster.proxy.url}/webhook/`)).toBe(true);
		expect(statusFlow.url.startsWith(`${cluster.proxy.url}/webhook/`)).toBe(true);
	});

	test('an inbound message -> the published reply workflow on a worker -> a reply with its placeholders resolved', async () => {
		const before = (await settledExecutions(cluster.main, reply.id)).length;
		await sandbox.setWebhook(reply.url, replyHeaders);
		const inbound = await sandbox.inbound(customer, 'Is my order on its way?');
		const deliveries = (await sandbox.flushWebhooks()).filter((d) => (d.payload as any).message_id === inbound.message_id);
		expect(deliveries.map((d) => [d.url, d.status])).toEqual([[reply.url, 200]]);

		// Example 02 gathers a customer's quick messages: its run starts once the customer is quiet.
		const executions = await waitFor('the reply run', async () => {
			const settled = await settledExecutions(cluster.main, reply.id);
			return settled.length > before && settled;
		}, { timeoutMs: 60_000, intervalMs: 1000 });
		expect(executions).toHaveLength(before + 1);
		const newest = executions[executions.length - 1];
		expect([newest.status, newest.mode]).toEqual(['success', 'webhook']);
		expect(workerOf(cluster.workers, newest.id)).toBeDefined();

		const sends = (await serviceRequests()).filter((r) => r.method === 'POST' && r.path === '/v1/messages');
		expect(sends).toHaveLength(1);
		const execution = (await cluster.main.api('GET', `/executions/${newest.id}?includeData=true`)).body;
		const stored = await sandbox.message(nodeOutput(execution, 'Reply With Text')[0].message_id);
		expect(stored.text).toBe(inboundReplyText('Ada', inbound.timestamp, (await cluster.main.rest('GET', '/settings')).body.timezone));
	});

	test('a sent message starts the status workflow once for delivered and once for read', async () => {
		await sandbox.setWebhook(statusFlow.url, statusHeaders);
		const before = (await settledExecutions(cluster.main, statusFlow.id)).length;
		const tracking = await importExample(cluster.main, EXAMPLE_FILES.deliveryTracking, creds);
		const run = await runManually(cluster.main, tracking, 'When Clicking Execute');
		const messageId = nodeOutput(run, 'Send Order Update')[0].message_id;
		await sandbox.read(messageId);
		await sandbox.read(messageId); // changes nothing, emits nothing
		await sandbox.flushWebhooks();

		const executions = (await settledExecutions(cluster.main, statusFlow.id)).slice(before);
		expect(executions.map((e) => e.status)).toEqual(['success', 'success']);
		const records = [];
		for (const e of executions) {
			expect(workerOf(cluster.workers, e.id)).toBeDefined();
			const data = (await cluster.main.api('GET', `/executions/${e.id}?includeData=true`)).body;
			records.push(nodeOutput(data, 'Delivery Record')[0]);
		}
		expect(records).toEqual([
			{ message_id: messageId, customer, status: 'delivered', changed_at: expect.any(String) },
			{ message_id: messageId, customer, status: 'read', changed_at: expect.any(String) },
		]);
	});

	test('a wrong secret, or none, gets 401 and starts nothing', async () => {
		const before = (await settledExecutions(cluster.main, reply.id)).length;
		const [header] = Object.keys(replyHeaders);
		await sandbox.setWebhook(reply.url, { [header]: 'not-the-secret' });
		const inbound = await sandbox.inbound(customer, 'Let me in');
		const deliveries = (await sandbox.flushWebhooks()).filter((d) => (d.payload as any).message_id === inbound.message_id);
		expect(deliveries.map((d) => d.status)).toEqual([401]);
		const bare = await post(reply.url, { ...inbound, message_id: 'msg_in_no_secret' });
		expect(bare.status).toBe(401);
		expect(await settledExecutions(cluster.main, reply.id)).toHaveLength(before);
		expect((await serviceRequests()).filter((r) => r.method === 'POST')).toHaveLength(0);
		await sandbox.setWebhook(null);
	});

	test('200 distinct deliveries, 10 in flight, each sent again until answered 2xx (as the service does): each event starts exactly one successful execution, spread over both workers and both webhook processes', async () => {
		const before = (await settledExecutions(cluster.main, statusFlow.id)).length;
		const forwardedBefore = cluster.proxy.forwarded();
		const events = Array.from({ length: 200 }, (_, i) => ({
			event_type: 'message.status',
			message_id: `msg_load_${i}`,
			conversation_id: 'conv_load',
			channel: 'chatapp',
			to: customer,
			status: 'delivered',
			timestamp: new Date().toISOString(),
		}));
		const deliveries = await pool(events, 10, async (event) => ({
			name: event.message_id,
			answers: await deliverAtLeastOnce(statusFlow.url, event, statusHeaders),
		}));
		// Every answer other than `200 {started: true}`, with the process that gave it: a failure
		// here must say what happened, and a resend that succeeded is worth seeing too.
		const unexpected = unexpectedAnswers(deliveries);
		log(`[e2e-queue] 200 deliveries: ${unexpected.length} unexpected answers${unexpected.map((line) => `\n  ${line}`).join('')}`);
		const unanswered = deliveries.filter((d) => d.answers[d.answers.length - 1].status !== 200).map((d) => d.name);

		const executions = (await settledExecutions(cluster.main, statusFlow.id)).slice(before);
		const startedWith = await matchesInExecutionData(cluster.main, executions.map((e) => e.id), /msg_load_\d+/);
		const startsOf = (name: string) => [...startedWith.values()].filter((ids) => ids.includes(name)).length;
		const notStarted = events.filter((e) => startsOf(e.message_id) === 0).map((e) => e.message_id);
		const startedTwice = events.filter((e) => startsOf(e.message_id) > 1).map((e) => e.message_id);
		// A distinct event answered as a repeat, or lost after its answer, shows here with every answer it got.
		const wrong = new Set([...unanswered, ...notStarted, ...startedTwice]);
		expect({
			unanswered,
			notStarted,
			startedTwice,
			theirAnswers: unexpectedAnswers(deliveries.filter((d) => wrong.has(d.name)), () => false),
		}).toEqual({ unanswered: [], notStarted: [], startedTwice: [], theirAnswers: [] });
		expect(executions).toHaveLength(200);
		expect(executions.filter((e) => e.status !== 'success')).toEqual([]);
		const perWorker = [0, 0];
		for (const e of executions) perWorker[workerOf(cluster.workers, e.id) ?? -1]++;
		expect(perWorker[0] + perWorker[1]).toBe(200);
		expect(Math.min(...perWorker)).toBeGreaterThan(0);
		const forwarded = cluster.proxy.forwarded();
		for (const w of cluster.webhooks) expect((forwarded[w.url] ?? 0) - (forwardedBefore[w.url] ?? 0)).toBeGreaterThan(0);
		log(`[e2e-queue] 200 deliveries: executions per worker ${perWorker.join(' / ')}`);
	});
});

describe('Send and Wait through the balancer', () => {
	const customer = '+14155550188';
	let ask: { id: string; url: string };
	let timeout: { id: string; url: string };

	beforeAll(async () => {
		const messaging = creds.find((c) => c.type === 'chatAppMessagingApi')!;
		const published = async (name: string, parameters: Record<string, unknown>) => {
			const path = `queue-send-and-wait-${name}-${randomBytes(6).toString('hex')}`;
			const id = await cluster.main.importWorkflow(sendAndWaitWorkflow({ name: `Send and Wait (${name})`, path, to: customer, messaging, ask: parameters }));
			await cluster.main.activate(id);
			return { id, url: `${cluster.proxy.url}/webhook/${path}` };
		};
		ask = await published('approval', { message: 'Approve the refund for order #1042?' });
		timeout = await published('timeout', {
			message: 'Approve within a few seconds?',
			options: { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 0.05, resumeUnit: 'minutes' } } },
		});
		await sandbox.inbound(customer, 'Hi');
	});

	/** Starts the workflow through the balancer; its waiting execution and the link in the sandbox. */
	async function question(flow: { id: string; url: string }): Promise<{ executionId: string; link: string }> {
		const before = new Set((await executionsOf(cluster.main, flow.id)).map((e) => e.id));
		// Right after publishing, a webhook process may not know the path yet (404) for a moment.
		const started = await waitFor('the workflow\'s webhook on the webhook processes', async () => {
			const answer = await post(flow.url, {});
			return answer.status !== 404 && answer;
		}, { timeoutMs: 15000, intervalMs: 250 });
		expect(started.status).toBe(200);
		const executionId = await waitFor(
			'a waiting execution',
			async () => (await executionsOf(cluster.main, flow.id)).find((e) => !before.has(e.id) && e.status === 'waiting')?.id,
			{ timeoutMs: 60000 },
		);
		const messages = await sandbox.messages({ phone: customer });
		const link = messages.flatMap((m) => m.links ?? []).find((l) => l.includes(`/webhook-waiting/${executionId}/`));
		if (!link) throw new Error(`no link to execution ${executionId} in the sandbox`);
		return { executionId, link };
	}

	/** The execution's run data once saved through to its last node. */
	const savedRun = (id: string) =>
		waitFor(
			`the run data of execution ${id}`,
			async () => {
				const got = (await cluster.main.api('GET', `/executions/${id}?includeData=true`)).body;
				return got?.data?.resultData?.runData?.After ? got : undefined;
			},
			{ timeoutMs: 30000 },
		);

	test('the link is the balancer\'s; opened and answered through it, the execution goes on and finishes on a worker; Limit Wait Time resumes it on a worker too', async () => {
		const timedOut = await question(timeout);
		const answered = await question(ask);
		expect(answered.link.startsWith(`${cluster.proxy.url}/webhook-waiting/${answered.executionId}/`)).toBe(true);

		const forwardedBefore = Object.values(cluster.proxy.forwarded()).reduce((a, b) => a + b, 0);
		const opened = await fetch(answered.link);
		expect(opened.status).toBe(200);
		expect(await opened.text()).toContain('Approve the refund for order #1042?');
		expect((await executionsOf(cluster.main, ask.id)).find((e) => e.id === answered.executionId)?.status).toBe('waiting');
		const recorded = await postAnswer(answered.link, { answer: 'approve' });
		expect(recorded.status).toBe(200);
		expect(await recorded.text()).toContain('Your answer was recorded');
		// Both requests went through the balancer to the webhook processes.
		expect(Object.values(cluster.proxy.forwarded()).reduce((a, b) => a + b, 0) - forwardedBefore).toBe(2);

		const [done] = (await settledExecutions(cluster.main, ask.id)).filter((e) => e.id === answered.executionId);
		expect(done.status).toBe('success');
		expect(workerOf(cluster.workers, done.id)).toBeDefined();
		const execution = await savedRun(done.id);
		expect(nodeOutput(execution, 'Ask')).toEqual([{ data: { approved: true, respondedAt: expect.any(String) } }]);
		expect(nodeOutput(execution, 'After')).toHaveLength(1);

		// The main process's wait tracker looks for due executions once a minute.
		const [ended] = (await settledExecutions(cluster.main, timeout.id, { timeoutMs: 150_000 })).filter((e) => e.id === timedOut.executionId);
		expect(ended.status).toBe('success');
		expect(workerOf(cluster.workers, ended.id)).toBeDefined();
		const timedOutData = await savedRun(ended.id);
		expect(nodeOutput(timedOutData, 'Ask')[0].data).toBeUndefined();
		expect(nodeOutput(timedOutData, 'After')).toHaveLength(1);
	});
});

describe('repeated deliveries, measured (Ignore Repeated Deliveries on)', () => {
	/** Events per case sent at 10 in flight (each case costs about 10 s per 100 deliveries on 2 cores). */
	const BURST = 50;
	const viaBalancer = (webhookPath: string) => `${cluster.proxy.url}/webhook/${webhookPath}`;
	const oneProcess: RepeatTarget = {
		setup: 'queue mode, 1 webhook process',
		n8n: () => cluster.main,
		url: (webhookPath) => directUrl(cluster.webhooks[0], webhookPath),
	};
	const roundRobin: RepeatTarget = { setup: 'queue mode, 2 webhook processes, round-robin', n8n: () => cluster.main, url: viaBalancer };
	const pinned: RepeatTarget = { setup: 'queue mode, 2 webhook processes, path pinned at the balancer', n8n: () => cluster.main, url: viaBalancer };

	function record(result: RepeatResult): RepeatResult {
		repeatResults.push(result);
		const calls = result.failedCalls.map((line) => `\n  ${line}`).join('');
		log(`[e2e-queue] ${result.setup}: ${result.case}: ${result.deliveries} sent, ${result.executions} executions${calls}`);
		// Every delivery acknowledged in the end (calls answered otherwise were resent, as the service does).
		expect(result.answered200 === result.deliveries ? [] : result.failedCalls).toEqual([]);
		return result;
	}

	/** Runs `phase` with the balancer pinning webhook paths; checks that its deliveries all reached one process. */
	async function pinnedDuring<T>(phase: () => Promise<T>): Promise<T> {
		const before = cluster.proxy.forwarded();
		cluster.proxy.pinPaths(PINNED_WEBHOOK_PATHS);
		try {
			const result = await phase();
			const after = cluster.proxy.forwarded();
			const reached = cluster.webhooks.filter((w) => (after[w.url] ?? 0) > (before[w.url] ?? 0));
			expect(reached).toHaveLength(1);
			return result;
		} finally {
			cluster.proxy.pinPaths(null);
		}
	}

	test('to one webhook process: every repeat is caught, also copies sent at the same time', async () => {
		expect(record(await oneAfterAnother(oneProcess, 10, 3)).executions).toBe(10);
		expect(record(await atTheSameTime(oneProcess, 10)).executions).toBe(10);
		expect(record(await burst(oneProcess, BURST, 2, 10)).executions).toBe(BURST);
	});

	test('to two webhook processes, round-robin: no event lost; a repeat is refused by the other process once the first copy\'s call is saved (measured otherwise)', async () => {
		for (const result of [
			record(await oneAfterAnother(roundRobin, 10, 3)),
			record(await atTheSameTime(roundRobin, 10)),
			record(await burst(roundRobin, BURST, 2, 10)),
		]) {
			expect(result.executions).toBeGreaterThanOrEqual(result.events);
			expect(result.executions).toBeLessThanOrEqual(result.deliveries);
		}
		// Once the first copy's call is saved, a repeat at the other process is refused.
		const { id, path: webhookPath } = await publish(cluster.main, triggerOnlyWorkflow('Repeats: the second process after the save'));
		for (let i = 0; i < 5; i++) {
			// A process saves with its first call a quarter second or more after its previous save
			// (the interval is the behaviour under test, not a wait for a state).
			if (i > 0) await new Promise((resolve) => setTimeout(resolve, SAVED_AFTER_MS));
			const messageId = `msg_after_save_${i}`;
			expect((await post(directUrl(cluster.webhooks[0], webhookPath), inboundEvent(messageId))).body).toMatchObject({ started: true });
			const digest = digestOf(`${messageId}|message.inbound|`);
			await waitFor(`${messageId} in static data`, async () => (await storedDigests(cluster.main, id)).has(digest), { timeoutMs: 30000 });
			expect((await post(directUrl(cluster.webhooks[1], webhookPath), inboundEvent(messageId))).body).toMatchObject({ started: false });
		}
		expect(await settledExecutions(cluster.main, id)).toHaveLength(5);
	});

	test('to two webhook processes with the path pinned at the balancer: every repeat is caught', async () => {
		expect(record(await pinnedDuring(() => oneAfterAnother(pinned, 10, 3))).executions).toBe(10);
		expect(record(await pinnedDuring(() => atTheSameTime(pinned, 10))).executions).toBe(10);
		expect(record(await pinnedDuring(() => burst(pinned, BURST, 2, 10))).executions).toBe(BURST);
	});

	test('after both webhook processes restart, repeats are caught from static data once each process has answered one more call (right after a burst: measured)', async () => {
		const oneMoreCall = {
			name: 'then one more event to each process',
			run: async (webhookPath: string, workflowId: string) => {
				// One process after the other, each call's save seen in the database before the next.
				for (const [i, process] of cluster.webhooks.entries()) {
					const messageId = `msg_one_more_${i}_${Date.now()}`;
					expect((await post(directUrl(process, webhookPath), inboundEvent(messageId))).status).toBe(200);
					const digest = digestOf(`${messageId}|message.inbound|`);
					await waitFor(`${messageId} in static data`, async () => (await storedDigests(cluster.main, workflowId)).has(digest), {
						timeoutMs: 30000,
					});
				}
			},
		};
		const results = await acrossRestart(
			[
				{ target: pinned, events: BURST, concurrency: 10, around: pinnedDuring },
				{ target: roundRobin, events: 20, concurrency: 1 },
				{ target: roundRobin, events: BURST, concurrency: 10 },
				{ target: pinned, events: BURST, concurrency: 10, around: pinnedDuring, between: oneMoreCall },
				{ target: roundRobin, events: BURST, concurrency: 10, between: oneMoreCall },
			],
			{ name: 'both webhook processes restarted', run: () => cluster.restartWebhooks() },
		);
		results.forEach(record);
		// Right after a burst, a process's newest keys can still be missing: its last saves may
		// land out of order, or the other process's save (from an older copy) may land last.
		// Each process writes back what a copy lacks on its next call.
		expect(results.filter((r) => r.case.includes('one more event')).map((r) => r.executions)).toEqual([0, 0]);
	});

	describe('single mode (SQLite, one n8n process), across an n8n restart', () => {
		let single: N8nInstance;
		let userFolder: string;
		let port: number;
		const start = async () => {
			single = await startN8n({ port, userFolder, logFile: path.join(OUT_DIR, 'single-mode.log'), log });
		};
		const target: RepeatTarget = {
			setup: 'single mode',
			n8n: () => single,
			url: (webhookPath) => `${single.url}/webhook/${webhookPath}`,
		};

		beforeAll(async () => {
			userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-queue-single-'));
			port = await freePort();
			await start();
			extraLogs.push(single.logFile);
		}, 300_000);

		afterAll(async () => {
			await single?.stop();
			fs.rmSync(userFolder, { recursive: true, force: true });
		}, 120_000);

		test('every repeat is caught while n8n runs', async () => {
			expect(record(await oneAfterAnother(target, 10, 3)).executions).toBe(10);
			expect(record(await atTheSameTime(target, 10)).executions).toBe(10);
			expect(record(await burst(target, BURST, 2, 10)).executions).toBe(BURST);
		});

		test('after n8n restarts, repeats of events delivered before are caught from static data once n8n has answered a call a quarter second after them (right after them: measured)', async () => {
			const restart = async () => {
				await single.stop();
				await start();
			};
			const oneMoreCall = {
				name: 'then one more event a quarter second later',
				run: async (webhookPath: string, workflowId: string) => {
					const messageId = `msg_one_more_single_${Date.now()}`;
					expect((await post(`${single.url}/webhook/${webhookPath}`, inboundEvent(messageId))).status).toBe(200);
					const digest = digestOf(`${messageId}|message.inbound|`);
					await waitFor(`${messageId} in static data`, async () => (await storedDigests(single, workflowId)).has(digest), { timeoutMs: 30000 });
				},
			};
			const results = await acrossRestart(
				[
					{ target, events: 20, concurrency: 1 },
					{ target, events: BURST, concurrency: 10 },
					{ target, events: 20, concurrency: 1, between: oneMoreCall },
					{ target, events: BURST, concurrency: 10, between: oneMoreCall },
				],
				{ name: 'n8n restarted', run: restart },
			);
			results.forEach(record);
			// Right after the deliveries, the events after n8n's last save of the memory start again
			// (each case's first event was saved by its own call); after one more call, nothing.
			expect(results.slice(0, 2).map((r) => r.executions <= r.events - 1)).toEqual([true, true]);
			expect(results.slice(2).map((r) => r.executions)).toEqual([0, 0]);
		});
	});
});

describe('bursts (Messages in Quick Succession → Gather Into One Run) through the balancer', () => {
	// Well above n8n's answer time on a loaded CI machine: a customer's next message must come within
	// it, or the burst is rightly split (at 2 s, the pinned case split every burst while the other
	// CI parts ran beside it; the gaps are logged).
	const QUIET_SECONDS = 10;
	const CUSTOMERS = 10;
	const MESSAGES = 3;
	const viaBalancer = (webhookPath: string) => `${cluster.proxy.url}/webhook/${webhookPath}`;

	/** Each customer writes MESSAGES messages, 5 deliveries in flight; returns each run's [from, texts]. */
	async function gather(name: string): Promise<{ runs: Array<[string, string[]]>; expected: Array<[string, string[]]> }> {
		const workflow = triggerOnlyWorkflow(name);
		workflow.nodes[0].typeVersion = 1.1;
		workflow.nodes[0].parameters = { events: ['message.inbound'], quickMessages: 'gather', quietSeconds: QUIET_SECONDS, longestWaitSeconds: 60 };
		const { id, path: webhookPath } = await publish(cluster.main, workflow);
		const customers = Array.from({ length: CUSTOMERS }, (_, i) => `+1415556${String(1000 + i)}`);
		const answeredAt = new Map<string, number[]>();
		for (let m = 0; m < MESSAGES; m++) {
			const answers = await pool(customers, 5, async (from) => {
				const answer = await post(viaBalancer(webhookPath), { ...inboundEvent(`msg_${name.length}_${from}_${m}_${Date.now()}`, `${from} ${m}`), from });
				answeredAt.set(from, [...(answeredAt.get(from) ?? []), Date.now()]);
				return answer;
			});
			// Each held (`started` false) unless it started a burst that was due: always 200.
			expect(unexpectedAnswers(answers.map((answer, i) => ({ name: customers[i], answers: [answer] })), (answer) => answer.status === 200)).toEqual([]);
		}
		const gaps = [...answeredAt.values()].flatMap((times) => times.slice(1).map((time, i) => time - times[i]));
		log(`[e2e-queue] ${name}: longest gap between a customer's answered messages ${Math.max(...gaps)} ms (Quiet Time ${QUIET_SECONDS} s)`);
		await new Promise((resolve) => setTimeout(resolve, (QUIET_SECONDS + 20) * 1000));
		const runs: Array<[string, string[]]> = [];
		for (const execution of await settledExecutions(cluster.main, id)) {
			const data = (await cluster.main.api('GET', `/executions/${execution.id}?includeData=true`)).body;
			const [item] = nodeOutput(data, 'Chat-App Messaging Trigger');
			runs.push([item.from, (item.messages as Array<{ text: string }>).map((message) => message.text)]);
		}
		return { runs, expected: customers.map((from) => [from, Array.from({ length: MESSAGES }, (_, m) => `${from} ${m}`)]) };
	}

	test('with the path pinned to one webhook process: one run per burst, every message in it, in order', async () => {
		cluster.proxy.pinPaths(PINNED_WEBHOOK_PATHS);
		try {
			const { runs, expected } = await gather('Bursts: pinned');
			expect(runs.sort()).toEqual(expected.sort());
		} finally {
			cluster.proxy.pinPaths(null);
		}
	});

	test('round-robin over two webhook processes: no message lost, each run in order (bursts split over the processes, and messages in two runs, are measured)', async () => {
		const { runs, expected } = await gather('Bursts: round-robin');
		const byCustomer = new Map<string, string[][]>();
		for (const [from, texts] of runs) byCustomer.set(from, [...(byCustomer.get(from) ?? []), texts]);
		let twice = 0;
		for (const [from, texts] of expected) {
			const got = byCustomer.get(from) ?? [];
			expect([...new Set(got.flat())].sort()).toEqual([...texts].sort());
			twice += got.flat().length - new Set(got.flat()).size;
			for (const run of got) expect(run).toEqual([...run].sort());
		}
		const split = [...byCustomer.values()].filter((customerRuns) => customerRuns.length > 1).length;
		log(`[e2e-queue] bursts round-robin: ${runs.length} runs for ${CUSTOMERS} bursts of ${MESSAGES} messages; ${split} bursts split, ${twice} messages in two runs`);
	});
});

describe('bearer keys', () => {
	const wrongTimelineKey = `wrong-timeline-key-${randomBytes(8).toString('hex')}`;
	const wrongMessagingKey = `wrong-messaging-key-${randomBytes(8).toString('hex')}`;

	test('runs with a wrong key fail with 401 on a worker; no key is in PostgreSQL\'s execution data or any process\'s log', async () => {
		const wrong = await cluster.main.importCredentials([
			{ name: 'Timeline (wrong key)', type: 'timelineNavigationApi', data: { baseUrl: sandboxServer.url, accessToken: wrongTimelineKey } },
			{ name: 'Messaging (wrong key)', type: 'chatAppMessagingApi', data: { baseUrl: sandboxServer.url, apiKey: wrongMessagingKey } },
		]);
		await sandbox.clearRequests();
		for (const [file, name] of [
			[EXAMPLE_FILES.session, 'Secrets check: session, wrong key'],
			[EXAMPLE_FILES.deliveryTracking, 'Secrets check: delivery, wrong key'],
		]) {
			const id = await cluster.main.importWorkflow(wireCredentials({ ...readExample(file), name }, wrong));
			const execution = await runManually(cluster.main, id, 'When Clicking Execute');
			expect(execution.status).toBe('error');
			expect(JSON.stringify(execution.data)).toMatch(/401/);
			expect(workerOf(cluster.workers, String(execution.id))).toBeDefined();
		}
		expect((await sandbox.requests()).filter((r) => r.responseStatus === 401).map((r) => r.path)).toEqual(
			expect.arrayContaining(['/v1/set-anchor', '/v1/messages']),
		);

		const rows = await queryN8nDatabase(cluster.main, 'SELECT "executionId", data, "workflowData" FROM execution_data');
		expect(rows.length).toBeGreaterThanOrEqual(300);
		const saved = JSON.stringify(rows);
		const logs = [...cluster.logFiles(), ...extraLogs].map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));
		expect(logs.filter((l) => /webhook-\d|worker-\d|main/.test(l.file)).every((l) => l.text.length > 0)).toBe(true);
		for (const key of [sandboxServer.timelineKey, sandboxServer.messagingKey, wrongTimelineKey, wrongMessagingKey]) {
			expect(saved.includes(key)).toBe(false);
			expect(logs.filter((l) => l.text.includes(key)).map((l) => l.file)).toEqual([]);
		}
	});
});
