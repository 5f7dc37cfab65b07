/**
 * What the parts of a bench run share: the services they measure (the sandbox in its own
 * process, n8n with its defaults and, for the webhooks, a second n8n with lazy isolate
 * acquisition), the credentials in n8n, the recipients, and the shape every part has.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import type { StoredCredential } from '../n8n/client';
import { CREDENTIAL_TYPES } from '../n8n/communityPackage';
import { startN8n, type N8nInstance } from '../n8n/instance';
import { freePort } from '../n8n/processes';
import { N8N_VERSION, NODE_VERSION } from '../n8n/runtime';
import { packBeforeBursts } from './beforeBursts';
import { CEILING_CREDENTIAL_TYPE, CEILING_PACKAGE, packCeilingPackage } from './ceiling/pack';
import { packUncachedVariants } from './uncached';
import type { Config } from './config';
import { heapControlEnv, heapSocketPath, n8nHeap, type N8nHeap } from './heap';
import type { SandboxProcess } from './measure';
import type { BenchResults } from './results';
import { nodeVersions } from './workflows';

export const log = (line: string) => process.stderr.write(line + '\n');

/**
 * One part of the bench: its workflows are set up before the warm-up, it is measured once per
 * round (the parts take turns within a round), and its medians go into the results at the end.
 */
export interface BenchPart {
	warmUp(): Promise<void>;
	round(round: number): Promise<void>;
	report(results: BenchResults): void | Promise<void>;
	/** Stops what the part started (a process of its own), after its report. */
	close?(): Promise<void>;
}

/** The processes a run starts, filled in as they start so an interrupt can stop what exists. */
export interface Services {
	sandbox: SandboxProcess;
	n8n?: N8nInstance;
	/** A second n8n for the webhooks, with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true. */
	n8nLazy?: N8nInstance;
}

export async function stopServices(services: Services): Promise<void> {
	await services.n8n?.stop().catch(() => undefined);
	await services.n8nLazy?.stop().catch(() => undefined);
	await services.sandbox.stop().catch(() => undefined);
}

export interface BenchCredentials {
	messaging: StoredCredential;
	timeline: StoredCredential;
	bearerMessaging: StoredCredential;
	bearerTimeline: StoredCredential;
	ceilingMessaging: StoredCredential;
	ceilingTimeline: StoredCredential;
}

export interface BenchContext {
	cfg: Config;
	sandbox: SandboxProcess;
	n8n: N8nInstance;
	/** The heap of `n8n`'s main process: collected before every send run, sampled with --heap-profile. */
	heap: N8nHeap;
	n8nLazy?: N8nInstance;
	/** The heap of `n8nLazy`'s main process, when the burst parts run there (collected before each of their runs). */
	heapLazy?: N8nHeap;
	credentials: BenchCredentials;
	/** Recipients whose 24-hour window is open (re-opened every round by openWindows). */
	recipients: string[];
	openWindows(): Promise<void>;
	/** When the run started: tags this run's webhook deliveries. */
	started: number;
	/**
	 * The part "bursts": whether n8n has the trigger as it was before Messages in Quick Succession
	 * (beforeBursts.ts), or why not; undefined when the part does not run.
	 */
	beforeBursts?: { installed: true } | { installed: false; missing: string };
}

