/**
 * The shape of a bench run's results (results.json): what each part reports. Only types, and
 * only from modules that import none of the parts, so the parts (which fill these in) and the
 * renderings (report.ts) both depend on it and it on neither.
 */
import type { MemoryCostRow } from './memoryCost';
import type { PollAnswer, PollBreakdown, TimedCall } from './poll-process';
import type { QueueBenchResult } from './queue';
import type { SavedExecutionBytes, StaticDataSize } from './staticData';

export interface Row {
	key: string;
	label: string;
	inFlight: string;
	itemsPerSecond: number;
	/** Items/s as a share of the ceiling's and of the plain keep-alive loop's. */
	overCeiling: number;
	overPlain: number;
	min: number;
	max: number;
	/** Median node execution time (n8n variants) or loop wall time (plain loop), ms. */
	ms: number;
	executionMs?: number;
	/** n8n's main process, CPU time per item (all threads; the load of the machine barely moves it), median of rounds, ms. */
	cpuMsPerItem?: number;
	peakMemoryMb?: number;
	peakMainMb?: number;
	/** n8n's main process: exact peak during a run (VmHWM), median of rounds, MB. */
	medianPeakMainMb?: number;
	/** The same peak minus the process's RSS when the run started, median of rounds, MB. */
	medianGrowthMainMb?: number;
	allValid: boolean;
	problems: string[];
	runs: unknown[];
}

export interface SendResult {
	title: string;
	items: number;
	/** The row on the operation's fastest documented path. */
	fastKey: string;
	rows: Row[];
	ratios: {
		nodeOverHttp: number;
		nodeOverFastestHttp: number;
		nodeAllOverHttp: number;
		nodeOverPlain: number;
		nodeOverCeiling: number;
		/** The median of the rounds' ratios: each round runs the two side by side. */
		fastOverCeiling: number;
		fastOverCeilingByRound: number[];
		ceilingOverPlain: number;
		plainNewOverPlain: number;
		/** What the credential cache buys (uncached.ts): this node (defaults) / the same without it. */
		nodeOverNoCredentialCache: number;
		/** n8n's peak memory with this node (defaults) / with the HTTP Request node (defaults). */
		peakNodeOverHttp: number;
		/** The same for the rise of that peak over the process's size when the run started. */
		riseNodeOverHttp: number;
	};
}

export interface WebhookRow {
	key: string;
	label: string;
	/** The n8n it ran in: default settings, or N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true. */
	settings: 'defaults' | 'lazy';
	acceptedPerSecond: number;
	min: number;
	max: number;
	p50Ms: number;
	p99Ms: number;
	processedPerSecond: number;
	executionsSucceeded: number[];
	nothingLost: boolean;
	peakMemoryMb: number;
	peakMainMb: number;
	/** n8n's main process, CPU time per delivery (all threads), median over rounds, ms. */
	cpuMsPerDelivery: number;
	/** Bytes n8n's database holds per saved execution (workflow snapshot + run data), median over rounds. */
	bytesPerSavedExecution: number;
	/** Bytes of static data inside each saved execution's stored workflow, median over rounds. */
	staticDataPerSavedExecution: number;
	/** Saved executions whose stored workflow holds the repeat memory (all rounds). */
	savedExecutionsWithMemory: number;
	/** Triggers: bytes of the workflow's static data after every round. */
	staticDataBytes?: number;
	runs: Array<{ round: number; processedPerSecond: number; staticData?: { bytes: number; events: number } }>;
}

// The parts "held-bursts" and "bursts" (bursts.ts)

/** One receiver of a bursts part: deliveries processed per second and the run's checks, medians over rounds. */
export interface BurstRow {
	key: string;
	label: string;
	processedPerSecond: number;
	min: number;
	max: number;
	acceptedPerSecond: number;
	p99Ms: number;
	/** n8n's main process, CPU time per delivery (all threads), ms. */
	cpuMsPerDelivery: number;
	/** Executions expected per round: one per delivery, or one per burst when gathering. */
	expectedExecutions: number;
	executionsSucceeded: number[];
	nothingLost: boolean;
	runs: Array<{ round: number; processedPerSecond: number; acceptedPerSecond: number; cpuMsPerDelivery: number; p99Ms: number }>;
}

/** The runs a gathering trigger started for a set of bursts, read from n8n's executions. */
export interface BurstCheck {
	round: number;
	/** Runs (executions) started, and those holding exactly one customer's messages, in order, texts joined. */
	runs: number;
	exact: number;
	/** Messages in no run; messages in more than one (or twice in one); customers whose burst came in several runs. */
	lost: number;
	twice: number;
	split: number;
	ok: boolean;
	problems: string[];
}

/** Part "bursts": Gather Into One Run, and the option off beside the trigger before the option. */
export interface BurstsResult {
	/** The n8n it ran in: lazy isolate acquisition, or n8n's default settings (--burst-settings). */
	settings: 'lazy' | 'defaults';
	customers: number;
	deliveries: number;
	burstMax: number;
	/** The smallest and largest burst of the split. */
	sizes: { min: number; max: number };
	quietSeconds: number;
	longestWaitSeconds: number;
	concurrency: number;
	rows: BurstRow[];
	/** The gathering trigger's runs, round by round. */
	checks: BurstCheck[];
	/** Ratios of deliveries processed per second, each round's from runs side by side in it. */
	perRound: Record<'absentOverBefore' | 'eachOverBefore' | 'eachOverAbsent' | 'gatherOverAbsent' | 'cpuAbsentOverBefore', number[]>;
	/** The ratio the "unchanged" target is judged on: over the trigger before the option, else (no copy) One Run Each set / absent. */
	offTarget: 'absentOverBefore' | 'eachOverAbsent';
	before: { installed: boolean; missing?: string; commit: string };
	/** The gathering trigger's static data after the last round (its burst store, emptied, with the started messages' IDs). */
	staticDataBytesAfter: number;
	/** Every delivery to the gathering trigger answered 2xx, and its runs exactly the bursts in every round. */
	gatherValid: boolean;
	/** That, and every option-off delivery one successful run. */
	allValid: boolean;
	problems: string[];
}

