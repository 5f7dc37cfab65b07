/**
 * The parts "held-bursts" and "bursts" (issue 47): the Inbox Trigger's Messages in Quick
 * Succession → Gather Into One Run, in the bench's n8n (its default settings). Deliveries are
 * posted to the published triggers' Production URLs as the messaging service posts them; the
 * trigger's flush calls reach n8n itself, whose N8N_WEBHOOK_URL is its own address
 * (tools/n8n/server.ts). Customers write in bursts of 1 to K messages (a fixed pseudo-random
 * split, so every run sends the same), each customer's messages one after another (the next once
 * the previous was answered), W deliveries in flight among the customers.
 *
 *   held-bursts  n8n's Webhook node, deliveries processed per second, with N customers' bursts
 *                held by a gathering trigger in the same n8n (Quiet Time 600 s: held throughout)
 *                and without them, side by side in every round (which goes first alternates).
 *                Afterwards the held bursts are started (the trigger republished with a Quiet
 *                Time of 1 s: its create hook calls its own URL for each) and checked, so that
 *                no burst is held in the next run without them.
 *   bursts       the trigger gathering (Quiet Time S s): exactly N runs, each with its customer's
 *                messages in order, none lost, none twice, read from n8n's executions; and with
 *                the option off (the parameter absent, as in every existing workflow; and set to
 *                One Run Each) beside the trigger as it was before the option (beforeBursts.ts),
 *                the same deliveries, one run each.
 *
 * Every measured run starts right after a full garbage collection in n8n (heap.ts), as the send
 * runs do, so that no run pays for the garbage of the one before.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import type { N8nInstance } from '../n8n/instance';
import { queryN8nDatabase } from '../n8n/database';
import { waitFor } from '../shared/wait';
import { BURSTS_KEY } from '../../nodes/shared/chatAppMessaging/trigger/bursts';
import { MAX_LONGEST_WAIT_SECONDS } from '../../nodes/shared/chatAppMessaging/trigger/description';
import { BEFORE_BURSTS, BEFORE_BURSTS_COMMIT } from './beforeBursts';
import { log, type BenchContext, type BenchPart } from './context';
import type { N8nHeap } from './heap';
import { runSequences } from './load';
import { executionsAfter, isDone, median, newestExecutionId, runDeliveries, runWebhook, statusPayload, type WebhookRun } from './measure';
import type { BurstCheck, BurstRow, HeldBurstsResult } from './results';
import { inboundTriggerWorkflow, TRIGGER_NAME, webhookNodeWorkflow, type QuickMessages } from './workflows';
import type { WorkflowJson } from '../n8n/client';

/** The split's seed: issue 47. */
const SEED = 47;
/** The gathering trigger's Longest Wait in part "bursts": far above a burst's span, so that the Quiet Time alone ends a burst. */
const BURST_LONGEST_WAIT_SECONDS = 300;

// ---------------------------------------------------------------------------------------------
// The customers and their bursts

