/** The bench's settings: flags or environment variables (`npm run bench -- --help`). */
import * as path from 'node:path';

import { MAX_BURST_MESSAGES } from '../../nodes/shared/chatAppMessaging/trigger/bursts';
import { MAX_QUIET_SECONDS } from '../../nodes/shared/chatAppMessaging/trigger/description';
import { ARTIFACTS_DIR } from '../n8n/runtime';

/** The parts `--only` chooses from, in the order they run. */
export const PARTS = ['sends', 'timeline', 'polling', 'webhooks', 'held-bursts', 'bursts', 'sandbox', 'secrets', 'queue'];

export interface Config {
	items: number;
	deliveries: number;
	rounds: number;
	concurrency: number;
	webhookConcurrency: number;
	/** Deliveries sent to each trigger with its repeat memory on before the rounds, to fill it. */
	webhookPrefill: number;
	/** Deliveries per queue-mode run (part "queue"). */
	queueDeliveries: number;
	/** Executions the items are split over in the queue-mode part. */
	queueParallel: number;
	/** Part "polling": events in the trigger's Look Back window, new ones before each poll, polls per round. */
	pollEvents: number;
	pollNew: number;
	polls: number;
	recipients: number;
	/**
	 * Parts "bursts" and "held-bursts" (bursts.ts): customers, their inbound messages in all, the
	 * largest burst (a fixed pseudo-random split, 1 to burstMax each), the Quiet Time of the
	 * gathering run, and the Quiet Time that keeps the held bursts held while n8n's Webhook node
	 * is measured beside them.
	 */
	burstCustomers: number;
	burstDeliveries: number;
	burstMax: number;
	burstQuietSeconds: number;
	heldQuietSeconds: number;
	/** The n8n the two burst parts run in: lazy isolate acquisition (default) or n8n's default settings. */
	burstSettings: 'lazy' | 'defaults';
	only: Set<string>;
	/** Webhook receivers to run (keys), all by default: for profiling one at a time. */
	webhookVariants?: Set<string>;
	profile: boolean;
	/** Sample what each send run allocates in n8n (heap.ts). */
	heapProfile: boolean;
	/** N8N_EXPRESSION_ENGINE for n8n (default: n8n's own default, 'vm' in 2.41). */
	expressionEngine?: string;
	/**
	 * A smoke run (CI): one round, small counts (SMOKE), every target printed but none judged;
	 * it fails only when a part cannot run or a run's checks fail. Writes to .artifacts/bench-smoke/.
	 */
	smoke: boolean;
	outDir: string;
}

/**
 * The counts of a smoke run (--smoke), where the flags give none: enough for every path of every
 * part to run once and be checked, too few for any figure to mean much.
 */
export const SMOKE = {
	rounds: 1,
	items: 100,
	deliveries: 40,
	webhookPrefill: 40,
	queueDeliveries: 20,
	queueParallel: 2,
	pollEvents: 200,
	pollNew: 10,
	polls: 2,
	burstCustomers: 4,
	burstDeliveries: 12,
	burstMax: 5,
};

