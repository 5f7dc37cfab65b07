/**
 * The bench's measurements, shared by its parts (run.ts, queue.ts): the sandbox in its own
 * process, executions through n8n's public API, a send of N items in one execution, and M
 * webhook deliveries at a fixed concurrency.
 */
import { fork, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';

import { SandboxClient } from '../sandbox/client';
import type { N8nInstance } from '../n8n/instance';
import { waitFor } from '../shared/wait';
import { runLoad, type LoadResult } from './load';
import type { N8nHeap } from './heap';
import { MemorySampler, type MemoryPeak } from './memory';
import { NODE_UNDER_TEST } from './workflows';

// ---------------------------------------------------------------------------------------------
// Small helpers


export function median(values: number[]): number {
	const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
	if (v.length === 0) return NaN;
	const mid = Math.floor(v.length / 2);
	return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

export function rotate<T>(list: T[], by: number): T[] {
	const k = by % list.length;
	return [...list.slice(k), ...list.slice(0, k)];
}

export interface SandboxProcess {
	url: string;
	timelineKey: string;
	messagingKey: string;
	client: SandboxClient;
	pid: number;
	stop(): Promise<void>;
}

/**
 * A TypeScript file of the bench in a process of its own (tsx's loader, resolved by path so that
 * any working directory works), talking over IPC; on `execPath` when given (another Node).
 */
export function forkBenchScript(file: string, options: { execPath?: string; env?: NodeJS.ProcessEnv } = {}): ChildProcess {
	return fork(path.join(__dirname, file), [], {
		execPath: options.execPath,
		env: options.env,
		execArgv: ['--import', pathToFileURL(require.resolve('tsx')).href],
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
}

/** Asks a process of forkBenchScript to close ('close'); kills it if it has not exited 5 s later. */
export async function closeBenchScript(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise<void>((r) => child.once('exit', () => r()));
	child.send('close');
	await Promise.race([exited, sleep(5000)]);
	if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

export async function startSandboxProcess(): Promise<SandboxProcess> {
	const child = forkBenchScript('sandbox-process.ts');
	const info = await new Promise<{ url: string; timelineKey: string; messagingKey: string }>((resolve, reject) => {
		child.once('message', (m) => resolve(m as never));
		child.once('exit', (code) => reject(new Error(`the sandbox process exited (${code}) before listening`)));
	});
	return {
		...info,
		client: new SandboxClient(info.url),
		pid: child.pid!,
		stop: async () => await closeBenchScript(child),
	};
}

// ---------------------------------------------------------------------------------------------
// n8n executions through the public API

export interface ExecutionSummary {
	id: string;
	status?: string;
	finished?: boolean;
	startedAt?: string;
	stoppedAt?: string;
}

/** Executions of a workflow newer than `afterId`, newest first (all pages). */
export async function executionsAfter(n8n: N8nInstance, workflowId: string, afterId: number): Promise<ExecutionSummary[]> {
	const out: ExecutionSummary[] = [];
	let cursor: string | undefined;
	for (;;) {
		const q = new URLSearchParams({ workflowId, limit: '250' });
		if (cursor) q.set('cursor', cursor);
		const res = await n8n.api('GET', `/executions?${q}`);
		const page: ExecutionSummary[] = res.body.data ?? [];
		for (const e of page) {
			if (Number(e.id) <= afterId) return out;
			out.push(e);
		}
		cursor = res.body.nextCursor ?? undefined;
		if (!cursor || page.length === 0) return out;
	}
}

export async function newestExecutionId(n8n: N8nInstance, workflowId: string): Promise<number> {
	const res = await n8n.api('GET', `/executions?${new URLSearchParams({ workflowId, limit: '1' })}`);
	return Number(res.body.data?.[0]?.id ?? 0);
}

export const isDone = (e: ExecutionSummary) => Boolean(e.stoppedAt) && e.status !== 'running' && e.status !== 'new';

// ---------------------------------------------------------------------------------------------
// Sends

export interface SendVariant {
	key: string;
	label: string;
	/** What "concurrency" means for this variant, as the table shows it. */
	inFlight: string;
	kind: 'n8n' | 'plain';
	workflowId?: string;
	url?: string;
	plainConcurrency?: number;
	/** Plain loop only: false = a new connection per request, as n8n's HTTP stack makes them. */
	keepAlive?: boolean;
}

export interface SendRun {
	round: number;
	itemsPerSecond: number;
	/** The node's own execution time (n8n runData executionTime), or the loop's wall time. */
	ms: number;
	/** Whole execution (startedAt -> stoppedAt), n8n variants only. */
	executionMs?: number;
	/** n8n's main process: CPU time (all threads) from the webhook call to its answer, per item, ms; n8n variants only. */
	cpuMsPerItem?: number;
	outputItems: number;
	sandboxReceived: number;
	sandboxOk: number;
	valid: boolean;
	problem?: string;
	memory?: MemoryPeak;
}

export function messageItems(n: number, recipients: string[]): Array<{ to: string; text: string }> {
	return Array.from({ length: n }, (_, i) => ({
		to: recipients[i % recipients.length],
		text: `Bench message ${i + 1}: your order is on its way.`,
	}));
}

export async function runN8nSend(
	n8n: N8nInstance,
	sandbox: SandboxProcess,
	variant: SendVariant,
	items: object[],
	apiPath: string,
	round: number,
	/** n8n's heap: collected before the run; sampled into `heapProfile` (a file) while it runs, when given. */
	heap?: { control: N8nHeap; heapProfile?: string },
): Promise<SendRun> {
	await sandbox.client.clearRequests();
	const before = await newestExecutionId(n8n, variant.workflowId!);
	// From n8n's live objects only: what the run adds to the peak is its own, not the garbage of
	// the runs before it (which otherwise decides whether a run grows the heap or finds it grown).
	await heap?.control.collectGarbage();
	if (heap?.heapProfile) await heap.control.startSampling();
	const sampler = new MemorySampler(n8n.pid).start();
	const cpuBefore = cpuTimeMs(n8n.pid);
	const res = await fetch(variant.url!, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ items }),
	});
	await res.text();
	// The webhook answers once the node under test is done: n8n's CPU for the run, before the bench asks for its execution.
	const cpuMs = cpuTimeMs(n8n.pid) - cpuBefore;
	let exec: ExecutionSummary;
	let memory: MemoryPeak | undefined;
	try {
		exec = await waitFor(
			`${variant.label}: a finished execution after the webhook call (HTTP ${res.status})`,
			async () => (await executionsAfter(n8n, variant.workflowId!, before)).find(isDone),
			{ timeoutMs: 60000, intervalMs: 100 },
		);
	} finally {
		memory = sampler.stop();
		if (heap?.heapProfile) await heap.control.stopSampling(heap.heapProfile);
	}
	const full = (await n8n.api('GET', `/executions/${exec.id}?includeData=true`)).body;
	const nodeRun = full.data?.resultData?.runData?.[NODE_UNDER_TEST]?.[0];
	const outputItems: number = nodeRun?.data?.main?.[0]?.length ?? 0;
	const ms: number = nodeRun?.executionTime ?? NaN;
	const received = await sandbox.client.requests({ method: 'POST', path: apiPath });
	const ok = received.filter((r) => r.responseStatus === 200).length;
	const problems: string[] = [];
	if (full.status !== 'success') problems.push(`execution ${exec.id} ended "${full.status}"`);
	if (nodeRun?.error) problems.push(`node error: ${nodeRun.error.message}`);
	if (outputItems !== items.length) problems.push(`${outputItems} output items, expected ${items.length}`);
	if (received.length !== items.length || ok !== items.length) {
		problems.push(`sandbox received ${received.length} requests (${ok} answered 200), expected ${items.length}`);
	}
	return {
		round,
		itemsPerSecond: (items.length / ms) * 1000,
		ms,
		executionMs: Date.parse(full.stoppedAt) - Date.parse(full.startedAt),
		cpuMsPerItem: cpuMs / items.length,
		outputItems,
		sandboxReceived: received.length,
		sandboxOk: ok,
		valid: problems.length === 0,
		problem: problems.join('; ') || undefined,
		memory,
	};
}

export async function runPlainSend(
	sandbox: SandboxProcess,
	concurrency: number,
	items: object[],
	apiPath: string,
	key: string,
	body: (item: any) => object,
	round: number,
	keepAlive = true,
): Promise<SendRun & { load: LoadResult }> {
	await sandbox.client.clearRequests();
	const load = await runLoad(
		items.length,
		concurrency,
		(i) => ({
			method: 'POST',
			url: `${sandbox.url}${apiPath}`,
			headers: { authorization: `Bearer ${key}` },
			body: body(items[i]),
		}),
		{ keepAlive },
	);
	const received = await sandbox.client.requests({ method: 'POST', path: apiPath });
	const ok = received.filter((r) => r.responseStatus === 200).length;
	const valid = load.ok === items.length && ok === items.length;
	return {
		round,
		itemsPerSecond: load.perSecond,
		ms: load.wallMs,
		outputItems: load.ok,
		sandboxReceived: received.length,
		sandboxOk: ok,
		valid,
		problem: valid ? undefined : `statuses ${JSON.stringify(load.statuses)} ${load.errors.join('; ')}`,
		load,
	};
}

// ---------------------------------------------------------------------------------------------
// Webhooks

export interface WebhookVariant {
	key: string;
	label: string;
	workflowId: string;
	url: string;
}

export interface WebhookRun {
	round: number;
	acceptedPerSecond: number;
	p50Ms: number;
	p99Ms: number;
	accepted: number;
	statuses: Record<string, number>;
	executions: { total: number; success: number; other: Record<string, number> };
	/** First request sent -> last execution stopped. */
	processedPerSecond: number;
	nothingLost: boolean;
	memory: MemoryPeak;
	/** n8n's main process: CPU time (all its threads, the database's included) per delivery, ms. */
	cpuMsPerDelivery: number;
	/** The newest execution of the workflow before the run (the run's executions come after it). */
	executionsAfterId: number;
}

/** CPU time a process has used (user + system, all threads), ms; NaN where /proc cannot tell. */
function cpuTimeMs(pid: number): number {
	try {
		// Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
		const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
		return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
	} catch {
		return NaN;
	}
}
/** USER_HZ: 100 on Linux for every architecture this bench runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

export function statusPayload(id: string, i: number): object {
	return {
		event_type: 'message.status',
		message_id: id,
		conversation_id: `conv_bench_${i % 50}`,
		channel: 'chatapp',
		to: `+1415555${String(1000 + (i % 50)).padStart(4, '0')}`,
		status: 'delivered',
		timestamp: new Date().toISOString(),
	};
}

export async function runWebhook(
	n8n: N8nInstance,
	variant: WebhookVariant,
	count: number,
	concurrency: number,
	round: number,
	tag: string,
	/** The delivery body (default: a message.status event). */
	payload: (id: string, i: number) => object = statusPayload,
	/** Give up waiting for executions once none has finished for this long. */
	stallMs = 20000,
): Promise<WebhookRun> {
	return await runDeliveries(n8n, variant, {
		deliveries: count,
		executions: count,
		round,
		stallMs,
		send: async () =>
			await runLoad(count, concurrency, (i) => ({
				method: 'POST',
				url: variant.url,
				body: payload(`msg_bench_${tag}_${variant.key}_${i}`, i),
			})),
	});
}

/**
 * Sends deliveries to a workflow (`send`) and waits for the executions they start: `executions`
 * of them (one per delivery, or fewer for a trigger that gathers several into one run), or none
 * finishing for `stallMs`; then `settleMs` more, so that one too many is seen. Timed and checked
 * as runWebhook.
 */
export async function runDeliveries(
	n8n: N8nInstance,
	variant: Pick<WebhookVariant, 'workflowId' | 'label'>,
	opts: { deliveries: number; executions: number; round: number; send: () => Promise<LoadResult>; stallMs?: number; settleMs?: number },
): Promise<WebhookRun> {
	const { deliveries: count, executions: expected, round, stallMs = 20000, settleMs = 0 } = opts;
	const before = await newestExecutionId(n8n, variant.workflowId);
	const sampler = new MemorySampler(n8n.pid).start();
	const cpuBefore = cpuTimeMs(n8n.pid);
	const t0 = Date.now();
	const load = await opts.send();
	// Every accepted delivery must become a finished execution; wait until none is missing
	// (or nothing changes for `stallMs`).
	let list: ExecutionSummary[] = [];
	let lastCount = -1;
	let lastChange = Date.now();
	await waitFor(
		`${expected} finished executions of ${variant.label}`,
		async () => {
			list = await executionsAfter(n8n, variant.workflowId, before);
			const done = list.filter(isDone).length;
			if (done >= expected) return true;
			if (done !== lastCount) {
				lastCount = done;
				lastChange = Date.now();
				return false;
			}
			return Date.now() - lastChange > stallMs;
		},
		{ timeoutMs: Infinity, intervalMs: 250 },
	);
	// The time and CPU end with the expected executions; what starts after them is only counted.
	const cpuMs = cpuTimeMs(n8n.pid) - cpuBefore;
	let lastStop = 0;
	for (const e of list) if (e.stoppedAt) lastStop = Math.max(lastStop, Date.parse(e.stoppedAt));
	if (settleMs > 0) {
		await sleep(settleMs);
		list = await executionsAfter(n8n, variant.workflowId, before);
	}
	const memory = sampler.stop();
	const other: Record<string, number> = {};
	let success = 0;
	for (const e of list) {
		if (e.status === 'success') success++;
		else other[e.status ?? 'unknown'] = (other[e.status ?? 'unknown'] ?? 0) + 1;
	}
	return {
		round,
		acceptedPerSecond: (load.ok / load.wallMs) * 1000,
		p50Ms: load.latencyMs.p50,
		p99Ms: load.latencyMs.p99,
		accepted: load.ok,
		statuses: load.statuses,
		executions: { total: list.length, success, other },
		processedPerSecond: lastStop > t0 ? (count / (lastStop - t0)) * 1000 : NaN,
		nothingLost: load.ok === count && success === expected && list.length === expected,
		memory,
		cpuMsPerDelivery: cpuMs / count,
		executionsAfterId: before,
	};
}

