/**
 * The "webhooks" part: M deliveries at a fixed concurrency to this trigger and to n8n's Webhook
 * node (both answering at once), in the n8n with its default settings and in the one with lazy
 * isolate acquisition; every execution counted through the public API. The triggers with their
 * repeat memory on get --webhook-prefill deliveries first, so the rounds run with a full memory;
 * after each round the bench reads what the memory costs in n8n's database.
 */
import type { N8nInstance } from '../n8n/instance';
import { waitFor } from '../shared/wait';
import { log, type BenchContext, type BenchPart } from './context';
import { median, rotate, runWebhook, type WebhookRun, type WebhookVariant as MeasuredWebhookVariant } from './measure';
import { measureMemoryCost } from './memoryCost';
import { savedExecutionBytes, storedStaticData, type SavedExecutionBytes, type StaticDataSize } from './staticData';
import { nodeVersions, triggerWorkflow, webhookNodeWorkflow } from './workflows';

/** A webhook receiver of this bench, in the n8n of its settings. */
interface WebhookVariant extends MeasuredWebhookVariant {
	/** The n8n it runs in: n8n's defaults or lazy isolate acquisition. */
	n8n: N8nInstance;
	settings: 'defaults' | 'lazy';
	/** A trigger with Ignore Repeated Deliveries on. */
	remembers: boolean;
}

/** One round of one receiver, with what n8n's database holds after it. */
export interface WebhookRoundRun extends WebhookRun {
	/** Bytes per execution of this round as n8n saved it. */
	savedExecution: SavedExecutionBytes;
	/** Triggers: the workflow's static data after the round. */
	staticData?: StaticDataSize;
}

/** Imports and activates the receivers chosen with --webhook-variants. */
async function setUpReceivers(ctx: BenchContext): Promise<WebhookVariant[]> {
	const variants: WebhookVariant[] = [];
	const wanted = (key: string) => ctx.cfg.webhookVariants?.has(key) ?? false;
	const addReceiver = async (key: string, label: string, settings: WebhookVariant['settings'], wf: ReturnType<typeof triggerWorkflow>, webhookPath: string) => {
		if (!wanted(key)) return;
		const instance = settings === 'lazy' ? ctx.n8nLazy! : ctx.n8n;
		const id = await instance.importWorkflow(wf);
		await instance.activate(id);
		const remembers = wf.nodes[0].parameters?.ignoreRepeatedDeliveries === true;
		variants.push({ key, label, n8n: instance, settings, remembers, workflowId: id, url: `${instance.webhookBaseUrl}/${webhookPath}` });
	};
	const addTrigger = async (key: string, label: string, settings: WebhookVariant['settings'], dedupe: boolean) => {
		const wf = triggerWorkflow(`Bench webhooks: ${label}`, dedupe);
		await addReceiver(key, label, settings, wf, `${wf.nodes[0].webhookId}/chat-app`);
	};
	const addWebhookNode = async (key: string, label: string, settings: WebhookVariant['settings']) =>
		await addReceiver(key, label, settings, webhookNodeWorkflow(`Bench webhooks: ${label}`, `bench-${key}`), `bench-${key}`);
	const triggerVersion = nodeVersions().trigger;
	await addTrigger('trigger', `this trigger ${triggerVersion} (defaults: Ignore Repeated Deliveries on)`, 'defaults', true);
	await addWebhookNode('webhook', "n8n's Webhook node (Respond: Immediately)", 'defaults');
	await addTrigger('triggerLazy', `this trigger ${triggerVersion}, lazy isolate acquisition`, 'lazy', true);
	await addWebhookNode('webhookLazy', "n8n's Webhook node, lazy isolate acquisition", 'lazy');
	await addTrigger('triggerNoDedupe', `this trigger ${triggerVersion}, Ignore Repeated Deliveries off`, 'defaults', false);
	await addTrigger('triggerNoDedupeLazy', `this trigger ${triggerVersion}, Ignore Repeated Deliveries off, lazy isolate acquisition`, 'lazy', false);
	return variants;
}