/** A small, seeded generator (mulberry32): the same numbers on every run. */
function seeded(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** `deliveries` messages split over `customers` bursts of 1 to `max` each, pseudo-randomly but always the same. */
export function burstSizes(customers: number, deliveries: number, max: number, seed = SEED): number[] {
	const random = seeded(seed);
	const sizes = Array.from({ length: customers }, () => 1 + Math.floor(random() * max));
	let total = sizes.reduce((a, b) => a + b, 0);
	while (total !== deliveries) {
		const i = Math.floor(random() * customers);
		if (total < deliveries && sizes[i] < max) {
			sizes[i]++;
			total++;
		} else if (total > deliveries && sizes[i] > 1) {
			sizes[i]--;
			total--;
		}
	}
	return sizes;
}

/** Who writes what: the customers' numbers and their bursts' sizes. */
interface Bursts {
	from: string[];
	sizes: number[];
	deliveries: number;
}

function customersOf(prefix: string, sizes: number[]): Bursts {
	return { from: sizes.map((_, c) => `${prefix}${String(c).padStart(4, '0')}`), sizes, deliveries: sizes.reduce((a, b) => a + b, 0) };
}

const messageId = (tag: string, c: number, i: number) => `msg_${tag}_c${c}_m${i}`;
const textOf = (c: number, i: number, size: number) => `Customer ${c + 1}, message ${i + 1} of ${size}`;

/** Message i of customer c's burst, as the messaging service posts an inbound message. */
function inboundMessage(bursts: Bursts, tag: string, c: number, i: number): object {
	return {
		event_type: 'message.inbound',
		message_id: messageId(tag, c, i),
		conversation_id: `conv_${bursts.from[c]}`,
		channel: 'chatapp',
		from: bursts.from[c],
		text: textOf(c, i, bursts.sizes[c]),
		timestamp: new Date().toISOString(),
	};
}

/** Every customer's burst to `url`, each in order, `concurrency` customers (so deliveries) at a time. */
async function sendBursts(url: string, bursts: Bursts, concurrency: number, tag: string) {
	return await runSequences(bursts.sizes, concurrency, (c, i) => ({ method: 'POST', url, body: inboundMessage(bursts, tag, c, i) }));
}

// ---------------------------------------------------------------------------------------------
// What the gathering trigger started, and what it holds

interface BurstItem {
	from?: string;
	text?: string;
	message_count?: number;
	messages?: Array<{ message_id?: string; text?: string }>;
}

/** The runs of a workflow after `afterId`, with the items its trigger output, oldest first. */
async function burstRunsAfter(n8n: N8nInstance, workflowId: string, afterId: number): Promise<Array<{ id: number; status: string; items: BurstItem[] }>> {
	const runs: Array<{ id: number; status: string; items: BurstItem[] }> = [];
	let cursor: string | undefined;
	for (;;) {
		const q = new URLSearchParams({ workflowId, includeData: 'true', limit: '100' });
		if (cursor) q.set('cursor', cursor);
		const res = await n8n.api('GET', `/executions?${q}`);
		const page: any[] = res.body.data ?? [];
		for (const execution of page) {
			if (Number(execution.id) <= afterId) return runs.reverse();
			const output: Array<{ json: BurstItem }> = execution.data?.resultData?.runData?.[TRIGGER_NAME]?.[0]?.data?.main?.[0] ?? [];
			runs.push({ id: Number(execution.id), status: String(execution.status), items: output.map((item) => item.json) });
		}
		cursor = res.body.nextCursor ?? undefined;
		if (!cursor || page.length === 0) return runs.reverse();
	}
}

/**
 * Whether the runs are exactly the bursts sent: one run per customer, its one item holding that
 * customer's messages in the order sent, their texts joined by newlines and counted; no message
 * lost, none in two runs.
 */
function checkBursts(round: number, runs: Array<{ id: number; status: string; items: BurstItem[] }>, bursts: Bursts, tag: string): BurstCheck {
	const problems: string[] = [];
	const expected = new Map(bursts.from.map((from, c) => [from, Array.from({ length: bursts.sizes[c] }, (_, i) => ({ id: messageId(tag, c, i), text: textOf(c, i, bursts.sizes[c]) }))]));
	const seen = new Map<string, number>();
	const runsOf = new Map<string, number>();
	let exact = 0;
	for (const run of runs) {
		if (run.status !== 'success') problems.push(`execution ${run.id} ended "${run.status}"`);
		if (run.items.length !== 1) problems.push(`execution ${run.id} output ${run.items.length} items, expected 1`);
		for (const item of run.items) {
			const ids = (item.messages ?? []).map((message) => String(message.message_id));
			for (const id of ids) seen.set(id, (seen.get(id) ?? 0) + 1);
			const from = String(item.from);
			runsOf.set(from, (runsOf.get(from) ?? 0) + 1);
			const want = expected.get(from);
			if (!want) {
				problems.push(`execution ${run.id}: a run for ${from}, who did not write`);
				continue;
			}
			const inOrder = ids.length === want.length && want.every((message, i) => ids[i] === message.id);
			const joined = want.map((message) => message.text).join('\n');
			if (inOrder && item.text === joined && item.message_count === want.length) exact++;
			else if (inOrder) problems.push(`execution ${run.id} (${from}): text or message_count not the burst's (${JSON.stringify(item.message_count)})`);
			else if (ids.length === want.length && [...ids].sort().join() === want.map((message) => message.id).sort().join()) problems.push(`execution ${run.id} (${from}): the messages out of order`);
		}
	}
	const everyId = [...expected.values()].flat().map((message) => message.id);
	const lost = everyId.filter((id) => !seen.has(id)).length;
	const twice = [...seen.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);
	const split = [...runsOf.values()].filter((n) => n > 1).length;
	if (lost) problems.push(`${lost} messages in no run`);
	if (twice) problems.push(`${twice} messages in a second run`);
	if (split) problems.push(`${split} customers' bursts started in more than one run (a gap of more than the Quiet Time between two of their messages?)`);
	if (runs.length !== bursts.from.length) problems.push(`${runs.length} runs, expected ${bursts.from.length}`);
	const ok = problems.length === 0 && exact === bursts.from.length;
	return { round, runs: runs.length, exact, lost, twice, split, ok, problems: problems.slice(0, 6) };
}

/** What the trigger's burst store holds in n8n's database: customers, messages, and the workflow's static data in bytes. */
async function heldInStore(n8n: N8nInstance, workflowId: string): Promise<{ customers: number; messages: number; bytes: number }> {
	const [row] = await queryN8nDatabase<{ staticData: string | null }>(n8n, 'SELECT "staticData" FROM workflow_entity WHERE id = $1', [workflowId]);
	const text = row?.staticData ?? null;
	if (!text) return { customers: 0, messages: 0, bytes: 0 };
	let customers = 0;
	let messages = 0;
	for (const nodeData of Object.values(JSON.parse(text) as Record<string, Record<string, any> | null>)) {
		const held = (nodeData?.[BURSTS_KEY]?.held ?? {}) as Record<string, unknown[]>;
		for (const list of Object.values(held)) {
			customers++;
			messages += Array.isArray(list) ? list.length : 0;
		}
	}
	return { customers, messages, bytes: Buffer.byteLength(text) };
}

/** Waits until the workflow has `expected` finished runs after `afterId` (or none more for `stallMs`), then `settleMs` more. */
async function runsSettled(n8n: N8nInstance, workflowId: string, afterId: number, expected: number, settleMs: number, stallMs = 30000): Promise<void> {
	let last = -1;
	let since = Date.now();
	await waitFor(
		`${expected} runs of workflow ${workflowId}`,
		async () => {
			const done = (await executionsAfter(n8n, workflowId, afterId)).filter(isDone).length;
			if (done >= expected) return true;
			if (done !== last) [last, since] = [done, Date.now()];
			return Date.now() - since > stallMs;
		},
		{ timeoutMs: Infinity, intervalMs: 250 },
	);
	await sleep(settleMs);
}

/** Until the trigger's webhook answers (right after a publication it can still be a 404): a delivery status it is not set to take, answered 200, starting nothing. */
async function untilListening(url: string, label: string): Promise<void> {
	let last = 0;
	await waitFor(
		() => `${label} to answer at ${url} (last: HTTP ${last})`,
		async () => {
			const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(statusPayload(`msg_probe_${Date.now()}`, 0)) });
			await res.text();
			last = res.status;
			return res.ok;
		},
		{ timeoutMs: 60000, intervalMs: 250 },
	);
}

