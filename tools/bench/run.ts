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
 *   Sandbox   the sandbox alone at the same concurrencies.
 *   Memory    peak VmRSS of n8n's main process and its task runner during each run, and the
 *             trigger's workflow static data after the run.
 *   Queue     the same workloads in single mode and in queue mode with 2 and 1 workers
 *             (queue.ts).
 *
 * Variants alternate within a round (the order rotates each round) and the report gives
 * medians over the rounds. Settings: flags or environment (see CONFIG below / --help).
 * Writes .artifacts/bench/results.json and results.md.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { CREDENTIAL_TYPES, freePort, startN8n, type N8nInstance, type StoredCredential } from '../n8n/instance';
import { ARTIFACTS_DIR, N8N_VERSION, NODE_VERSION, ensureRuntime } from '../n8n/runtime';
import { CEILING_CREDENTIAL_TYPE, CEILING_PACKAGE, packCeilingPackage } from './ceiling/pack';
import type { LoadResult } from './load';
import {
	median,
	messageItems,
	rotate,
	runN8nSend,
	runPlainSend,
	runWebhook,
	startSandboxProcess,
	type SendRun,
	type SendVariant,
	type WebhookRun,
	type WebhookVariant as MeasuredWebhookVariant,
} from './measure';
import type { MemoryPeak } from './memory';
import { runQueueBench } from './queue';
import { measureSecretTiming } from './secretTiming';
import { renderMarkdown, renderTable, type BenchResults, type Row } from './report';
import { staticDataBytes } from './staticData';
import {
	ceilingSendWorkflow,
	httpRequestSendWorkflow,
	packageSendWorkflow,
	triggerWorkflow,
	webhookNodeWorkflow,
	nodeVersions,
	type SendOperation,
} from './workflows';

// ---------------------------------------------------------------------------------------------
// Settings

interface Config {
	items: number;
	deliveries: number;
	rounds: number;
	concurrency: number;
	webhookConcurrency: number;
	/** Deliveries per queue-mode run (part "queue"). */
	queueDeliveries: number;
	/** Executions the items are split over in the queue-mode part. */
	queueParallel: number;
	recipients: number;
	only: Set<string>;
	/** Webhook receivers to run (keys), all by default: for profiling one at a time. */
	webhookVariants?: Set<string>;
	profile: boolean;
	/** N8N_EXPRESSION_ENGINE for n8n (default: n8n's own default, 'vm' in 2.41). */
	expressionEngine?: string;
	outDir: string;
}

const HELP = `npm run bench [-- options]    (each option also as an environment variable)
  --items=N                 BENCH_ITEMS                items per send execution (2000)
  --deliveries=M            BENCH_DELIVERIES           webhook deliveries per run (1000)
  --rounds=R                BENCH_ROUNDS               rounds; medians are reported (3)
  --concurrency=C           BENCH_CONCURRENCY          requests in flight for the plain loop, and the
                                                       node's default it is compared with (10)
  --webhook-concurrency=W   BENCH_WEBHOOK_CONCURRENCY  deliveries in flight (20)
  --queue-deliveries=Q      BENCH_QUEUE_DELIVERIES     deliveries per run in the queue part (400)
  --queue-parallel=P        BENCH_QUEUE_PARALLEL       executions the items are split over there (4)
  --only=sends,timeline,webhooks,sandbox,secrets,queue  BENCH_ONLY  parts to run (all; queue: single
                                                       mode vs queue mode with 2 and 1 workers, ~16 min)
  --webhook-variants=LIST    BENCH_WEBHOOK_VARIANTS     receivers to run, of trigger, webhook (n8n's defaults),
                                                       triggerLazy, webhookLazy (lazy isolate acquisition),
                                                       triggerV1 (saved workflows' version 1), triggerNoDedupe,
                                                       triggerNoDedupeLazy (default: all but triggerV1 and triggerNoDedupe)
  --expression-engine=E     BENCH_EXPRESSION_ENGINE    n8n's N8N_EXPRESSION_ENGINE (vm, legacy; default:
                                                       n8n's default, vm in 2.41)
  --profile                 BENCH_PROFILE=1            write n8n's CPU profile (--cpu-prof) under
                                                       .artifacts/bench/profile/ and summarise it`;

