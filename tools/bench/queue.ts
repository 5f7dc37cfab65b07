/**
 * The bench's queue-mode part: the same two workloads in single mode (the bench's n8n) and in
 * queue mode (tools/n8n/queue.ts: PostgreSQL, Redis, main, 2 webhook processes behind the
 * balancer) with 2 workers and with 1, side by side in one run.
 *
 *   Deliveries  M inbound messages at W in flight to this trigger, each replied to with one
 *               Send Text: accepted/s (answers) and deliveries/s (first request -> last
 *               execution stopped), every reply checked at the sandbox.
 *   Items       P executions of N/P Send Text items each, started at the same time: items/s
 *               = N / (first request -> last execution stopped).
 *
 * Per round the set-ups run in turn (the order reversed every other round, so each round
 * changes the number of workers once).
 */
import * as path from 'node:path';

import type { StoredCredential } from '../n8n/client';
import { CREDENTIAL_TYPES } from '../n8n/communityPackage';
import type { N8nInstance } from '../n8n/instance';
import { startQueueCluster, type QueueCluster } from '../n8n/queue';
import { waitFor } from '../shared/wait';
import { runLoad } from './load';
import {
	executionsAfter,
	isDone,
	median,
	newestExecutionId,
	messageItems,
	runWebhook,
	type SandboxProcess,
	type WebhookRun,
} from './measure';
import { packageSendWorkflow, triggerReplyWorkflow } from './workflows';

export interface QueueBenchConfig {
	deliveries: number;
	concurrency: number;
	items: number;
	/** Executions the items are split over, started at the same time. */
	parallel: number;
	rounds: number;
}

interface SetupRun {
	round: number;
	acceptedPerSecond: number;
	deliveriesPerSecond: number;
	itemsPerSecond: number;
	problems: string[];
}

export interface QueueBenchRow {
	setup: string;
	acceptedPerSecond: number;
	deliveriesPerSecond: number;
	itemsPerSecond: number;
	allValid: boolean;
	problems: string[];
	runs: SetupRun[];
}

export interface QueueBenchResult {
	config: QueueBenchConfig;
	rows: QueueBenchRow[];
	/** Queue mode's figures over single mode's (deliveries/s, items/s). */
	ratios: Record<string, { deliveries: number; items: number }>;
	clusterStartSeconds: number;
}

interface Target {
	setup: string;
	n8n: N8nInstance;
	reply: { workflowId: string; url: string };
	send: { workflowId: string; url: string };
}

/** The workflows of both workloads in one n8n (single mode or the cluster's main). */
async function prepare(setup: string, n8n: N8nInstance, sandbox: SandboxProcess): Promise<Target> {
	const [messaging]: StoredCredential[] = await n8n.importCredentials([
		{ name: 'Bench messaging', type: CREDENTIAL_TYPES.messaging, data: { baseUrl: sandbox.url, apiKey: sandbox.messagingKey } },
	]);
	const replyJson = triggerReplyWorkflow('Bench queue: trigger -> Send Text', messaging);
	const replyId = await n8n.importWorkflow(replyJson);
	await n8n.activate(replyId);
	const sendId = await n8n.importWorkflow(packageSendWorkflow('Bench queue: Send Text items', 'bench-queue-send', 'sendText', messaging));
	await n8n.activate(sendId);
	return {
		setup,
		n8n,
		reply: { workflowId: replyId, url: `${n8n.webhookBaseUrl}/${replyJson.nodes[0].webhookId}/chat-app` },
		send: { workflowId: sendId, url: `${n8n.webhookBaseUrl}/bench-queue-send` },
	};
}

function inboundPayload(recipients: string[]) {
	return (id: string, i: number) => ({
		event_type: 'message.inbound',
		message_id: id,
		conversation_id: `conv_bench_${i % recipients.length}`,
		channel: 'chatapp',
		from: recipients[i % recipients.length],
		text: 'Where is my order?',
		timestamp: new Date().toISOString(),
	});
}

async function deliveries(target: Target, sandbox: SandboxProcess, cfg: QueueBenchConfig, recipients: string[], tag: string): Promise<WebhookRun & { replies: number }> {
	await sandbox.client.clearRequests();
	const variant = { key: 'reply', label: target.setup, ...target.reply };
	// Each delivery runs the action node: on a busy machine executions can pause longer than the default 20 s.
	const run = await runWebhook(target.n8n, variant, cfg.deliveries, cfg.concurrency, 0, tag, inboundPayload(recipients), 90000);
	const replies = (await sandbox.client.requests({ method: 'POST', path: '/v1/messages' })).filter((r) => r.responseStatus === 200).length;
	return { ...run, replies };
}

