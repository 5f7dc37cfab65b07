/**
 * The "sandbox" part: the sandbox alone at the concurrencies the other parts use (a plain
 * client loop, no n8n involved), so a reader sees what the service emulator itself allows.
 */
import { log, type BenchContext, type BenchPart } from './context';
import type { LoadResult } from './load';
import { median, messageItems, runPlainSend } from './measure';
import { textMessageBody } from './sends';

export function sandboxAlonePart(ctx: BenchContext): BenchPart {
	const { cfg, sandbox } = ctx;
	const runsByTarget: Record<string, LoadResult[]> = {};
	return {
		async warmUp() {},
		async round(round) {
			const items = messageItems(cfg.items, ctx.recipients);
			for (const c of [...new Set([cfg.concurrency, cfg.webhookConcurrency, 50])]) {
				const r = await runPlainSend(sandbox, c, items, '/v1/messages', sandbox.messagingKey, textMessageBody, round);
				(runsByTarget[`messages@${c}`] ??= []).push(r.load);
				log(`[bench]   sandbox alone POST /v1/messages @${c}: ${r.itemsPerSecond.toFixed(0)} req/s`);
			}
			const ff = await runPlainSend(sandbox, cfg.concurrency, Array.from({ length: cfg.items }, () => ({})), '/v1/fast-forward', sandbox.timelineKey, () => ({ duration: '1m' }), round);
			(runsByTarget[`fast-forward@${cfg.concurrency}`] ??= []).push(ff.load);
			log(`[bench]   sandbox alone POST /v1/fast-forward @${cfg.concurrency}: ${ff.itemsPerSecond.toFixed(0)} req/s`);
		},
		report(results) {
			results.sandbox = Object.fromEntries(
				Object.entries(runsByTarget).map(([k, runs]) => [
					k,
					{
						requestsPerSecond: median(runs.map((r) => r.perSecond)),
						p50Ms: median(runs.map((r) => r.latencyMs.p50)),
						p99Ms: median(runs.map((r) => r.latencyMs.p99)),
						allOk: runs.every((r) => r.ok === r.count),
					},
				]),
			);
		},
	};
}