/** The n8n the burst parts run in (--burst-settings): lazy isolate acquisition by default, else n8n's defaults. */
export function burstN8n(ctx: BenchContext): { n8n: N8nInstance; heap: N8nHeap } {
	if (ctx.cfg.burstSettings === 'defaults') return { n8n: ctx.n8n, heap: ctx.heap };
	if (!ctx.n8nLazy || !ctx.heapLazy) throw new Error('the burst parts run in the n8n with lazy isolate acquisition, which was not started');
	return { n8n: ctx.n8nLazy, heap: ctx.heapLazy };
}

// ---------------------------------------------------------------------------------------------
// Rows

interface Receiver {
	key: string;
	label: string;
	workflowId: string;
	url: string;
}

function rowOf(receiver: Pick<Receiver, 'key' | 'label'>, runs: WebhookRun[], expectedExecutions: number): BurstRow {
	return {
		key: receiver.key,
		label: receiver.label,
		processedPerSecond: median(runs.map((r) => r.processedPerSecond)),
		min: Math.min(...runs.map((r) => r.processedPerSecond)),
		max: Math.max(...runs.map((r) => r.processedPerSecond)),
		acceptedPerSecond: median(runs.map((r) => r.acceptedPerSecond)),
		p99Ms: median(runs.map((r) => r.p99Ms)),
		cpuMsPerDelivery: median(runs.map((r) => r.cpuMsPerDelivery)),
		expectedExecutions,
		executionsSucceeded: runs.map((r) => r.executions.success),
		nothingLost: runs.length > 0 && runs.every((r) => r.nothingLost),
		runs: runs.map((r) => ({ round: r.round, processedPerSecond: r.processedPerSecond, acceptedPerSecond: r.acceptedPerSecond, cpuMsPerDelivery: r.cpuMsPerDelivery, p99Ms: r.p99Ms })),
	};
}