export const HELP = `npm run bench [-- options]    (each option also as an environment variable)
  --items=N                 BENCH_ITEMS                items per send execution (2000)
  --deliveries=M            BENCH_DELIVERIES           webhook deliveries per run (1000)
  --rounds=R                BENCH_ROUNDS               rounds; medians are reported (3)
  --concurrency=C           BENCH_CONCURRENCY          requests in flight for the plain loop, and the
                                                       node's default it is compared with (10)
  --webhook-concurrency=W   BENCH_WEBHOOK_CONCURRENCY  deliveries in flight (20)
  --webhook-prefill=P       BENCH_WEBHOOK_PREFILL      deliveries that fill each trigger's repeat memory before
                                                       the rounds (3000: every round runs with 3,000+ events
                                                       remembered; 0 shows it filling from empty)
  --queue-deliveries=Q      BENCH_QUEUE_DELIVERIES     deliveries per run in the queue part (400)
  --queue-parallel=P        BENCH_QUEUE_PARALLEL       executions the items are split over there (4)
  --poll-events=N           BENCH_POLL_EVENTS          events in the Timeline Navigation Events Trigger's window (10000)
  --poll-new=K              BENCH_POLL_NEW             of them new before each poll (10)
  --polls=P                 BENCH_POLLS                polls per round, each beside one Event → Monitor call (10)
  --burst-customers=N       BENCH_BURST_CUSTOMERS      parts bursts and held-bursts: customers writing (100)
  --burst-deliveries=M      BENCH_BURST_DELIVERIES     their inbound messages in all (1000), split into one burst
  --burst-max=K             BENCH_BURST_MAX            per customer of 1 to K messages (20), a fixed pseudo-random split
  --burst-quiet=S           BENCH_BURST_QUIET          the gathering trigger's Quiet Time in part bursts, seconds (2)
  --held-quiet=S            BENCH_HELD_QUIET           the Quiet Time that keeps the bursts held in part held-bursts (600)
  --burst-settings=lazy     BENCH_BURST_SETTINGS       the n8n of both burst parts: lazy (N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true,
                                                       the default) or defaults (n8n's default settings)
  --only=sends,timeline,polling,webhooks,held-bursts,bursts,sandbox,secrets,queue  BENCH_ONLY  parts to run
                                                       (all; queue: single mode vs queue mode with 2 and 1 workers,
                                                       ~16 min; held-bursts: n8n's Webhook node with and without
                                                       bursts held; bursts: Gather Into One Run, and the option off
                                                       against the trigger before it)
  --webhook-variants=LIST    BENCH_WEBHOOK_VARIANTS     receivers to run, of trigger, webhook (n8n's defaults),
                                                       triggerLazy, webhookLazy (lazy isolate acquisition),
                                                       triggerNoDedupe, triggerNoDedupeLazy (default: all)
  --expression-engine=E     BENCH_EXPRESSION_ENGINE    n8n's N8N_EXPRESSION_ENGINE (vm, legacy; default:
                                                       n8n's default, vm in 2.41)
  --profile                 BENCH_PROFILE=1            write n8n's CPU profile (--cpu-prof) under
                                                       .artifacts/bench/profile/ and summarise it
  --heap-profile            BENCH_HEAP_PROFILE=1       sample what n8n allocates during each send run (V8's sampling
                                                       heap profiler) into .artifacts/bench/heap/ and summarise it
                                                       in heap-profile.md
  --smoke                   BENCH_SMOKE=1              a smoke run (CI): every part that --only names (all by
                                                       default), 1 round, ${SMOKE.items} items, ${SMOKE.deliveries} deliveries (prefill ${SMOKE.webhookPrefill}),
                                                       queue ${SMOKE.queueDeliveries} deliveries and ${SMOKE.items} items in ${SMOKE.queueParallel} executions, ${SMOKE.pollEvents} events
                                                       polled ${SMOKE.polls} times, ${SMOKE.burstDeliveries} messages from ${SMOKE.burstCustomers} customers
                                                       in bursts of 1 to ${SMOKE.burstMax} (flags given still count); prints the figures
                                                       and judges no target; fails only when a part cannot run or a
                                                       run's checks fail. Writes to .artifacts/bench-smoke/`;