/** Part "held-bursts": n8n's Webhook node with and without bursts held in the same n8n. */
export interface HeldBurstsResult {
	settings: 'lazy' | 'defaults';
	customers: number;
	messages: number;
	quietSeconds: number;
	deliveries: number;
	concurrency: number;
	/** 'without' and 'with' the bursts held. */
	rows: BurstRow[];
	/** With / without, deliveries processed per second, round by round (side by side), and their median. */
	perRound: number[];
	ratio: number;
	/** Each round's filling: deliveries answered per second, and what the trigger held after n8n's Webhook node was measured beside it. */
	fills: Array<{ round: number; acceptedPerSecond: number; answered: number; heldCustomers: number; heldMessages: number; staticDataBytes: number; startedWhileHeld: number }>;
	/** The held bursts started afterwards (the trigger republished with a Quiet Time of 1 s), checked as in part "bursts". */
	releases: BurstCheck[];
	allValid: boolean;
	problems: string[];
}

export interface BenchResults {
	date: string;
	machine: {
		nproc: number;
		memoryGiB: number;
		cpuModel: string;
		os: string;
		loadAverageAtStart: number[];
		benchNode: string;
		n8nNode: string;
		n8nVersion: string;
	};
	config: {
		items: number;
		deliveries: number;
		rounds: number;
		concurrency: number;
		webhookConcurrency: number;
		recipients: number;
		expressionEngine: string;
		nodeVersions: { action: number; trigger: number };
		/** A smoke run (--smoke): the targets are printed, not judged. */
		smoke?: boolean;
	};
	sends: Record<string, SendResult>;
	webhooks?: {
		deliveries: number;
		concurrency: number;
		rows: WebhookRow[];
		ratios: {
			triggerOverWebhook: number;
			triggerLazyOverWebhookLazy: number;
			triggerNoDedupeOverWebhook: number;
		};
		/** The same ratios per round, each from runs side by side in that round. */
		perRound: Record<'triggerOverWebhook' | 'triggerNoDedupeOverWebhook' | 'triggerOverTriggerNoDedupe' | 'triggerLazyOverWebhookLazy' | 'triggerLazyOverTriggerNoDedupeLazy', number[]>;
		/** Deliveries that filled each remembering trigger's memory before the rounds. */
		prefill: number;
		/** The memory's JavaScript cost per call at several sizes (memoryCost.ts). */
		memoryCost: MemoryCostRow[];
		/** Bytes of static data (the repeat memory) in each saved execution of the remembering triggers, the largest median. */
		memoryBytesPerSavedExecution: number;
	};
	sandbox?: Record<string, { requestsPerSecond: number; p50Ms: number; p99Ms: number; allOk: boolean }>;
	/** The Timeline Navigation Events Trigger's poll against one Event → Monitor call (polling.ts). */
	polling?: PollingResult;
	queue?: QueueBenchResult;
	heldBursts?: HeldBurstsResult;
	bursts?: BurstsResult;
	targets: Array<{ name: string; value: number; met: boolean }>;
	notes: string[];
	durationSeconds?: number;
	/** Each part's own time, seconds: its set-up, warm-up, rounds and report (run.ts). */
	partSeconds?: Record<string, number>;
}

// The polling part (polling.ts)

/** A poll and a Monitor call measured side by side. */
export interface PollingPair {
	round: number;
	poll: TimedCall;
	monitor: TimedCall;
	/** The static data n8n would save after the poll. */
	staticData: PollAnswer['staticData'];
}

export interface CallStats {
	/** Medians over every measured call, and the range of the wall times. */
	ms: number;
	minMs: number;
	maxMs: number;
	cpuMs: number;
}

export interface PollingResult {
	events: number;
	newPerPoll: number;
	pollsPerRound: number;
	/** The Node of the process that ran n8n-core. */
	node: string;
	poll: CallStats;
	monitor: CallStats;
	/** Medians of poll ÷ medians of Monitor call, over every pair; and per round. */
	ratios: { time: number; cpu: number };
	perRound: { time: number[]; cpu: number[] };
	staticData: {
		/** In the bench's n8n, after the activation remembered the window's N events. */
		n8n: StaticDataSize;
		/** The same after K more were remembered (the check below). */
		n8nAfterNew: StaticDataSize;
		/** The execution the check's poll started, as n8n's database holds it (static data in its stored workflow). */
		savedExecution: SavedExecutionBytes;
		/** In the measuring process after the last poll (the removed events' hours not yet forgotten). */
		last: { bytes: number; remembered: number };
		/** The JSON.stringify of n8n's save after a poll, median, ms. */
		serialiseMs: number;
	};
	/** Where a poll's own time goes (poll-process.ts), medians over the rounds. */
	breakdown: PollBreakdown;
	/** The bench's n8n: the activation's poll after K new events started one execution with exactly them. */
	n8nCheck: { ok: boolean; detail: string };
	allValid: boolean;
	problems: string[];
	pairs: PollingPair[];
}