function readConfig(argv: string[]): Config {
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
	const int = (flag: string, env: string, def: number, min = 1) => {
		const raw = pick(flag, env, String(def));
		const n = Number(raw);
		if (!Number.isInteger(n) || n < min) throw new Error(`--${flag} / ${env} must be a whole number >= ${min}, got "${raw}"`);
		return n;
	};
	const only = pick('only', 'BENCH_ONLY', 'sends,timeline,webhooks,sandbox,secrets,queue')
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);
	for (const part of only) {
		if (!['sends', 'timeline', 'webhooks', 'sandbox', 'secrets', 'queue'].includes(part)) throw new Error(`--only: unknown part "${part}"`);
	}
	return {
		items: int('items', 'BENCH_ITEMS', 2000),
		deliveries: int('deliveries', 'BENCH_DELIVERIES', 1000),
		rounds: int('rounds', 'BENCH_ROUNDS', 3),
		concurrency: int('concurrency', 'BENCH_CONCURRENCY', 10),
		webhookConcurrency: int('webhook-concurrency', 'BENCH_WEBHOOK_CONCURRENCY', 20),
		queueDeliveries: int('queue-deliveries', 'BENCH_QUEUE_DELIVERIES', 400),
		queueParallel: int('queue-parallel', 'BENCH_QUEUE_PARALLEL', 4),
		recipients: 50,
		only: new Set(only),
		webhookVariants: new Set(
			pick('webhook-variants', 'BENCH_WEBHOOK_VARIANTS', 'trigger,webhook,triggerLazy,webhookLazy,triggerNoDedupeLazy')
				.split(',')
				.map((s) => s.trim()),
		),
		expressionEngine: pick('expression-engine', 'BENCH_EXPRESSION_ENGINE', '') || undefined,
		profile: /^(1|true|yes)$/i.test(pick('profile', 'BENCH_PROFILE', 'false')),
		outDir: path.join(ARTIFACTS_DIR, 'bench'),
	};
}

// ---------------------------------------------------------------------------------------------
// Small helpers

const log = (line: string) => process.stderr.write(line + '\n');

/** A webhook receiver of this bench, in the n8n of its settings. */
interface WebhookVariant extends MeasuredWebhookVariant {
	/** The n8n it runs in: n8n's defaults or lazy isolate acquisition. */
	n8n: N8nInstance;
	settings: 'defaults' | 'lazy';
}

// ---------------------------------------------------------------------------------------------
// Machine