const runLine = (label: string, r: WebhookRun, expected: number) =>
	`${label}: processed ${r.processedPerSecond.toFixed(1)}/s, ${r.acceptedPerSecond.toFixed(0)} accepted/s, p99 ${r.p99Ms.toFixed(0)} ms, ` +
	`n8n CPU ${r.cpuMsPerDelivery.toFixed(1)} ms/delivery, ${r.executions.success}/${expected} executions succeeded` +
	`${r.nothingLost ? '' : `  LOST/FAILED (answers ${JSON.stringify(r.statuses)}, executions ${r.executions.total})`}`;

// ---------------------------------------------------------------------------------------------
// Part "held-bursts"

/** n8n's Webhook node with and without N bursts held by a gathering trigger in the same n8n. */
export async function setUpHeldBurstPart(ctx: BenchContext): Promise<BenchPart> {
	const { cfg } = ctx;
	const { n8n, heap } = burstN8n(ctx);
	const bursts = customersOf('+1415557', burstSizes(cfg.burstCustomers, cfg.burstDeliveries, cfg.burstMax));
	const webhookPath = 'bench-held-bursts-webhook';
	const webhookId = await n8n.importWorkflow(webhookNodeWorkflow("Bench held bursts: n8n's Webhook node", webhookPath));
	await n8n.activate(webhookId);
	const webhook: Receiver = { key: 'webhook', label: "n8n's Webhook node (Respond: Immediately)", workflowId: webhookId, url: `${n8n.webhookBaseUrl}/${webhookPath}` };

	// The gathering trigger, republished with another Quiet Time keeping its node and webhook (its static data and URL).
	const holderJson = inboundTriggerWorkflow(`Bench held bursts: a trigger holding ${bursts.from.length} bursts`, {
		mode: 'gather',
		quietSeconds: cfg.heldQuietSeconds,
		longestWaitSeconds: MAX_LONGEST_WAIT_SECONDS,
	});
	const holderId = await n8n.importWorkflow(holderJson);
	await n8n.activate(holderId);
	const holderUrl = `${n8n.webhookBaseUrl}/${holderJson.nodes[0].webhookId}/chat-app`;
	const republish = async (quietSeconds: number) => {
		const json: WorkflowJson = JSON.parse(JSON.stringify(holderJson));
		json.id = holderId;
		json.nodes[0].parameters.quietSeconds = quietSeconds;
		await n8n.deactivate(holderId);
		await n8n.importWorkflow(json);
		await n8n.activate(holderId);
		await untilListening(holderUrl, 'the gathering trigger');
	};

	const runs = { without: [] as WebhookRun[], with: [] as WebhookRun[] };
	const fills: HeldBurstsResult['fills'] = [];
	const releases: BurstCheck[] = [];
	const problems: string[] = [];

	/** The bursts sent to the trigger (Quiet Time 600 s: all held); returns its newest execution before them. */
	const fill = async (round: number, tag: string) => {
		const before = await newestExecutionId(n8n, holderId);
		const load = await sendBursts(holderUrl, bursts, cfg.webhookConcurrency, tag);
		if (load.ok !== bursts.deliveries) problems.push(`round ${round}: ${load.ok} of ${bursts.deliveries} messages to the gathering trigger answered 2xx (${JSON.stringify(load.statuses)})`);
		log(`[bench]   held bursts: ${bursts.deliveries} messages from ${bursts.from.length} customers held (${load.perSecond.toFixed(0)} answered/s, answers ${JSON.stringify(load.statuses)})`);
		return { before, load };
	};
	/** Starts the held bursts (a Quiet Time of 1 s: the create hook calls the trigger's URL for each), checks them, and holds again with the long Quiet Time. */
	const release = async (round: number, tag: string) => {
		const before = await newestExecutionId(n8n, holderId);
		await republish(1);
		await runsSettled(n8n, holderId, before, bursts.from.length, 3000);
		const check = checkBursts(round, await burstRunsAfter(n8n, holderId, before), bursts, tag);
		const left = await heldInStore(n8n, holderId);
		if (left.customers) {
			check.ok = false;
			check.problems.push(`${left.customers} bursts still held after their release`);
		}
		releases.push(check);
		log(`[bench]   held bursts released: ${check.runs} runs, ${check.exact} exactly one customer's burst in order, ${check.lost} lost, ${check.twice} twice${check.ok ? '' : `  FAILED: ${check.problems.join('; ')}`}`);
		await republish(cfg.heldQuietSeconds);
	};

	return {
		async warmUp() {
			let attempt = 0;
			let last: WebhookRun | undefined;
			await waitFor(
				() => `${webhook.label}: warm-up deliveries without loss (last answers: ${JSON.stringify(last?.statuses)})`,
				async () => {
					last = await runWebhook(n8n, webhook, 50, cfg.webhookConcurrency, 0, `heldwarm${attempt++}`);
					return last.nothingLost;
				},
				{ timeoutMs: 60000, intervalMs: 1000 },
			);
			await untilListening(holderUrl, 'the gathering trigger');
		},
		async round(round) {
			// Which goes first alternates: without them in odd rounds, with them in even ones.
			for (const which of round % 2 === 1 ? (['without', 'with'] as const) : (['with', 'without'] as const)) {
				const tag = `held_r${round}_${ctx.started}`;
				const filled = which === 'with' ? await fill(round, tag) : undefined;
				await heap.collectGarbage();
				const run = await runWebhook(n8n, webhook, cfg.deliveries, cfg.webhookConcurrency, round, `held_${which}_r${round}_${ctx.started}`);
				runs[which].push(run);
				log(`[bench]   held bursts: ${runLine(`${webhook.label}, ${which} ${bursts.from.length} bursts held`, run, cfg.deliveries)}`);
				if (filled) {
					// Held all through the Webhook node's run: nothing started, all still in the store.
					const held = await heldInStore(n8n, holderId);
					const startedWhileHeld = (await executionsAfter(n8n, holderId, filled.before)).length;
					fills.push({ round, acceptedPerSecond: filled.load.perSecond, answered: filled.load.ok, heldCustomers: held.customers, heldMessages: held.messages, staticDataBytes: held.bytes, startedWhileHeld });
					if (startedWhileHeld) problems.push(`round ${round}: ${startedWhileHeld} runs of the gathering trigger started while its bursts were to be held`);
					if (held.customers !== bursts.from.length || held.messages !== bursts.deliveries) {
						problems.push(`round ${round}: the trigger held ${held.customers} bursts (${held.messages} messages) after the Webhook node's run, expected ${bursts.from.length} (${bursts.deliveries})`);
					}
					log(`[bench]   held bursts: after the run the store held ${held.customers} bursts, ${held.messages} messages, static data ${held.bytes} bytes; ${startedWhileHeld} runs started meanwhile`);
					await release(round, tag);
				}
			}
		},
		report(results) {
			results.heldBursts = heldResult();
		},
	};

	function heldResult(): HeldBurstsResult {
		const perRound = runs.with.map((w, i) => (runs.without[i] ? w.processedPerSecond / runs.without[i].processedPerSecond : NaN));
		const rows = [
			rowOf({ key: 'without', label: `${webhook.label}, no burst held` }, runs.without, cfg.deliveries),
			rowOf({ key: 'with', label: `${webhook.label}, ${bursts.from.length} bursts (${bursts.deliveries} messages) held by a gathering trigger` }, runs.with, cfg.deliveries),
		];
		const allProblems = [
			...problems,
			...releases.filter((r) => !r.ok).map((r) => `round ${r.round}, the held bursts started afterwards: ${r.problems.join('; ')}`),
			...rows.filter((r) => !r.nothingLost).map((r) => `${r.label}: deliveries lost or failed (successful executions per round ${r.executionsSucceeded.join(', ')} of ${cfg.deliveries})`),
		];
		return {
			settings: cfg.burstSettings,
			customers: bursts.from.length,
			messages: bursts.deliveries,
			quietSeconds: cfg.heldQuietSeconds,
			deliveries: cfg.deliveries,
			concurrency: cfg.webhookConcurrency,
			rows,
			perRound,
			ratio: median(perRound),
			fills,
			releases,
			allValid: allProblems.length === 0 && runs.with.length > 0,
			problems: allProblems,
		};
	}
}