/** P executions of N/P items, started together; items/s over first request -> last stop. */
async function parallelItems(target: Target, sandbox: SandboxProcess, cfg: QueueBenchConfig, recipients: string[]) {
	await sandbox.client.clearRequests();
	const before = await newestExecutionId(target.n8n, target.send.workflowId);
	const items = messageItems(cfg.items, recipients);
	const per = Math.ceil(items.length / cfg.parallel);
	const t0 = Date.now();
	const load = await runLoad(cfg.parallel, cfg.parallel, (i) => ({
		method: 'POST',
		url: target.send.url,
		body: { items: items.slice(i * per, (i + 1) * per) },
	}));
	let done: Awaited<ReturnType<typeof executionsAfter>> = [];
	await waitFor(
		`${cfg.parallel} finished executions`,
		async () => {
			done = (await executionsAfter(target.n8n, target.send.workflowId, before)).filter(isDone);
			return done.length >= cfg.parallel;
		},
		{ timeoutMs: 300000, intervalMs: 250 },
	).catch(() => undefined); // what is missing then is reported as a problem below
	const lastStop = Math.max(...done.map((e) => Date.parse(e.stoppedAt ?? '')));
	const received = await sandbox.client.requests({ method: 'POST', path: '/v1/messages' });
	const problems: string[] = [];
	if (load.ok !== cfg.parallel) problems.push(`webhook answers ${JSON.stringify(load.statuses)}`);
	if (done.length !== cfg.parallel || done.some((e) => e.status !== 'success')) {
		problems.push(`${done.length} executions finished (${done.map((e) => e.status).join(', ')}), expected ${cfg.parallel} successful`);
	}
	const ok = received.filter((r) => r.responseStatus === 200).length;
	if (received.length !== items.length || ok !== items.length) problems.push(`sandbox received ${received.length} sends (${ok} answered 200), expected ${items.length}`);
	return { itemsPerSecond: (items.length / (lastStop - t0)) * 1000, problems };
}

export async function runQueueBench(o: {
	single: N8nInstance;
	sandbox: SandboxProcess;
	recipients: string[];
	openWindows(): Promise<void>;
	cfg: QueueBenchConfig;
	outDir: string;
	log: (line: string) => void;
}): Promise<QueueBenchResult> {
	const { sandbox, cfg, log } = o;
	const t0 = Date.now();
	log('[bench] queue mode: starting PostgreSQL, Redis, main, 2 workers, 2 webhook processes');
	const cluster: QueueCluster = await startQueueCluster({ logDir: path.join(o.outDir, 'queue'), log });
	const clusterStartSeconds = Math.round((Date.now() - t0) / 1000);
	try {
		const single = await prepare('single mode (1 process)', o.single, sandbox);
		const queued = await prepare('queue mode', cluster.main, sandbox);
		const setups = ['single mode', 'queue mode, 2 workers', 'queue mode, 1 worker'];
		const runs = new Map<string, SetupRun[]>(setups.map((s) => [s, []]));
		const targetOf = (setup: string) => (setup === 'single mode' ? single : queued);

		log('[bench] queue mode: warm-up');
		await o.openWindows();
		for (const target of [single, queued]) {
			await runWebhook(target.n8n, { key: 'warm', label: 'warm-up', ...target.reply }, 20, cfg.concurrency, 0, `qwarm_${t0}`, inboundPayload(o.recipients));
			await parallelItems(target, sandbox, { ...cfg, items: 40 }, o.recipients);
		}

		const measure = async (setup: string, round: number) => {
			await o.openWindows();
			const target = targetOf(setup);
			const d = await deliveries(target, sandbox, cfg, o.recipients, `q${round}_${t0}_${setup.replace(/\W+/g, '')}`);
			const items = await parallelItems(target, sandbox, cfg, o.recipients);
			const problems = [...items.problems];
			if (!d.nothingLost) {
				const other = Object.entries(d.executions.other).map(([status, n]) => `${n} ${status}`);
				problems.push(`deliveries: ${d.executions.success} of ${cfg.deliveries} executions succeeded (${d.executions.total} finished${other.length ? `: ${other.join(', ')}` : ''}), answers ${JSON.stringify(d.statuses)}`);
			}
			if (d.replies !== cfg.deliveries) problems.push(`deliveries: ${d.replies} replies sent, expected ${cfg.deliveries}`);
			const run = { round, acceptedPerSecond: d.acceptedPerSecond, deliveriesPerSecond: d.processedPerSecond, itemsPerSecond: items.itemsPerSecond, problems };
			runs.get(setup)!.push(run);
			log(
				`[bench]   ${setup}: ${run.acceptedPerSecond.toFixed(1)} accepted/s, ${run.deliveriesPerSecond.toFixed(1)} deliveries/s replied, ` +
					`${run.itemsPerSecond.toFixed(0)} items/s${problems.length ? `  INVALID: ${problems.join('; ')}` : ''}`,
			);
		};
		for (let round = 1; round <= cfg.rounds; round++) {
			log(`[bench] queue mode: round ${round}/${cfg.rounds}`);
			// Odd rounds: single, 2 workers, (stop one) 1 worker. Even rounds: 1 worker, (start one) 2 workers, single.
			if (round % 2 === 1) {
				if (cluster.workers.length < 2) await cluster.startWorker();
				await measure('single mode', round);
				await measure('queue mode, 2 workers', round);
				await cluster.stopWorker();
				await measure('queue mode, 1 worker', round);
			} else {
				await measure('queue mode, 1 worker', round);
				await cluster.startWorker();
				await measure('queue mode, 2 workers', round);
				await measure('single mode', round);
			}
		}

		const rows: QueueBenchRow[] = setups.map((setup) => {
			const list = runs.get(setup)!;
			return {
				setup,
				acceptedPerSecond: median(list.map((r) => r.acceptedPerSecond)),
				deliveriesPerSecond: median(list.map((r) => r.deliveriesPerSecond)),
				itemsPerSecond: median(list.map((r) => r.itemsPerSecond)),
				allValid: list.every((r) => r.problems.length === 0),
				problems: list.flatMap((r) => r.problems.map((p) => `round ${r.round}: ${p}`)),
				runs: list,
			};
		});
		const base = rows[0];
		const ratios = Object.fromEntries(
			rows.slice(1).map((r) => [r.setup, { deliveries: r.deliveriesPerSecond / base.deliveriesPerSecond, items: r.itemsPerSecond / base.itemsPerSecond }]),
		);
		return { config: cfg, rows, ratios, clusterStartSeconds };
	} finally {
		await cluster.stop();
	}
}
