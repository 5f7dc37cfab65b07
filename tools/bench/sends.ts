/**
 * The send parts ("sends": Message → Send Text, "timeline": Time → Fast-Forward): N items in one
 * execution through this node (defaults, and its fastest documented path), the ceiling, n8n's
 * HTTP Request node, and a plain client loop outside n8n (keep-alive, and a new connection per
 * request as n8n makes them).
 */
import * as path from 'node:path';

import type { StoredCredential } from '../n8n/client';
import { waitFor } from '../shared/wait';
import { log, type BenchContext, type BenchPart } from './context';
import { heapProfileDir } from './heap';
import { median, messageItems, rotate, runN8nSend, runPlainSend, type SendRun, type SendVariant } from './measure';
import type { MemoryPeak } from './memory';
import type { BenchResults, Row } from './results';
import { UNCACHED_VARIANTS } from './uncached';
import { ceilingSendWorkflow, httpRequestSendWorkflow, packageSendWorkflow, type SendOperation } from './workflows';

/** The body of one Send Text as the plain client loop sends it. */
export const textMessageBody = (item: { to: string; text: string }) => ({ channel: 'chatapp', to: item.to, message_type: 'text', text: item.text });

/** What one send part sends, where, and with which credentials. */
interface SendSpec {
	op: SendOperation;
	title: string;
	apiPath: string;
	items: object[];
	/** The service key the plain loop sends as bearer. */
	key: string;
	plainBody: (item: any) => object;
	credential: StoredCredential;
	bearer: StoredCredential;
	ceilingCredential: StoredCredential;
}

function sendSpec(ctx: BenchContext, part: 'sends' | 'timeline'): SendSpec {
	const { cfg, sandbox, credentials: c } = ctx;
	if (part === 'sends') {
		return {
			op: 'sendText',
			title: 'Message → Send Text (POST /v1/messages)',
			apiPath: '/v1/messages',
			items: messageItems(cfg.items, ctx.recipients),
			key: sandbox.messagingKey,
			plainBody: textMessageBody,
			credential: c.messaging,
			bearer: c.bearerMessaging,
			ceilingCredential: c.ceilingMessaging,
		};
	}
	return {
		op: 'fastForward',
		title: 'Time → Fast-Forward 1 minute (POST /v1/fast-forward)',
		apiPath: '/v1/fast-forward',
		items: Array.from({ length: cfg.items }, (_, i) => ({ i })),
		key: sandbox.timelineKey,
		plainBody: () => ({ duration: '1m' }),
		credential: c.timeline,
		bearer: c.bearerTimeline,
		ceilingCredential: c.ceilingTimeline,
	};
}