export async function setUpWebhookPart(ctx: BenchContext): Promise<BenchPart> {
	const { cfg } = ctx;
	const variants = await setUpReceivers(ctx);
	const runsByKey = new Map<string, WebhookRoundRun[]>(variants.map((v) => [v.key, []]));
	return {
		async warmUp() {
			for (const v of variants) {
				let attempt = 0;
				let last: WebhookRun | undefined;
				await waitFor(
					() => `${v.label}: warm-up deliveries without loss (last answers: ${JSON.stringify(last?.statuses)})`,
					async () => {
						last = await runWebhook(v.n8n, v, 50, cfg.webhookConcurrency, 0, `warm${attempt++}`);
						return last.nothingLost;
					},
					{ timeoutMs: 60000, intervalMs: 1000 },
				);
			}
			if (cfg.webhookPrefill === 0) return;
			for (const v of variants.filter((variant) => variant.remembers)) {
				const fill = await runWebhook(v.n8n, v, cfg.webhookPrefill, cfg.webhookConcurrency, 0, `fill_${ctx.started}`);
				// Only the measured rounds must lose nothing; a lost fill delivery just remembers one event less.
				log(
					`[bench]   webhooks ${v.label}: memory filled with ${(await storedStaticData(v.n8n, v.workflowId)).events} events ` +
						`(${fill.processedPerSecond.toFixed(0)}/s; answers ${JSON.stringify(fill.statuses)})`,
				);
			}
		},
		async round(round) {
			for (const v of rotate(variants, round - 1)) {
				const run = await runWebhook(v.n8n, v, cfg.deliveries, cfg.webhookConcurrency, round, `r${round}_${ctx.started}`);
				const r: WebhookRoundRun = {
					...run,
					savedExecution: await savedExecutionBytes(v.n8n, v.workflowId, run.executionsAfterId),
					staticData: v.key.startsWith('trigger') ? await storedStaticData(v.n8n, v.workflowId) : undefined,
				};
				runsByKey.get(v.key)!.push(r);
				log(
					`[bench]   webhooks ${v.label}: ${r.acceptedPerSecond.toFixed(0)} accepted/s, p50 ${r.p50Ms.toFixed(1)} ms, ` +
						`p99 ${r.p99Ms.toFixed(1)} ms, ${r.executions.success}/${cfg.deliveries} executions succeeded, ` +
						`processed ${r.processedPerSecond.toFixed(0)}/s, n8n CPU ${r.cpuMsPerDelivery.toFixed(1)} ms/delivery, ` +
						`${r.savedExecution.total.toFixed(0)} bytes per saved execution` +
						(r.staticData ? `, static data ${r.staticData.bytes} bytes (${r.staticData.events} events)` : '') +
						`, n8n peak ${r.memory.totalMb} MB${r.nothingLost ? '' : '  LOST/FAILED'}`,
				);
			}
		},
		report(results) {
			if (!variants.length) return;
			const rows = variants.map((v) => {
				const runs = runsByKey.get(v.key)!;
				return {
					key: v.key,
					label: v.label,
					settings: v.settings,
					acceptedPerSecond: median(runs.map((r) => r.acceptedPerSecond)),
					// The throughput compared: deliveries whose execution finished, per second. A receiver
					// that answers before n8n starts the execution accepts faster than it processes.
					min: Math.min(...runs.map((r) => r.processedPerSecond)),
					max: Math.max(...runs.map((r) => r.processedPerSecond)),
					p50Ms: median(runs.map((r) => r.p50Ms)),
					p99Ms: median(runs.map((r) => r.p99Ms)),
					processedPerSecond: median(runs.map((r) => r.processedPerSecond)),
					executionsSucceeded: runs.map((r) => r.executions.success),
					nothingLost: runs.every((r) => r.nothingLost),
					peakMemoryMb: Math.max(...runs.map((r) => r.memory.totalMb)),
					peakMainMb: Math.max(...runs.map((r) => r.memory.mainMb)),
					cpuMsPerDelivery: median(runs.map((r) => r.cpuMsPerDelivery)),
					bytesPerSavedExecution: median(runs.map((r) => r.savedExecution.total)),
					staticDataPerSavedExecution: median(runs.map((r) => r.savedExecution.staticData)),
					savedExecutionsWithMemory: runs.reduce((sum, r) => sum + r.savedExecution.withMemory, 0),
					// What the trigger's static data holds once every round's deliveries went through.
					staticDataBytes: runs.at(-1)?.staticData?.bytes,
					runs,
				};
			});
			const by = (k: string) => rows.find((r) => r.key === k)?.processedPerSecond ?? NaN;
			/** a / b per round, measured side by side (NaN where either did not run). */
			const perRound = (a: string, b: string) =>
				Array.from({ length: cfg.rounds }, (_, i) => {
					const ra = runsByKey.get(a)?.[i];
					const rb = runsByKey.get(b)?.[i];
					return ra && rb ? ra.processedPerSecond / rb.processedPerSecond : NaN;
				});
			results.webhooks = {
				deliveries: cfg.deliveries,
				concurrency: cfg.webhookConcurrency,
				rows,
				ratios: {
					triggerOverWebhook: by('trigger') / by('webhook'),
					triggerLazyOverWebhookLazy: by('triggerLazy') / by('webhookLazy'),
					triggerNoDedupeOverWebhook: by('triggerNoDedupe') / by('webhook'),
				},
				perRound: {
					triggerOverWebhook: perRound('trigger', 'webhook'),
					triggerNoDedupeOverWebhook: perRound('triggerNoDedupe', 'webhook'),
					triggerOverTriggerNoDedupe: perRound('trigger', 'triggerNoDedupe'),
					triggerLazyOverWebhookLazy: perRound('triggerLazy', 'webhookLazy'),
					triggerLazyOverTriggerNoDedupeLazy: perRound('triggerLazy', 'triggerNoDedupeLazy'),
				},
				prefill: cfg.webhookPrefill,
				memoryCost: measureMemoryCost(),
				// the static data inside the trigger's saved executions: all of it is the memory
				memoryBytesPerSavedExecution: Math.max(
					...rows.filter((r) => r.key.startsWith('trigger') && !r.key.includes('NoDedupe')).map((r) => r.staticDataPerSavedExecution),
				),
			};
		},
	};
}
