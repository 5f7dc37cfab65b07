/**
 * `npm run bench`: this package against what a user would use instead, side by side in one
 * run, in a real n8n (test/n8n), against the sandbox (in its own process).
 *
 *   Sends     N items in one execution: this node vs n8n's HTTP Request node (generic Bearer
 *             credential) vs a plain keep-alive client loop outside n8n. Text messages and
 *             one timeline operation (Time → Fast-Forward).
 *   Webhooks  M deliveries at a fixed concurrency: this trigger vs n8n's Webhook node (both
 *             answering at once), then every execution counted through the public API.
 *   Sandbox   the sandbox alone at the same concurrencies.
 *   Memory    peak VmRSS of n8n's main process and its task runner during each run.
 *
 * Variants alternate within a round (the order rotates each round) and the report gives
 * medians over the rounds. Settings: flags or environment (see CONFIG below / --help).
 * Writes .artifacts/bench/results.json and results.md.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { CREDENTIAL_TYPES, freePort, startN8n, type N8nInstance, type StoredCredential } from '../n8n/instance';
import { ARTIFACTS_DIR, N8N_VERSION, NODE_VERSION, ensureRuntime } from '../n8n/runtime';
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
	type WebhookVariant,
} from './measure';
import type { MemoryPeak } from './memory';
import { runQueueBench } from './queue';
import { measureSecretTiming } from './secretTiming';
import { renderMarkdown, renderTable, type BenchResults, type Row } from './report';
import {
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
  --deliveries=M            BENCH_DELIVERIES           webhook deliveries per run (2000)
  --rounds=R                BENCH_ROUNDS               rounds; medians are reported (3)
  --concurrency=C           BENCH_CONCURRENCY          requests in flight for the plain loop, and the
                                                       node's default it is compared with (10)
  --webhook-concurrency=W   BENCH_WEBHOOK_CONCURRENCY  deliveries in flight (20)
  --queue-deliveries=Q      BENCH_QUEUE_DELIVERIES     deliveries per run in the queue part (400)
  --queue-parallel=P        BENCH_QUEUE_PARALLEL       executions the items are split over there (4)
  --only=sends,timeline,webhooks,sandbox,secrets,queue  BENCH_ONLY  parts to run (all; queue: single
                                                       mode vs queue mode with 2 and 1 workers, ~10 min)
  --webhook-variants=trigger,webhook,triggerNoDedupe   BENCH_WEBHOOK_VARIANTS
                                                       receivers to run (trigger,webhook)
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
		deliveries: int('deliveries', 'BENCH_DELIVERIES', 2000),
		rounds: int('rounds', 'BENCH_ROUNDS', 3),
		concurrency: int('concurrency', 'BENCH_CONCURRENCY', 10),
		webhookConcurrency: int('webhook-concurrency', 'BENCH_WEBHOOK_CONCURRENCY', 20),
		queueDeliveries: int('queue-deliveries', 'BENCH_QUEUE_DELIVERIES', 400),
		queueParallel: int('queue-parallel', 'BENCH_QUEUE_PARALLEL', 4),
		recipients: 50,
		only: new Set(only),
		webhookVariants: new Set(pick('webhook-variants', 'BENCH_WEBHOOK_VARIANTS', 'trigger,webhook').split(',')),
		expressionEngine: pick('expression-engine', 'BENCH_EXPRESSION_ENGINE', '') || undefined,
		profile: /^(1|true|yes)$/i.test(pick('profile', 'BENCH_PROFILE', 'false')),
		outDir: path.join(ARTIFACTS_DIR, 'bench'),
	};
}

const log = (line: string) => process.stderr.write(line + '\n');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
	const stopAll = async () => {
		await n8n?.stop().catch(() => undefined);
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
		n8n = await startN8n({
			port: await freePort(),
			log,
			logFile: path.join(cfg.outDir, 'n8n.log'),
			env,
			// For experiments: install this packed package instead of packing the checkout.
			packageTarball: process.env.BENCH_TARBALL || undefined,
		});

		const [messaging, timeline, bearerMessaging, bearerTimeline] = await n8n.importCredentials([
			{ name: 'Bench messaging', type: CREDENTIAL_TYPES.messaging, data: { baseUrl: sandbox.url, apiKey: sandbox.messagingKey } },
			{ name: 'Bench timeline', type: CREDENTIAL_TYPES.timeline, data: { baseUrl: sandbox.url, accessToken: sandbox.timelineKey } },
			{ name: 'Bench bearer (messaging)', type: 'httpBearerAuth', data: { token: sandbox.messagingKey } },
			{ name: 'Bench bearer (timeline)', type: 'httpBearerAuth', data: { token: sandbox.timelineKey } },
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
		) => {
			const variants: SendVariant[] = [];
			const add = async (v: Omit<SendVariant, 'workflowId' | 'url'>, wf: ReturnType<typeof packageSendWorkflow>, webhookPath: string) => {
				const id = await n8n!.importWorkflow(wf);
				await n8n!.activate(id);
				variants.push({ ...v, workflowId: id, url: `${n8n!.webhookBaseUrl}/${webhookPath}` });
			};
			const p = `bench-${op}`;
			await add(
				{ key: 'node', label: 'this node (defaults)', inFlight: `${cfg.concurrency} (node default)`, kind: 'n8n' },
				packageSendWorkflow(`Bench ${op}: this node`, `${p}-node`, op, credential),
				`${p}-node`,
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
			await add(
				{ key: 'nodeAll', label: `this node, Concurrency ${items.length}`, inFlight: 'all items at once (= HTTP Request)', kind: 'n8n' },
				packageSendWorkflow(`Bench ${op}: this node, all at once`, `${p}-node-all`, op, credential, items.length),
				`${p}-node-all`,
			);
			variants.push({ key: 'plain', label: 'plain client loop (outside n8n)', inFlight: `${cfg.concurrency} (= node default)`, kind: 'plain', plainConcurrency: cfg.concurrency });
			sendParts.push({ part, op, title, apiPath, items, key, plainBody, variants, runs: new Map(variants.map((v) => [v.key, []])) });
		};
		if (cfg.only.has('sends')) {
			await addSendPart(
				'sends', 'sendText', 'Message → Send Text (POST /v1/messages)', '/v1/messages',
				messageItems(cfg.items, recipients), sandbox.messagingKey,
				(item) => ({ channel: 'chatapp', to: item.to, message_type: 'text', text: item.text }),
				messaging, bearerMessaging,
			);
		}
		if (cfg.only.has('timeline')) {
			await addSendPart(
				'timeline', 'fastForward', 'Time → Fast-Forward 1 minute (POST /v1/fast-forward)', '/v1/fast-forward',
				Array.from({ length: cfg.items }, (_, i) => ({ i })), sandbox.timelineKey,
				() => ({ duration: '1m' }),
				timeline, bearerTimeline,
			);
		}

		// ---- webhooks: workflows --------------------------------------------------------
		const webhookVariants: WebhookVariant[] = [];
		const webhookRuns = new Map<string, WebhookRun[]>();
		if (cfg.only.has('webhooks')) {
			const addTrigger = async (key: string, label: string, dedupe: boolean) => {
				const wf = triggerWorkflow(`Bench webhooks: ${label}`, dedupe);
				const id = await n8n!.importWorkflow(wf);
				await n8n!.activate(id);
				webhookVariants.push({ key, label, workflowId: id, url: `${n8n!.webhookBaseUrl}/${wf.nodes[0].webhookId}/chat-app` });
			};
			await addTrigger('trigger', 'this trigger (defaults: Ignore Repeated Deliveries on)', true);
			const wf = webhookNodeWorkflow('Bench webhooks: Webhook node', 'bench-webhook-node');
			const id = await n8n.importWorkflow(wf);
			await n8n.activate(id);
			webhookVariants.push({ key: 'webhook', label: "n8n's Webhook node (Respond: Immediately)", workflowId: id, url: `${n8n.webhookBaseUrl}/bench-webhook-node` });
			await addTrigger('triggerNoDedupe', 'this trigger, Ignore Repeated Deliveries off', false);
			for (let i = webhookVariants.length - 1; i >= 0; i--) {
				if (!cfg.webhookVariants?.has(webhookVariants[i].key)) webhookVariants.splice(i, 1);
			}
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
						else await runPlainSend(sandbox, v.plainConcurrency!, few, part.apiPath, part.key, part.plainBody, 0);
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
				const r = await runWebhook(n8n, v, 50, cfg.webhookConcurrency, 0, `warm${attempt}`);
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
							: await runPlainSend(sandbox, v.plainConcurrency!, part.items, part.apiPath, part.key, part.plainBody, round);
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
				const r = await runWebhook(n8n, v, cfg.deliveries, cfg.webhookConcurrency, round, `r${round}_${started}`);
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
			const rows: Row[] = part.variants.map((v) => {
				const runs = part.runs.get(v.key)!;
				const mem = runs.map((r) => r.memory).filter(Boolean) as MemoryPeak[];
				return {
					key: v.key,
					label: v.label,
					inFlight: v.inFlight,
					itemsPerSecond: median(runs.map((r) => r.itemsPerSecond)),
					min: Math.min(...runs.map((r) => r.itemsPerSecond)),
					max: Math.max(...runs.map((r) => r.itemsPerSecond)),
					ms: median(runs.map((r) => r.ms)),
					executionMs: v.kind === 'n8n' ? median(runs.map((r) => r.executionMs ?? NaN)) : undefined,
					peakMemoryMb: mem.length ? Math.max(...mem.map((m) => m.totalMb)) : undefined,
					peakMainMb: mem.length ? Math.max(...mem.map((m) => m.mainMb)) : undefined,
					allValid: runs.every((r) => r.valid),
					problems: runs.filter((r) => !r.valid).map((r) => `round ${r.round}: ${r.problem}`),
					runs,
				};
			});
			const by = (k: string) => rows.find((r) => r.key === k)?.itemsPerSecond ?? NaN;
			results.sends[part.op] = {
				title: part.title,
				items: part.items.length,
				rows,
				ratios: {
					nodeOverHttp: by('node') / by('http'),
					// The strictest comparison: against the faster of the HTTP Request node's body modes.
					nodeOverFastestHttp: by('node') / Math.max(by('http'), by('httpJson') || 0),
					nodeAllOverHttp: by('nodeAll') / by('http'),
					nodeOverPlain: by('node') / by('plain'),
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
				return {
					key: v.key,
					label: v.label,
					acceptedPerSecond: median(runs.map((r) => r.acceptedPerSecond)),
					min: Math.min(...runs.map((r) => r.acceptedPerSecond)),
					max: Math.max(...runs.map((r) => r.acceptedPerSecond)),
					p50Ms: median(runs.map((r) => r.p50Ms)),
					p99Ms: median(runs.map((r) => r.p99Ms)),
					processedPerSecond: median(runs.map((r) => r.processedPerSecond)),
					executionsSucceeded: runs.map((r) => r.executions.success),
					nothingLost: runs.every((r) => r.nothingLost),
					peakMemoryMb: Math.max(...runs.map((r) => r.memory.totalMb)),
					peakMainMb: Math.max(...runs.map((r) => r.memory.mainMb)),
					runs,
				};
			});
			const by = (k: string) => rows.find((r) => r.key === k) ?? { acceptedPerSecond: NaN };
			results.webhooks = {
				deliveries: cfg.deliveries,
				concurrency: cfg.webhookConcurrency,
				rows,
				ratios: {
					triggerOverWebhook: by('trigger').acceptedPerSecond / by('webhook').acceptedPerSecond,
					triggerNoDedupeOverWebhook: by('triggerNoDedupe').acceptedPerSecond / by('webhook').acceptedPerSecond,
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
			results.targets.push(
				{
					name: `${op}: this node / HTTP Request (its faster body mode) >= 1.0`,
					value: s.ratios.nodeOverFastestHttp,
					met: valid && s.ratios.nodeOverFastestHttp >= 1.0,
				},
				{ name: `${op}: this node / plain loop >= 0.8`, value: s.ratios.nodeOverPlain, met: valid && s.ratios.nodeOverPlain >= 0.8 },
			);
		}
		if (results.webhooks) {
			const w = results.webhooks;
			const lost = w.rows.every((r) => r.nothingLost);
			results.targets.push(
				{ name: 'webhooks: this trigger / Webhook node >= 1.0', value: w.ratios.triggerOverWebhook, met: w.ratios.triggerOverWebhook >= 1.0 },
				{ name: 'webhooks: nothing lost (every delivery accepted, one successful execution each)', value: lost ? 1 : 0, met: lost },
			);
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
		// Where the time goes when a target is missed (measured with --profile, see the README).
		const vmEngine = !cfg.expressionEngine || cfg.expressionEngine === 'vm';
		if (results.targets.some((t) => /plain loop/.test(t.name) && !t.met)) {
			results.notes.push(
				'Sends vs the plain loop: inside n8n every item pays costs the plain loop does not. Each expression parameter ' +
					'(here `{{ $json.to }}` and `{{ $json.text }}`) is evaluated by n8n' +
					(vmEngine ? "'s isolated-vm expression engine (2.x default)" : "'s expression engine") +
					"; n8n resolves the credential's `Bearer {{$credentials.apiKey}}` header through the same engine for every request " +
					"(credentials-helper `authenticate`); and the request goes through n8n's outbound HTTP stack (axios, follow-redirects, " +
					"proxy agent). The HTTP Request node pays the same (and reads and decrypts the credential for every item on top). " +
					"This package's own code (runner, handler, transport) is under 1 % of n8n's CPU time in `--profile`.",
			);
		}
		if (vmEngine && results.targets.some((t) => /Webhook node/.test(t.name) && !t.met)) {
			results.notes.push(
				"Webhooks: n8n 2.41 skips the expression isolate of the webhook phase only for its own Webhook node " +
					'(`LiveWebhooks.webhookPhaseNeedsIsolate` checks the node type). Every other trigger, this one included, makes it ' +
					'create and dispose an isolated-vm isolate per request (expression pool size 1), on top of the one each execution ' +
					'gets: about twice the isolate work per delivery. Run with `--expression-engine=legacy` to see the receivers without it.',
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