/** Imports and activates the part's workflows in n8n; the plain loops need none. */
async function setUpVariants(ctx: BenchContext, spec: SendSpec): Promise<SendVariant[]> {
	const { cfg, n8n, sandbox } = ctx;
	const { op, items, credential, bearer, ceilingCredential } = spec;
	const variants: SendVariant[] = [];
	const add = async (v: Omit<SendVariant, 'workflowId' | 'url'>, wf: ReturnType<typeof packageSendWorkflow>, webhookPath: string) => {
		const id = await n8n.importWorkflow(wf);
		await n8n.activate(id);
		variants.push({ ...v, workflowId: id, url: `${n8n.webhookBaseUrl}/${webhookPath}` });
	};
	const p = `bench-${op}`;
	const nodeDefault = `${cfg.concurrency} (node default)`;
	await add(
		{
			key: 'node',
			label: op === 'sendText' ? 'this node, Define Below: to and text as expressions (defaults)' : 'this node (defaults: no expressions)',
			inFlight: nodeDefault,
			kind: 'n8n',
		},
		packageSendWorkflow(`Bench ${op}: this node`, `${p}-node`, op, credential),
		`${p}-node`,
	);
	if (op === 'sendText') {
		await add(
			{ key: 'nodeMapped', label: 'this node, Data to Send: Map Automatically (fast path)', inFlight: nodeDefault, kind: 'n8n' },
			packageSendWorkflow(`Bench ${op}: this node, mapped`, `${p}-node-mapped`, op, credential, { mapped: true }),
			`${p}-node-mapped`,
		);
	}
	await add(
		{ key: 'ceiling', label: 'ceiling: minimal node, no expressions (test fixture)', inFlight: `${cfg.concurrency}`, kind: 'n8n' },
		ceilingSendWorkflow(`Bench ${op}: ceiling`, `${p}-ceiling`, op, ceilingCredential, cfg.concurrency),
		`${p}-ceiling`,
	);
	await add(
		{ key: 'http', label: 'HTTP Request node (defaults, body as fields)', inFlight: 'all items at once (its default)', kind: 'n8n' },
		httpRequestSendWorkflow(`Bench ${op}: HTTP Request`, `${p}-http`, op, sandbox.url, bearer, 'fields'),
		`${p}-http`,
	);
	if (op === 'sendText') {
		await add(
			{ key: 'httpJson', label: 'HTTP Request node, body as one JSON expression', inFlight: 'all items at once (its default)', kind: 'n8n' },
			httpRequestSendWorkflow(`Bench ${op}: HTTP Request, JSON body`, `${p}-http-json`, op, sandbox.url, bearer, 'json'),
			`${p}-http-json`,
		);
	}
	// What the credential cache buys: the node's default path without it (uncached.ts).
	for (const variant of UNCACHED_VARIANTS) {
		await add(
			{ key: variant.key, label: variant.label, inFlight: nodeDefault, kind: 'n8n' },
			packageSendWorkflow(`Bench ${op}: ${variant.label}`, `${p}-${variant.key}`, op, credential, { nodeType: variant.nodeType }),
			`${p}-${variant.key}`,
		);
	}
	// As close to "all at once" as Request Options allow (Concurrency up to 100).
	const most = Math.min(items.length, 100);
	await add(
		{ key: 'nodeAll', label: `this node, Concurrency ${most}`, inFlight: `${most} (its maximum)`, kind: 'n8n' },
		packageSendWorkflow(`Bench ${op}: this node, Concurrency ${most}`, `${p}-node-all`, op, credential, { concurrency: most }),
		`${p}-node-all`,
	);
	variants.push(
		{ key: 'plain', label: 'plain client loop (outside n8n), keep-alive', inFlight: `${cfg.concurrency} (= node default)`, kind: 'plain', plainConcurrency: cfg.concurrency },
		{
			key: 'plainNew',
			label: 'plain client loop, a new connection per request (as n8n makes them)',
			inFlight: `${cfg.concurrency}`,
			kind: 'plain',
			plainConcurrency: cfg.concurrency,
			keepAlive: false,
		},
	);
	return variants;
}

/**
 * The round's order with the ceiling moved next to the fastest documented path, after it in odd
 * rounds and before it in even ones: the target compares them, and with other variants between
 * them the machine's load could change from one to the other.
 */
function pairFastWithCeiling(order: SendVariant[], fastKey: string, round: number): SendVariant[] {
	const ceiling = order.find((v) => v.key === 'ceiling');
	const others = order.filter((v) => v.key !== 'ceiling');
	const at = others.findIndex((v) => v.key === fastKey);
	if (!ceiling || at < 0) return order;
	others.splice(round % 2 === 1 ? at + 1 : at, 0, ceiling);
	return others;
}

/** `a` / `b` in items per second, round by round (runs side by side). */
function pairedRatios(runsByKey: Map<string, SendRun[]>, a: string, b: string): number[] {
	const bRuns = runsByKey.get(b) ?? [];
	return (runsByKey.get(a) ?? []).flatMap((run) => {
		const other = bRuns.find((r) => r.round === run.round);
		return other ? [run.itemsPerSecond / other.itemsPerSecond] : [];
	});
}