// ---------------------------------------------------------------------------------------------
// Part "bursts"

interface BurstReceiver extends Receiver {
	/** Gathers bursts: one run per customer. */
	gathers: boolean;
}

/** Gather Into One Run, checked run by run; the option off beside the trigger before the option. */
export async function setUpBurstPart(ctx: BenchContext): Promise<BenchPart> {
	const { cfg } = ctx;
	const { n8n, heap } = burstN8n(ctx);
	const bursts = customersOf('+1415556', burstSizes(cfg.burstCustomers, cfg.burstDeliveries, cfg.burstMax));
	const receivers: BurstReceiver[] = [];
	const add = async (key: string, label: string, quick: QuickMessages, nodeType?: string) => {
		const json = inboundTriggerWorkflow(`Bench bursts: ${label}`, quick, nodeType);
		const workflowId = await n8n.importWorkflow(json);
		await n8n.activate(workflowId);
		receivers.push({ key, label, workflowId, url: `${n8n.webhookBaseUrl}/${json.nodes[0].webhookId}/chat-app`, gathers: quick.mode === 'gather' });
	};
	// In this order in odd rounds, reversed in even ones: the option off (absent) and the trigger
	// before the option always one right after the other, which goes first alternating.
	await add('gather', `this trigger, Gather Into One Run (Quiet Time ${cfg.burstQuietSeconds} s)`, {
		mode: 'gather',
		quietSeconds: cfg.burstQuietSeconds,
		longestWaitSeconds: BURST_LONGEST_WAIT_SECONDS,
	});
	await add('absent', 'this trigger, option off (parameter absent, as in every existing workflow)', { mode: 'absent' });
	const before = ctx.beforeBursts ?? { installed: false as const, missing: 'not packed' };
	if (before.installed) await add('before', BEFORE_BURSTS.label, { mode: 'absent' }, BEFORE_BURSTS.nodeType);
	else log(`[bench]   bursts: the trigger before the option is left out: ${before.missing}`);
	await add('each', 'this trigger, option off (One Run Each set)', { mode: 'each' });

	const runsByKey = new Map<string, WebhookRun[]>(receivers.map((r) => [r.key, []]));
	const checks: BurstCheck[] = [];
	const quietMs = cfg.burstQuietSeconds * 1000;
	const measure = async (r: BurstReceiver, round: number, set: Bursts, tag: string, { settle = true, concurrency = cfg.webhookConcurrency } = {}) =>
		await runDeliveries(n8n, r, {
			deliveries: set.deliveries,
			executions: r.gathers ? set.from.length : set.deliveries,
			round,
			send: async () => await sendBursts(r.url, set, concurrency, tag),
			// A gathering trigger: its last runs start a Quiet Time after the last message; then a
			// while more, so that a burst started twice (or late) is seen.
			settleMs: r.gathers && settle ? quietMs + 3000 : 0,
			stallMs: 20000 + (r.gathers ? quietMs : 0),
		});

	return {
		async warmUp() {
			const small = customersOf('+1415558', [2, 1]);
			for (const r of receivers) {
				let attempt = 0;
				let last: WebhookRun | undefined;
				await waitFor(
					() => `${r.label}: warm-up deliveries without loss (last answers: ${JSON.stringify(last?.statuses)})`,
					async () => {
						// The first time one delivery at a time: the first deliveries to a trigger that has
						// never gathered each make the store's key, and a flush call with a key another
						// call's save replaced is refused (the burst then waits for the next delivery).
						last = await measure(r, 0, small, `burstwarm${attempt}_${r.key}_${ctx.started}`, { settle: false, concurrency: attempt++ === 0 ? 1 : cfg.webhookConcurrency });
						return last.nothingLost;
					},
					{ timeoutMs: 90000, intervalMs: 1000 },
				);
			}
		},
		async round(round) {
			for (const r of round % 2 === 1 ? receivers : [...receivers].reverse()) {
				const tag = `burst_r${round}_${r.key}_${ctx.started}`;
				await heap.collectGarbage();
				const run = await measure(r, round, bursts, tag);
				runsByKey.get(r.key)!.push(run);
				let checked = '';
				if (r.gathers) {
					const check = checkBursts(round, await burstRunsAfter(n8n, r.workflowId, run.executionsAfterId), bursts, tag);
					checks.push(check);
					checked = `; ${check.runs} runs, ${check.exact} exactly one customer's burst in order, ${check.lost} lost, ${check.twice} twice, ${check.split} split${check.ok ? '' : `  FAILED: ${check.problems.join('; ')}`}`;
				}
				log(`[bench]   bursts: ${runLine(r.label, run, r.gathers ? bursts.from.length : bursts.deliveries)}${checked}`);
			}
		},
		async report(results) {
			const rows = receivers.map((r) => rowOf(r, runsByKey.get(r.key)!, r.gathers ? bursts.from.length : bursts.deliveries));
			/** a / b per round, of processed/s (or of CPU per delivery), from runs side by side. */
			const perRound = (a: string, b: string, of: (run: WebhookRun) => number = (run) => run.processedPerSecond) =>
				Array.from({ length: cfg.rounds }, (_, i) => {
					const ra = runsByKey.get(a)?.[i];
					const rb = runsByKey.get(b)?.[i];
					return ra && rb ? of(ra) / of(rb) : NaN;
				});
			const gather = receivers.find((r) => r.gathers)!;
			const problems = [
				...checks.filter((c) => !c.ok).map((c) => `round ${c.round}, the gathering trigger's runs: ${c.problems.join('; ')}`),
				...rows.filter((r) => !r.nothingLost).map((r) => `${r.label}: deliveries lost or failed (successful executions per round ${r.executionsSucceeded.join(', ')} of ${r.expectedExecutions})`),
			];
			results.bursts = {
				settings: cfg.burstSettings,
				customers: bursts.from.length,
				deliveries: bursts.deliveries,
				burstMax: cfg.burstMax,
				sizes: { min: Math.min(...bursts.sizes), max: Math.max(...bursts.sizes) },
				quietSeconds: cfg.burstQuietSeconds,
				longestWaitSeconds: BURST_LONGEST_WAIT_SECONDS,
				concurrency: cfg.webhookConcurrency,
				rows,
				checks,
				perRound: {
					absentOverBefore: perRound('absent', 'before'),
					eachOverBefore: perRound('each', 'before'),
					eachOverAbsent: perRound('each', 'absent'),
					gatherOverAbsent: perRound('gather', 'absent'),
					cpuAbsentOverBefore: perRound('absent', 'before', (run) => run.cpuMsPerDelivery),
				},
				offTarget: before.installed ? 'absentOverBefore' : 'eachOverAbsent',
				before: { installed: before.installed, missing: before.installed ? undefined : before.missing, commit: BEFORE_BURSTS_COMMIT },
				staticDataBytesAfter: (await heldInStore(n8n, gather.workflowId)).bytes,
				gatherValid: checks.length > 0 && checks.every((c) => c.ok) && rows.find((r) => r.key === 'gather')!.nothingLost,
				allValid: problems.length === 0 && checks.length > 0,
				problems,
			};
		},
	};
}
