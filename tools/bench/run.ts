/**
 * `npm run bench`: this package against what a user would use instead, side by side in one
 * run, in a real n8n (tools/n8n), against the sandbox (in its own process).
 *
 *   Sends     N items in one execution: this node (its expression path and its fastest
 *             documented path) vs the ceiling (tools/bench/ceiling: the least any node can do
 *             inside n8n) vs n8n's HTTP Request node (generic Bearer credential) vs a plain
 *             client loop outside n8n (keep-alive, and a new connection per request as n8n
 *             makes them). Text messages and one timeline operation (Time → Fast-Forward).
 *   Webhooks  M deliveries at a fixed concurrency: this trigger vs n8n's Webhook node (both
 *             answering at once), in an n8n with its default settings and in a second one
 *             with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true; every execution counted through
 *             the public API.
 *   Polling   the Timeline Navigation Events Trigger's poll over 10,000 events, 10 of them new, vs one
 *             Event → Monitor call over the same window, in n8n-core's PollContext and execution
 *             engine in a process of their own; the bytes of its memory in the real n8n's static
 *             data (polling.ts).
 *   Bursts    the trigger's Messages in Quick Succession → Gather Into One Run (bursts.ts):
 *             n8n's Webhook node with and without 100 bursts held beside it ("held-bursts"), and
 *             1,000 messages from 100 customers gathered into exactly 100 runs, with the option
 *             off beside the trigger before the option (beforeBursts.ts) ("bursts").
 *   Sandbox   the sandbox alone at the same concurrencies.
 *   Memory    peak VmRSS of n8n's main process and its task runner during each run (a send run
 *             starts from a collected heap: heap.ts), and the trigger's workflow static data
 *             after the run; with --heap-profile, what each send run allocates, and where.
 *   Queue     the same workloads in single mode and in queue mode with 2 and 1 workers
 *             (queue.ts).
 *
 * Variants alternate within a round (the order rotates each round) and the report gives
 * medians over the rounds. Settings: flags or environment (config.ts, --help).
 * Writes .artifacts/bench/results.json and results.md. With --smoke (CI): one round, small
 * counts, into .artifacts/bench-smoke/; no target judged, and it fails when a part cannot run
 * or a run's checks fail (targets.ts, failedChecks).
 *
 * This is the one entry point: it reads the settings, starts the services (context.ts), and
 * runs the parts (sends.ts, polling.ts, sandboxAlone.ts, webhooks.ts, bursts.ts, queue.ts) and the verdict (targets.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { ensureRuntime } from '../n8n/runtime';
import { setUpBurstPart, setUpHeldBurstPart } from './bursts';
import { readConfig } from './config';
import { emptyResults, log, startBench, stopServices, type BenchPart, type Services } from './context';
import { heapProfileDir, summariseHeapProfiles } from './heap';
import { startSandboxProcess } from './measure';
import { setUpPollingPart } from './polling';
import { runQueueBench } from './queue';
import { renderMarkdown, renderTable } from './report';
import { sandboxAlonePart } from './sandboxAlone';
import { setUpSendPart } from './sends';
import { failedChecks, judge } from './targets';
import { setUpWebhookPart } from './webhooks';

async function main(): Promise<void> {
	const cfg = readConfig(process.argv.slice(2));
	fs.mkdirSync(cfg.outDir, { recursive: true });
	const started = Date.now();
	log(
		`[bench] items=${cfg.items} deliveries=${cfg.deliveries} rounds=${cfg.rounds} concurrency=${cfg.concurrency} ` +
			`webhookConcurrency=${cfg.webhookConcurrency} parts=${[...cfg.only].join(',')}` +
			`${cfg.expressionEngine ? ` expressionEngine=${cfg.expressionEngine}` : ''}${cfg.profile ? ' profile' : ''}${cfg.heapProfile ? ' heap-profile' : ''}`,
	);
	const runtime = await ensureRuntime({ log });

	const sandbox = await startSandboxProcess();
	log(`[bench] sandbox at ${sandbox.url} (pid ${sandbox.pid})`);
	const services: Services = { sandbox };
	let interrupted = false;
	const onSignal = () => {
		if (interrupted) return;
		interrupted = true;
		log('[bench] interrupted: stopping n8n and the sandbox');
		void stopServices(services).then(() => process.exit(130));
	};
	process.on('SIGINT', onSignal);
	process.on('SIGTERM', onSignal);

	const profileDir = path.join(cfg.outDir, 'profile');
	if (cfg.heapProfile) {
		fs.rmSync(heapProfileDir(cfg), { recursive: true, force: true });
		fs.mkdirSync(heapProfileDir(cfg), { recursive: true });
	}
	try {
		const ctx = await startBench(cfg, services, profileDir, started);
		const results = emptyResults(cfg, runtime);

		// Each part's own time (set-up, warm-up, rounds, report), for the smoke run's accounting.
		const seconds = new Map<string, number>();
		const timed = async <T>(name: string, step: () => T | Promise<T>): Promise<T> => {
			const t0 = Date.now();
			try {
				return await step();
			} finally {
				seconds.set(name, (seconds.get(name) ?? 0) + (Date.now() - t0) / 1000);
			}
		};

		// Set up in this order, measured in this order within each round.
		const parts: Array<{ name: string; part: BenchPart }> = [];
		const setUp = async (name: string, make: () => BenchPart | Promise<BenchPart>) => parts.push({ name, part: await timed(name, make) });
		if (cfg.only.has('sends')) await setUp('sends', () => setUpSendPart(ctx, 'sends'));
		if (cfg.only.has('timeline')) await setUp('timeline', () => setUpSendPart(ctx, 'timeline'));
		if (cfg.only.has('polling')) await setUp('polling', () => setUpPollingPart(ctx));
		if (cfg.only.has('sandbox')) await setUp('sandbox', () => sandboxAlonePart(ctx));
		if (cfg.only.has('webhooks')) await setUp('webhooks', () => setUpWebhookPart(ctx));
		if (cfg.only.has('held-bursts')) await setUp('held-bursts', () => setUpHeldBurstPart(ctx));
		if (cfg.only.has('bursts')) await setUp('bursts', () => setUpBurstPart(ctx));

		// Every path once (JIT, connections); the first call right after activation can meet a 404.
		log('[bench] warm-up');
		await sleep(1000);
		for (const { name, part } of parts) await timed(name, () => part.warmUp());

		for (let round = 1; round <= cfg.rounds; round++) {
			log(`[bench] round ${round}/${cfg.rounds}`);
			await ctx.openWindows();
			for (const { name, part } of parts) await timed(name, () => part.round(round));
		}
		for (const { name, part } of parts) await timed(name, () => part.report(results));
		for (const { part } of parts) await part.close?.();

		// Queue mode: the same workloads in single mode and queue mode, side by side.
		if (cfg.only.has('queue')) {
			results.queue = await timed('queue', () => runQueueBench({
				single: ctx.n8n,
				sandbox,
				recipients: ctx.recipients,
				openWindows: ctx.openWindows,
				cfg: {
					deliveries: cfg.queueDeliveries,
					concurrency: cfg.webhookConcurrency,
					items: cfg.items,
					parallel: cfg.queueParallel,
					rounds: cfg.rounds,
				},
				outDir: cfg.outDir,
				log,
			}));
		}
		results.partSeconds = Object.fromEntries([...seconds].map(([name, s]) => [name, Math.round(s)]));
		log(`[bench] each part's own time (set-up, warm-up, rounds; n8n's start apart): ${[...seconds].map(([name, s]) => `${name} ${Math.round(s)} s`).join(', ')}`);

		judge(results, cfg);
		results.durationSeconds = Math.round((Date.now() - started) / 1000);

		fs.writeFileSync(path.join(cfg.outDir, 'results.json'), JSON.stringify(results, null, 2) + '\n');
		fs.writeFileSync(path.join(cfg.outDir, 'results.md'), renderMarkdown(results));
		console.log(renderTable(results));
		log(`[bench] wrote ${path.relative(process.cwd(), path.join(cfg.outDir, 'results.json'))} and results.md in ${results.durationSeconds} s`);
		if (cfg.smoke) {
			// A smoke run judges no target; it fails when a part did not run or a run's checks failed.
			const failed = failedChecks(results, cfg);
			for (const line of failed) log(`[bench] smoke: FAILED ${line}`);
			log(failed.length ? `[bench] smoke: ${failed.length} check(s) failed` : `[bench] smoke: every part ran (${[...cfg.only].join(', ')}), every run's checks passed; no target judged`);
			if (failed.length) process.exitCode = 1;
		}
	} finally {
		process.off('SIGINT', onSignal);
		process.off('SIGTERM', onSignal);
		await stopServices(services);
	}
	if (cfg.heapProfile) {
		const summary = summariseHeapProfiles(heapProfileDir(cfg), cfg.items);
		fs.writeFileSync(path.join(cfg.outDir, 'heap-profile.md'), summary);
		console.log(summary);
	}
	if (cfg.profile) {
		const { summariseProfiles } = await import('./profile');
		const summary = summariseProfiles(profileDir);
		fs.writeFileSync(path.join(cfg.outDir, 'profile.md'), summary);
		console.log(summary);
	}
}

main().catch((err) => {
	console.error(err instanceof Error ? err.stack ?? err.message : err);
	process.exit(1);
});