function machine(n8nVersion: string, nodeVersion: string) {
	const cpu = os.cpus()[0]?.model ?? 'unknown';
	return {
		nproc: os.availableParallelism?.() ?? os.cpus().length,
		memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
		cpuModel: cpu.trim(),
		os: `${os.type()} ${os.release()} ${os.arch()}`,
		loadAverageAtStart: os.loadavg().map((x) => Math.round(x * 100) / 100),
		benchNode: process.version,
		n8nNode: `v${nodeVersion}`,
		n8nVersion,
	};
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
	const cfg = readConfig(process.argv.slice(2));
	fs.mkdirSync(cfg.outDir, { recursive: true });
	const started = Date.now();
	log(
		`[bench] items=${cfg.items} deliveries=${cfg.deliveries} rounds=${cfg.rounds} concurrency=${cfg.concurrency} ` +
			`webhookConcurrency=${cfg.webhookConcurrency} parts=${[...cfg.only].join(',')}` +
			`${cfg.expressionEngine ? ` expressionEngine=${cfg.expressionEngine}` : ''}${cfg.profile ? ' profile' : ''}`,
	);
	const runtime = await ensureRuntime({ log });

	const sandbox = await startSandboxProcess();
	log(`[bench] sandbox at ${sandbox.url} (pid ${sandbox.pid})`);
	let n8n: N8nInstance | undefined;
	/** A second n8n for the webhooks, with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true. */
	let n8nLazy: N8nInstance | undefined;
	const stopAll = async () => {
		await n8n?.stop().catch(() => undefined);
		await n8nLazy?.stop().catch(() => undefined);
		await sandbox.stop().catch(() => undefined);
	};
	let interrupted = false;
	const onSignal = () => {
		if (interrupted) return;
		interrupted = true;
		log('[bench] interrupted: stopping n8n and the sandbox');
		void stopAll().then(() => process.exit(130));
	};
	process.on('SIGINT', onSignal);
	process.on('SIGTERM', onSignal);

	const profileDir = path.join(cfg.outDir, 'profile');
	try {
		const env: Record<string, string> = {};
		if (cfg.expressionEngine) env.N8N_EXPRESSION_ENGINE = cfg.expressionEngine;
		if (cfg.profile) {
			fs.rmSync(profileDir, { recursive: true, force: true });
			fs.mkdirSync(profileDir, { recursive: true });
			env.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${profileDir}`;
		}
		const startBenchN8n = async (logName: string, extraEnv: Record<string, string> = {}) =>
			await startN8n({
				port: await freePort(),
				log,
				logFile: path.join(cfg.outDir, logName),
				env: { ...env, ...extraEnv },
				// For experiments: install this packed package instead of packing the checkout.
				packageTarball: process.env.BENCH_TARBALL || undefined,
				// The ceiling fixture, next to this package (never part of its dist).
				extraPackages: [{ name: CEILING_PACKAGE.name, tarball: packCeilingPackage(path.join(cfg.outDir, 'ceiling')) }],
			});
		n8n = await startBenchN8n('n8n.log');
		if (cfg.only.has('webhooks') && [...(cfg.webhookVariants ?? [])].some((key) => key.endsWith('Lazy'))) {
			n8nLazy = await startBenchN8n('n8n-lazy-acquire.log', { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' });
		}

		const [messaging, timeline, bearerMessaging, bearerTimeline, ceilingMessaging, ceilingTimeline] = await n8n.importCredentials([
			{ name: 'Bench messaging', type: CREDENTIAL_TYPES.messaging, data: { baseUrl: sandbox.url, apiKey: sandbox.messagingKey } },
			{ name: 'Bench timeline', type: CREDENTIAL_TYPES.timeline, data: { baseUrl: sandbox.url, accessToken: sandbox.timelineKey } },
			{ name: 'Bench bearer (messaging)', type: 'httpBearerAuth', data: { token: sandbox.messagingKey } },
			{ name: 'Bench bearer (timeline)', type: 'httpBearerAuth', data: { token: sandbox.timelineKey } },
			{ name: 'Bench ceiling (messaging)', type: CEILING_CREDENTIAL_TYPE, data: { baseUrl: sandbox.url, apiKey: sandbox.messagingKey } },
			{ name: 'Bench ceiling (timeline)', type: CEILING_CREDENTIAL_TYPE, data: { baseUrl: sandbox.url, apiKey: sandbox.timelineKey } },
		]);

		// Recipients whose 24-hour window is open (re-opened every round).
		const recipients = Array.from({ length: cfg.recipients }, (_, i) => `+1415555${String(1000 + i).padStart(4, '0')}`);
		const openWindows = async () => {
			for (const r of recipients) await sandbox.client.inbound(r, 'hi');
		};
		await openWindows();

		const results: BenchResults = {
			date: new Date().toISOString(),
			machine: machine(runtime.n8nVersion ?? N8N_VERSION, runtime.nodeVersion ?? NODE_VERSION),
			config: {
				items: cfg.items,
				deliveries: cfg.deliveries,
				rounds: cfg.rounds,
				concurrency: cfg.concurrency,
				webhookConcurrency: cfg.webhookConcurrency,
				recipients: cfg.recipients,
				expressionEngine: cfg.expressionEngine ?? "n8n's default (vm)",
				nodeVersions: nodeVersions(),
			},
			sends: {},
			webhooks: undefined,
			sandbox: undefined,
			targets: [],
			notes: [],
		};

		// ---- sends: workflows -----------------------------------------------------------
		type SendPart = {
			part: 'sends' | 'timeline';
			op: SendOperation;
			title: string;
			apiPath: string;
			items: object[];
			key: string;
			plainBody: (item: any) => object;
			variants: SendVariant[];
			/** The variant on the operation's fastest documented path. */
			fastKey: string;
			runs: Map<string, SendRun[]>;
		};
		const sendParts: SendPart[] = [];
		const addSendPart = async (
			part: 'sends' | 'timeline',
			op: SendOperation,
			title: string,
			apiPath: string,
			items: object[],
			key: string,
			plainBody: (item: any) => object,
			credential: StoredCredential,
			bearer: StoredCredential,
			ceilingCredential: StoredCredential,
		) => {
			const variants: SendVariant[] = [];
			const add = async (v: Omit<SendVariant, 'workflowId' | 'url'>, wf: ReturnType<typeof packageSendWorkflow>, webhookPath: string) => {
				const id = await n8n!.importWorkflow(wf);
				await n8n!.activate(id);
				variants.push({ ...v, workflowId: id, url: `${n8n!.webhookBaseUrl}/${webhookPath}` });
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
			const fastKey = op === 'sendText' ? 'nodeMapped' : 'node';
			sendParts.push({ part, op, title, apiPath, items, key, plainBody, variants, fastKey, runs: new Map(variants.map((v) => [v.key, []])) });
		};
		if (cfg.only.has('sends')) {
			await addSendPart(
				'sends', 'sendText', 'Message → Send Text (POST /v1/messages)', '/v1/messages',
				messageItems(cfg.items, recipients), sandbox.messagingKey,
				(item) => ({ channel: 'chatapp', to: item.to, message_type: 'text', text: item.text }),
				messaging, bearerMessaging, ceilingMessaging,
			);
		}
		if (cfg.only.has('timeline')) {
			await addSendPart(
				'timeline', 'fastForward', 'Time → Fast-Forward 1 minute (POST /v1/fast-forward)', '/v1/fast-forward',
				Array.from({ length: cfg.items }, (_, i) => ({ i })), sandbox.timelineKey,
				() => ({ duration: '1m' }),
				timeline, bearerTimeline, ceilingTimeline,
			);
		}

		// ---- webhooks: workflows --------------------------------------------------------
		const webhookVariants: WebhookVariant[] = [];
		const webhookRuns = new Map<string, WebhookRun[]>();
		if (cfg.only.has('webhooks')) {
			const wanted = (key: string) => cfg.webhookVariants?.has(key) ?? false;
			const addReceiver = async (key: string, label: string, settings: WebhookVariant['settings'], wf: ReturnType<typeof triggerWorkflow>, webhookPath: string) => {
				if (!wanted(key)) return;
				const instance = settings === 'lazy' ? n8nLazy! : n8n!;
				const id = await instance.importWorkflow(wf);
				await instance.activate(id);
				webhookVariants.push({ key, label, n8n: instance, settings, workflowId: id, url: `${instance.webhookBaseUrl}/${webhookPath}` });
			};
			const addTrigger = async (key: string, label: string, settings: WebhookVariant['settings'], dedupe: boolean, version?: number) => {
				const wf = triggerWorkflow(`Bench webhooks: ${label}`, dedupe, version);
				await addReceiver(key, label, settings, wf, `${wf.nodes[0].webhookId}/chat-app`);
			};
			const addWebhookNode = async (key: string, label: string, settings: WebhookVariant['settings']) =>
				await addReceiver(key, label, settings, webhookNodeWorkflow(`Bench webhooks: ${label}`, `bench-${key}`), `bench-${key}`);
			const triggerVersion = nodeVersions().trigger;
			await addTrigger('trigger', `this trigger ${triggerVersion} (defaults: Ignore Repeated Deliveries on)`, 'defaults', true);
			await addWebhookNode('webhook', "n8n's Webhook node (Respond: Immediately)", 'defaults');
			await addTrigger('triggerLazy', `this trigger ${triggerVersion}, lazy isolate acquisition`, 'lazy', true);
			await addWebhookNode('webhookLazy', "n8n's Webhook node, lazy isolate acquisition", 'lazy');
			await addTrigger('triggerV1', 'this trigger at version 1 (saved workflows)', 'defaults', true, 1);
			await addTrigger('triggerNoDedupe', `this trigger ${triggerVersion}, Ignore Repeated Deliveries off`, 'defaults', false);
			await addTrigger('triggerNoDedupeLazy', `this trigger ${triggerVersion}, Ignore Repeated Deliveries off, lazy isolate acquisition`, 'lazy', false);
			for (const v of webhookVariants) webhookRuns.set(v.key, []);
		}

		// ---- warm-up: every path once (JIT, first-call 404 after activation, connections) ----
		log('[bench] warm-up');
		await sleep(1000);
		for (const part of sendParts) {
			const few = part.items.slice(0, Math.min(50, part.items.length));
			for (const v of part.variants) {
				for (let attempt = 0; ; attempt++) {
					try {
						if (v.kind === 'n8n') await runN8nSend(n8n, sandbox, v, few, part.apiPath, 0);
						else await runPlainSend(sandbox, v.plainConcurrency!, few, part.apiPath, part.key, part.plainBody, 0, v.keepAlive);
						break;
					} catch (err) {
						if (attempt >= 5) throw err;
						await sleep(1000);
					}
				}
			}
		}
		for (const v of webhookVariants) {
			for (let attempt = 0; ; attempt++) {
				const r = await runWebhook(v.n8n, v, 50, cfg.webhookConcurrency, 0, `warm${attempt}`);
				if (r.nothingLost) break;
				if (attempt >= 5) throw new Error(`${v.label}: warm-up deliveries failed: ${JSON.stringify(r.statuses)}`);
				await sleep(1000);
			}
		}

		// ---- rounds ---------------------------------------------------------------------
		const sandboxRuns: Record<string, LoadResult[]> = {};
		for (let round = 1; round <= cfg.rounds; round++) {
			log(`[bench] round ${round}/${cfg.rounds}`);
			await openWindows();
			for (const part of sendParts) {
				for (const v of rotate(part.variants, round - 1)) {
					const run =
						v.kind === 'n8n'
							? await runN8nSend(n8n, sandbox, v, part.items, part.apiPath, round)
							: await runPlainSend(sandbox, v.plainConcurrency!, part.items, part.apiPath, part.key, part.plainBody, round, v.keepAlive);
					part.runs.get(v.key)!.push(run);
					log(
						`[bench]   ${part.op} ${v.label}: ${run.itemsPerSecond.toFixed(0)} items/s (${run.ms.toFixed(0)} ms)` +
							(run.memory ? `, n8n peak ${run.memory.totalMb} MB` : '') +
							(run.valid ? '' : `  INVALID: ${run.problem}`),
					);
				}
			}
			if (cfg.only.has('sandbox')) {
				// The sandbox alone, at the concurrencies used above (plain loop, no n8n involved).
				const items = messageItems(cfg.items, recipients);
				for (const c of [...new Set([cfg.concurrency, cfg.webhookConcurrency, 50])]) {
					const r = await runPlainSend(sandbox, c, items, '/v1/messages', sandbox.messagingKey, (item) => ({ channel: 'chatapp', to: item.to, message_type: 'text', text: item.text }), round);
					(sandboxRuns[`messages@${c}`] ??= []).push(r.load);
					log(`[bench]   sandbox alone POST /v1/messages @${c}: ${r.itemsPerSecond.toFixed(0)} req/s`);
				}
				const ff = await runPlainSend(sandbox, cfg.concurrency, Array.from({ length: cfg.items }, () => ({})), '/v1/fast-forward', sandbox.timelineKey, () => ({ duration: '1m' }), round);
				(sandboxRuns[`fast-forward@${cfg.concurrency}`] ??= []).push(ff.load);
				log(`[bench]   sandbox alone POST /v1/fast-forward @${cfg.concurrency}: ${ff.itemsPerSecond.toFixed(0)} req/s`);
			}
			for (const v of rotate(webhookVariants, round - 1)) {
				const r = await runWebhook(v.n8n, v, cfg.deliveries, cfg.webhookConcurrency, round, `r${round}_${started}`);
				webhookRuns.get(v.key)!.push(r);
				log(
					`[bench]   webhooks ${v.label}: ${r.acceptedPerSecond.toFixed(0)} accepted/s, p50 ${r.p50Ms.toFixed(1)} ms, ` +
						`p99 ${r.p99Ms.toFixed(1)} ms, ${r.executions.success}/${cfg.deliveries} executions succeeded, ` +
						`processed ${r.processedPerSecond.toFixed(0)}/s, n8n peak ${r.memory.totalMb} MB${r.nothingLost ? '' : '  LOST/FAILED'}`,
				);
			}
		}

		// ---- aggregate ------------------------------------------------------------------
		for (const part of sendParts) {
			const speed = (k: string) => median(part.runs.get(k)?.map((r) => r.itemsPerSecond) ?? []);
			const rows: Row[] = part.variants.map((v) => {
				const runs = part.runs.get(v.key)!;
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
			results.sends[part.op] = {
				title: part.title,
				items: part.items.length,
				fastKey: part.fastKey,
				rows,
				ratios: {
					nodeOverHttp: speed('node') / speed('http'),
					// The strictest comparison: against the faster of the HTTP Request node's body modes.
					nodeOverFastestHttp: speed('node') / Math.max(speed('http'), speed('httpJson') || 0),
					nodeAllOverHttp: speed('nodeAll') / speed('http'),
					nodeOverPlain: speed('node') / speed('plain'),
					nodeOverCeiling: speed('node') / speed('ceiling'),
					fastOverCeiling: speed(part.fastKey) / speed('ceiling'),
					ceilingOverPlain: speed('ceiling') / speed('plain'),
					plainNewOverPlain: speed('plainNew') / speed('plain'),
					peakNodeOverHttp: peak('node') / peak('http'),
					riseNodeOverHttp: rise('node') / rise('http'),
				},
			};
		}
		if (cfg.only.has('sandbox')) {
			results.sandbox = Object.fromEntries(
				Object.entries(sandboxRuns).map(([k, runs]) => [
					k,
					{
						requestsPerSecond: median(runs.map((r) => r.perSecond)),
						p50Ms: median(runs.map((r) => r.latencyMs.p50)),
						p99Ms: median(runs.map((r) => r.latencyMs.p99)),
						allOk: runs.every((r) => r.ok === r.count),
					},
				]),
			);
		}
		if (webhookVariants.length) {
			const rows = webhookVariants.map((v) => {
				const runs = webhookRuns.get(v.key)!;
				const isTrigger = v.key.startsWith('trigger');
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
					// What the trigger's repeat memory stores once every round's deliveries went through.
					staticDataBytes: isTrigger ? staticDataBytes(v.n8n, v.workflowId) : undefined,
					runs,
				};
			});
			const by = (k: string) => rows.find((r) => r.key === k)?.processedPerSecond ?? NaN;
			results.webhooks = {
				deliveries: cfg.deliveries,
				concurrency: cfg.webhookConcurrency,
				rows,
				ratios: {
					triggerOverWebhook: by('trigger') / by('webhook'),
					triggerLazyOverWebhookLazy: by('triggerLazy') / by('webhookLazy'),
					triggerV1OverWebhook: by('triggerV1') / by('webhook'),
					triggerNoDedupeOverWebhook: by('triggerNoDedupe') / by('webhook'),
				},
			};
		}

		// ---- queue mode: the same workloads in single mode and queue mode, side by side ------
		if (cfg.only.has('queue')) {
			results.queue = await runQueueBench({
				single: n8n,
				sandbox,
				recipients,
				openWindows,
				cfg: {
					deliveries: cfg.queueDeliveries,
					concurrency: cfg.webhookConcurrency,
					items: cfg.items,
					parallel: cfg.queueParallel,
					rounds: cfg.rounds,
				},
				outDir: cfg.outDir,
				log,
			});
		}

		// ---- targets --------------------------------------------------------------------
		for (const op of Object.keys(results.sends)) {
			const s = results.sends[op];
			const valid = s.rows.every((r) => r.allValid);
			const fast = s.rows.find((r) => r.key === s.fastKey)!;
			results.targets.push(
				{
					name: `${op}: fastest documented path (${fast.label}) / ceiling >= 0.9`,
					value: s.ratios.fastOverCeiling,
					met: valid && s.ratios.fastOverCeiling >= 0.9,
				},
				{
					name: `${op}: this node (defaults) / HTTP Request (its faster body mode) >= 1.0`,
					value: s.ratios.nodeOverFastestHttp,
					met: valid && s.ratios.nodeOverFastestHttp >= 1.0,
				},
			);
			if (op === 'sendText') {
				// "Today": main before this change, README run of 2026-11-22 (this node 1.29x HTTP Request).
				results.targets.push({
					name: `${op}: expression path no slower than before: this node / HTTP Request (faster body mode) >= 1.29, its ratio before`,
					value: s.ratios.nodeOverFastestHttp,
					met: valid && s.ratios.nodeOverFastestHttp >= 1.29,
				});
			}
			results.targets.push({
				name: `${op}: what ${s.items} items add to n8n's peak memory (main process, median rise over the run) with this node / with the HTTP Request node <= 1.0`,
				value: s.ratios.riseNodeOverHttp,
				met: s.ratios.riseNodeOverHttp <= 1.0,
			});
		}
		if (results.webhooks) {
			const w = results.webhooks;
			const lost = w.rows.every((r) => r.nothingLost);
			if (Number.isFinite(w.ratios.triggerOverWebhook)) {
				results.targets.push({
					name: "webhooks, n8n's default settings: this trigger / Webhook node, deliveries processed per second >= 0.75",
					value: w.ratios.triggerOverWebhook,
					met: w.ratios.triggerOverWebhook >= 0.75,
				});
			}
			if (Number.isFinite(w.ratios.triggerLazyOverWebhookLazy)) {
				results.targets.push({
					name: 'webhooks, N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true: this trigger / Webhook node, deliveries processed per second >= 1.0',
					value: w.ratios.triggerLazyOverWebhookLazy,
					met: w.ratios.triggerLazyOverWebhookLazy >= 1.0,
				});
			}
			results.targets.push({
				name: 'webhooks: nothing lost (every delivery accepted, one successful execution each)',
				value: lost ? 1 : 0,
				met: lost,
			});
		}
		if (cfg.only.has('secrets')) {
			const timing = measureSecretTiming();
			const within = (ratio: number) => ratio > 1 / 3 && ratio < 3;
			results.targets.push(
				{
					name: 'trigger header secret: refusal time, wrong at the last / at the first character, within 1/3..3',
					value: timing.headerLateOverEarly,
					met: within(timing.headerLateOverEarly),
				},
				{
					name: 'trigger basic auth: slowest / fastest refusal (wrong user or password, first or last character) < 3',
					value: timing.basicSlowestOverFastest,
					met: timing.basicSlowestOverFastest < 3,
				},
			);
		}
		// Why the plain loop is out of reach, and where the time goes when a target is missed
		// (measured with --profile, see the README).
		const ratio2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '–');
		for (const [op, s] of Object.entries(results.sends)) {
			results.notes.push(
				`${op}: the ceiling (a node doing nothing but one authenticated request per item) reaches ` +
					`${ratio2(s.ratios.ceilingOverPlain)} of the plain loop, so no node can reach 0.8 of it. n8n's HTTP stack opens a ` +
					`new connection for every request; the plain loop made to do the same ran at ${ratio2(s.ratios.plainNewOverPlain)} ` +
					"of its keep-alive self here, so the rest is n8n's own work per request (credential authentication, its axios " +
					'stack with proxy and SSRF checks, the execution bookkeeping), which no community node can skip.',
			);
		}
		if (results.targets.some((t) => /\/ ceiling/.test(t.name) && !t.met)) {
			results.notes.push(
				'A send below 0.9 of the ceiling: run `npm run bench -- --only=sends,timeline --profile` and compare the ' +
					"package's share of n8n's CPU (profile.md) with the ceiling's; see the README's Benchmarks section.",
			);
		}
		const noDedupeLazy = results.webhooks?.rows.find((r) => r.key === 'triggerNoDedupeLazy');
		const webhookLazy = results.webhooks?.rows.find((r) => r.key === 'webhookLazy');
		if (noDedupeLazy && webhookLazy) {
			results.notes.push(
				`Webhooks with lazy isolate acquisition: this trigger with Ignore Repeated Deliveries off processed ` +
					`${ratio2(noDedupeLazy.processedPerSecond / webhookLazy.processedPerSecond)} of the Webhook node's deliveries per second, ` +
					`with it on ${ratio2(results.webhooks!.ratios.triggerLazyOverWebhookLazy)}: the difference is what the repeat memory costs per delivery.`,
			);
		}
		if (results.targets.some((t) => /Webhook node/.test(t.name) && !t.met)) {
			results.notes.push(
				"Webhooks: n8n 2.41 skips the expression isolate of the webhook phase only for its own Webhook node " +
					'(`LiveWebhooks.webhookPhaseNeedsIsolate` checks the node type). For every other trigger, this one included, it ' +
					'acquires an isolate per request (and with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true builds one only if an ' +
					'expression is evaluated); at version 1 it also evaluates `$parameter["options"]["binaryData"]` for every request ' +
					'body (webhook-helpers `parseRequestBody`), which version 1.1 avoids.',
			);
		}
		results.durationSeconds = Math.round((Date.now() - started) / 1000);

		fs.writeFileSync(path.join(cfg.outDir, 'results.json'), JSON.stringify(results, null, 2) + '\n');
		fs.writeFileSync(path.join(cfg.outDir, 'results.md'), renderMarkdown(results));
		console.log(renderTable(results));
		log(`[bench] wrote ${path.relative(process.cwd(), path.join(cfg.outDir, 'results.json'))} and results.md in ${results.durationSeconds} s`);
	} finally {
		process.off('SIGINT', onSignal);
		process.off('SIGTERM', onSignal);
		await stopAll();
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