export function readConfig(argv: string[]): Config {
	const flags = new Map<string, string>();
	for (const arg of argv) {
		if (arg === '--help' || arg === '-h') {
			console.log(HELP);
			process.exit(0);
		}
		const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
		if (!m) throw new Error(`unknown argument ${arg}\n${HELP}`);
		flags.set(m[1], m[2] ?? 'true');
	}
	const pick = (flag: string, env: string, def: string) => flags.get(flag) ?? process.env[env] ?? def;
	const smoke = /^(1|true|yes)$/i.test(pick('smoke', 'BENCH_SMOKE', 'false'));
	/** A count's default: the full run's, or the smoke run's. */
	const count = (full: number, small: number) => (smoke ? small : full);
	const int = (flag: string, env: string, def: number, min = 1) => {
		const raw = pick(flag, env, String(def));
		const n = Number(raw);
		if (!Number.isInteger(n) || n < min) throw new Error(`--${flag} / ${env} must be a whole number >= ${min}, got "${raw}"`);
		return n;
	};
	const only = pick('only', 'BENCH_ONLY', PARTS.join(','))
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);
	for (const part of only) {
		if (!PARTS.includes(part)) throw new Error(`--only: unknown part "${part}"`);
	}
	const pollEvents = int('poll-events', 'BENCH_POLL_EVENTS', count(10000, SMOKE.pollEvents));
	const pollNew = int('poll-new', 'BENCH_POLL_NEW', count(10, SMOKE.pollNew));
	if (pollNew >= pollEvents) throw new Error(`--poll-new (${pollNew}) must be fewer than --poll-events (${pollEvents})`);
	const burstCustomers = int('burst-customers', 'BENCH_BURST_CUSTOMERS', count(100, SMOKE.burstCustomers));
	const burstDeliveries = int('burst-deliveries', 'BENCH_BURST_DELIVERIES', count(1000, SMOKE.burstDeliveries));
	// The trigger starts a burst of 50 messages at once (MAX_BURST_MESSAGES): bursts stay below it.
	const burstMax = int('burst-max', 'BENCH_BURST_MAX', count(20, SMOKE.burstMax));
	if (burstMax >= MAX_BURST_MESSAGES) throw new Error(`--burst-max (${burstMax}) must be below ${MAX_BURST_MESSAGES}, where the trigger starts a burst at once`);
	if (burstDeliveries < burstCustomers || burstDeliveries > burstCustomers * burstMax) {
		throw new Error(`--burst-deliveries (${burstDeliveries}) must lie between --burst-customers (${burstCustomers}) and ${burstCustomers} x --burst-max (${burstMax})`);
	}
	const burstQuietSeconds = int('burst-quiet', 'BENCH_BURST_QUIET', 2);
	const heldQuietSeconds = int('held-quiet', 'BENCH_HELD_QUIET', 600);
	if (burstQuietSeconds > MAX_QUIET_SECONDS || heldQuietSeconds > MAX_QUIET_SECONDS) throw new Error(`--burst-quiet and --held-quiet: at most ${MAX_QUIET_SECONDS} (the trigger's limit)`);
	const burstSettings = pick('burst-settings', 'BENCH_BURST_SETTINGS', 'lazy');
	if (burstSettings !== 'lazy' && burstSettings !== 'defaults') throw new Error(`--burst-settings: lazy or defaults, got "${burstSettings}"`);
	return {
		items: int('items', 'BENCH_ITEMS', count(2000, SMOKE.items)),
		deliveries: int('deliveries', 'BENCH_DELIVERIES', count(1000, SMOKE.deliveries)),
		rounds: int('rounds', 'BENCH_ROUNDS', count(3, SMOKE.rounds)),
		concurrency: int('concurrency', 'BENCH_CONCURRENCY', 10),
		webhookConcurrency: int('webhook-concurrency', 'BENCH_WEBHOOK_CONCURRENCY', 20),
		webhookPrefill: int('webhook-prefill', 'BENCH_WEBHOOK_PREFILL', count(3000, SMOKE.webhookPrefill), 0),
		queueDeliveries: int('queue-deliveries', 'BENCH_QUEUE_DELIVERIES', count(400, SMOKE.queueDeliveries)),
		queueParallel: int('queue-parallel', 'BENCH_QUEUE_PARALLEL', count(4, SMOKE.queueParallel)),
		pollEvents,
		pollNew,
		polls: int('polls', 'BENCH_POLLS', count(10, SMOKE.polls)),
		recipients: 50,
		burstCustomers,
		burstDeliveries,
		burstMax,
		burstQuietSeconds,
		heldQuietSeconds,
		burstSettings,
		only: new Set(only),
		webhookVariants: new Set(
			pick('webhook-variants', 'BENCH_WEBHOOK_VARIANTS', 'trigger,webhook,triggerNoDedupe,triggerLazy,webhookLazy,triggerNoDedupeLazy')
				.split(',')
				.map((s) => s.trim()),
		),
		expressionEngine: pick('expression-engine', 'BENCH_EXPRESSION_ENGINE', '') || undefined,
		profile: /^(1|true|yes)$/i.test(pick('profile', 'BENCH_PROFILE', 'false')),
		heapProfile: /^(1|true|yes)$/i.test(pick('heap-profile', 'BENCH_HEAP_PROFILE', 'false')),
		smoke,
		outDir: path.join(ARTIFACTS_DIR, smoke ? 'bench-smoke' : 'bench'),
	};
}