/** Starts the n8n instances the chosen parts need, imports the credentials, opens the windows. */
export async function startBench(cfg: Config, services: Services, profileDir: string, started: number): Promise<BenchContext> {
	const { sandbox } = services;
	// n8n's settings: the server's and its CLI commands' (and the helper processes' that read its database).
	const env: Record<string, string> = {};
	if (cfg.expressionEngine) env.N8N_EXPRESSION_ENGINE = cfg.expressionEngine;
	// What acts in the server process alone (startN8n's serverEnv): the CPU profiler and the heap
	// control's preload. A CLI command or a `node -e` that reads n8n's database with them would
	// write profiles of its own into profileDir, and load the preload.
	const profileOptions = cfg.profile ? `--cpu-prof --cpu-prof-dir=${profileDir}` : undefined;
	if (cfg.profile) {
		fs.rmSync(profileDir, { recursive: true, force: true });
		fs.mkdirSync(profileDir, { recursive: true });
	}
	// The part "bursts" compares the trigger with the option off to the trigger before the option.
	const packing = Date.now();
	const beforeBursts = cfg.only.has('bursts') ? packBeforeBursts(path.join(cfg.outDir, 'before-bursts')) : undefined;
	if (beforeBursts) log(`[bench] the trigger before Messages in Quick Succession: ${'tarball' in beforeBursts ? `packed in ${((Date.now() - packing) / 1000).toFixed(1)} s` : beforeBursts.missing}`);
	const startBenchN8n = async (logName: string, extraEnv: Record<string, string>, serverEnv: Record<string, string>) =>
		await startN8n({
			port: await freePort(),
			log,
			logFile: path.join(cfg.outDir, logName),
			env: { ...env, ...extraEnv },
			serverEnv,
			// For experiments: install this packed package instead of packing the checkout.
			packageTarball: process.env.BENCH_TARBALL || undefined,
			// The ceiling fixture and the copies without a cache, next to this package (never part of its dist).
			extraPackages: [
				{ name: CEILING_PACKAGE.name, tarball: packCeilingPackage(path.join(cfg.outDir, 'ceiling')) },
				...packUncachedVariants(path.join(cfg.outDir, 'uncached')),
				...(beforeBursts && 'tarball' in beforeBursts ? [beforeBursts] : []),
			],
		});
	const heapSocket = heapSocketPath('n8n');
	const heapEnv = heapControlEnv(heapSocket);
	const n8n = (services.n8n = await startBenchN8n(
		'n8n.log',
		{},
		{ ...heapEnv, NODE_OPTIONS: [profileOptions, heapEnv.NODE_OPTIONS].filter(Boolean).join(' ') },
	));
	// The burst parts run in it by default (--burst-settings), collecting its heap before each run.
	const burstsInLazy = (cfg.only.has('bursts') || cfg.only.has('held-bursts')) && cfg.burstSettings === 'lazy';
	const lazyHeapSocket = burstsInLazy ? heapSocketPath('n8n-lazy') : undefined;
	if ((cfg.only.has('webhooks') && [...(cfg.webhookVariants ?? [])].some((key) => key.endsWith('Lazy'))) || burstsInLazy) {
		const lazyHeapEnv = lazyHeapSocket ? heapControlEnv(lazyHeapSocket) : undefined;
		const nodeOptions = [profileOptions, lazyHeapEnv?.NODE_OPTIONS].filter(Boolean).join(' ');
		services.n8nLazy = await startBenchN8n(
			'n8n-lazy-acquire.log',
			{ N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' },
			{ ...lazyHeapEnv, ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) },
		);
	}

	const [messaging, timeline, bearerMessaging, bearerTimeline, ceilingMessaging, ceilingTimeline] = await n8n.importCredentials([
		{ name: 'Bench messaging', type: CREDENTIAL_TYPES.messaging, data: { baseUrl: sandbox.url, apiKey: sandbox.messagingKey } },
		{ name: 'Bench timeline', type: CREDENTIAL_TYPES.timeline, data: { baseUrl: sandbox.url, accessToken: sandbox.timelineKey } },
		{ name: 'Bench bearer (messaging)', type: 'httpBearerAuth', data: { token: sandbox.messagingKey } },
		{ name: 'Bench bearer (timeline)', type: 'httpBearerAuth', data: { token: sandbox.timelineKey } },
		{ name: 'Bench ceiling (messaging)', type: CEILING_CREDENTIAL_TYPE, data: { baseUrl: sandbox.url, apiKey: sandbox.messagingKey } },
		{ name: 'Bench ceiling (timeline)', type: CEILING_CREDENTIAL_TYPE, data: { baseUrl: sandbox.url, apiKey: sandbox.timelineKey } },
	]);

	const recipients = Array.from({ length: cfg.recipients }, (_, i) => `+1415555${String(1000 + i).padStart(4, '0')}`);
	const openWindows = async () => {
		for (const r of recipients) await sandbox.client.inbound(r, 'hi');
	};
	await openWindows();
	return {
		cfg,
		sandbox,
		n8n,
		heap: n8nHeap(heapSocket),
		n8nLazy: services.n8nLazy,
		heapLazy: lazyHeapSocket ? n8nHeap(lazyHeapSocket) : undefined,
		credentials: { messaging, timeline, bearerMessaging, bearerTimeline, ceilingMessaging, ceilingTimeline },
		recipients,
		openWindows,
		started,
		beforeBursts: beforeBursts && ('tarball' in beforeBursts ? { installed: true } : { installed: false, missing: beforeBursts.missing }),
	};
}

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

/** The results before any part reported: the machine and the settings. */
export function emptyResults(cfg: Config, runtime: { n8nVersion?: string; nodeVersion?: string }): BenchResults {
	return {
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
			smoke: cfg.smoke,
		},
		sends: {},
		webhooks: undefined,
		sandbox: undefined,
		targets: [],
		notes: [],
	};
}