/** The medians of one send part over the rounds, one row per variant, and their ratios. */
function summarise(spec: SendSpec, variants: SendVariant[], runsByKey: Map<string, SendRun[]>, fastKey: string): BenchResults['sends'][string] {
	const speed = (k: string) => median(runsByKey.get(k)?.map((r) => r.itemsPerSecond) ?? []);
	const rows: Row[] = variants.map((v) => {
		const runs = runsByKey.get(v.key)!;
		const mem = runs.map((r) => r.memory).filter(Boolean) as MemoryPeak[];
		return {
			key: v.key,
			label: v.label,
			inFlight: v.inFlight,
			itemsPerSecond: speed(v.key),
			overCeiling: speed(v.key) / speed('ceiling'),
			overPlain: speed(v.key) / speed('plain'),
			min: Math.min(...runs.map((r) => r.itemsPerSecond)),
			max: Math.max(...runs.map((r) => r.itemsPerSecond)),
			ms: median(runs.map((r) => r.ms)),
			executionMs: v.kind === 'n8n' ? median(runs.map((r) => r.executionMs ?? NaN)) : undefined,
			cpuMsPerItem: v.kind === 'n8n' ? median(runs.map((r) => r.cpuMsPerItem ?? NaN)) : undefined,
			peakMemoryMb: mem.length ? Math.max(...mem.map((m) => m.totalMb)) : undefined,
			peakMainMb: mem.length ? Math.max(...mem.map((m) => m.mainMb)) : undefined,
			// n8n's main process: its exact peak during the run (median over rounds), and the rise over its start.
			medianPeakMainMb: mem.length ? median(mem.map((m) => m.mainPeakMb ?? m.mainMb)) : undefined,
			medianGrowthMainMb: mem.length ? median(mem.map((m) => (m.mainPeakMb ?? m.mainMb) - m.mainStartMb)) : undefined,
			allValid: runs.every((r) => r.valid),
			problems: runs.filter((r) => !r.valid).map((r) => `round ${r.round}: ${r.problem}`),
			runs,
		};
	});
	const peak = (k: string) => rows.find((r) => r.key === k)?.medianPeakMainMb ?? NaN;
	const rise = (k: string) => rows.find((r) => r.key === k)?.medianGrowthMainMb ?? NaN;
	const fastOverCeilingByRound = pairedRatios(runsByKey, fastKey, 'ceiling');
	return {
		title: spec.title,
		items: spec.items.length,
		fastKey,
		rows,
		ratios: {
			nodeOverHttp: speed('node') / speed('http'),
			// The strictest comparison: against the faster of the HTTP Request node's body modes.
			nodeOverFastestHttp: speed('node') / Math.max(speed('http'), speed('httpJson') || 0),
			nodeAllOverHttp: speed('nodeAll') / speed('http'),
			nodeOverPlain: speed('node') / speed('plain'),
			nodeOverCeiling: speed('node') / speed('ceiling'),
			fastOverCeiling: median(fastOverCeilingByRound),
			fastOverCeilingByRound,
			ceilingOverPlain: speed('ceiling') / speed('plain'),
			plainNewOverPlain: speed('plainNew') / speed('plain'),
			nodeOverNoCredentialCache: speed('node') / speed('nodeNoCredentialCache'),
			peakNodeOverHttp: peak('node') / peak('http'),
			riseNodeOverHttp: rise('node') / rise('http'),
		},
	};
}

export async function setUpSendPart(ctx: BenchContext, part: 'sends' | 'timeline'): Promise<BenchPart> {
	const spec = sendSpec(ctx, part);
	const variants = await setUpVariants(ctx, spec);
	/** The variant on the operation's fastest documented path. */
	const fastKey = spec.op === 'sendText' ? 'nodeMapped' : 'node';
	const runsByKey = new Map<string, SendRun[]>(variants.map((v) => [v.key, []]));
	const runOnce = async (v: SendVariant, items: object[], round: number) => {
		if (v.kind === 'plain') {
			return await runPlainSend(ctx.sandbox, v.plainConcurrency!, items, spec.apiPath, spec.key, spec.plainBody, round, v.keepAlive);
		}
		const heapProfile = ctx.cfg.heapProfile && round > 0 ? path.join(heapProfileDir(ctx.cfg), `${spec.op}-${v.key}-r${round}.heapprofile`) : undefined;
		return await runN8nSend(ctx.n8n, ctx.sandbox, v, items, spec.apiPath, round, { control: ctx.heap, heapProfile });
	};
	return {
		async warmUp() {
			const few = spec.items.slice(0, Math.min(50, spec.items.length));
			for (const v of variants) {
				let lastError: unknown;
				await waitFor(
					() => `a warm-up run of ${spec.op} ${v.label} (last error: ${lastError instanceof Error ? lastError.message : String(lastError)})`,
					async () => {
						try {
							await runOnce(v, few, 0);
							return true;
						} catch (err) {
							lastError = err;
							return false;
						}
					},
					{ timeoutMs: 60000, intervalMs: 1000 },
				);
			}
		},
		async round(round) {
			for (const v of pairFastWithCeiling(rotate(variants, round - 1), fastKey, round)) {
				const run = await runOnce(v, spec.items, round);
				runsByKey.get(v.key)!.push(run);
				log(
					`[bench]   ${spec.op} ${v.label}: ${run.itemsPerSecond.toFixed(0)} items/s (${run.ms.toFixed(0)} ms)` +
						(run.cpuMsPerItem === undefined ? '' : `, n8n CPU ${run.cpuMsPerItem.toFixed(2)} ms/item`) +
						(run.memory ? `, n8n peak ${run.memory.totalMb} MB` : '') +
						(run.valid ? '' : `  INVALID: ${run.problem}`),
				);
			}
		},
		report(results) {
			results.sends[spec.op] = summarise(spec, variants, runsByKey, fastKey);
		},
	};
}
