/**
 * The "polling" part: the Timeline Navigation Events Trigger's poll over a Look Back window holding N
 * events (10,000), K of them (10) new since the last poll, against its floor, one Event → Monitor
 * call of the action node over the same window (One Item per Event, its default).
 *
 * Where each figure comes from:
 * - time and CPU per call: n8n-core's PollContext and execution engine in a process of their own
 *   (poll-process.ts, on the Node of the bench's n8n), which times each call of the node's own
 *   method: poll() and execute(). n8n runs a poller at most once a minute on its own schedule,
 *   and its CPU then also holds whatever else it does, so the calls are measured there instead,
 *   side by side: P pairs a round, a poll and a Monitor call alternating, the order turned each
 *   pair. Before each poll the K oldest events leave the window and K new ones arrive, so the
 *   window always holds N events, K of them new. After each round the same process times the
 *   poll's own steps one by one (reading the answer, the fingerprints, the memory), to say where
 *   the difference goes.
 * - the bytes the memory adds to the workflow's static data: the bench's real n8n, after the
 *   activation's poll remembered the N events (n8n saves the static data after activating), read
 *   from its database. The same n8n then checks the promise the figures stand on: K new events,
 *   the workflow activated again, one execution holding exactly those K.
 * Every poll is checked (it started exactly the K new events, oldest first) and every Monitor
 * call (it returned all N events).
 */
import type { ChildProcess } from 'node:child_process';

import { N8N_2, runtimeEnv } from '../n8n/runtime';
import type { SeededEvent } from '../sandbox/types';
import { waitFor } from '../shared/wait';
import { log, type BenchContext, type BenchPart } from './context';
import { closeBenchScript, executionsAfter, forkBenchScript, isDone, median, newestExecutionId } from './measure';
import type { MonitorAnswer, PollAnswer, PollBreakdown, PollProcessRequest, TimedCall } from './poll-process';
import type { BenchResults, CallStats, PollingPair } from './results';
import { savedExecutionBytes, storedStaticData } from './staticData';
import { POLLING_TRIGGER_NAME, pollingTriggerWorkflow } from './workflows';

const HOUR_MS = 60 * 60 * 1000;
/** The trigger's Look Back (its default), and the Monitor call's range. */
const LOOK_BACK_HOURS = 24;
/** Where the bench's events happen (no other part uses it). */
const LOCATION = 'Bench Harbour';
/** Control requests in flight while seeding the window. */
const SEEDING_CONCURRENCY = 10;

/** The measuring process (poll-process.ts), one request at a time. */
interface PollProcess {
	node: string;
	ask<T>(request: PollProcessRequest): Promise<T>;
	close(): Promise<void>;
}

async function startPollProcess(outDir: string): Promise<PollProcess> {
	const child: ChildProcess = forkBenchScript('poll-process.ts', {
		execPath: N8N_2.nodeBin,
		// n8n-core keeps its instance settings in a user folder; the logger stays quiet.
		env: runtimeEnv({ N8N_USER_FOLDER: `${outDir}/poll-process`, N8N_LOG_LEVEL: 'silent' }),
	});
	const node = await new Promise<string>((resolve, reject) => {
		child.once('message', (m) => resolve((m as { ready: string }).ready));
		child.once('exit', (code) => reject(new Error(`the poll process exited (${code}) before it was ready`)));
	});
	let lastId = 0;
	return {
		node,
		ask: async <T>(request: PollProcessRequest) =>
			await new Promise<T>((resolve, reject) => {
				const id = ++lastId;
				const onMessage = (m: { id: number; result?: T; error?: string }) => {
					if (m.id !== id) return;
					child.off('message', onMessage);
					if (m.error) reject(new Error(`poll process: ${m.error}`));
					else resolve(m.result as T);
				};
				child.on('message', onMessage);
				child.send({ ...request, id });
			}),
		close: async () => await closeBenchScript(child),
	};
}

/** The window's events as the sandbox holds them, oldest first; K leave and K arrive before each poll. */
class Window {
	private readonly seeded: SeededEvent[] = [];
	private arrivals = 0;

	constructor(private readonly ctx: BenchContext) {}

	get size(): number {
		return this.seeded.length;
	}

	/** N events spread over the window's 2nd to 22nd hour back, so they stay inside it for two hours. */
	async fill(count: number): Promise<void> {
		const now = Date.now();
		const spread = (20 * HOUR_MS) / count;
		let next = 0;
		const events: SeededEvent[] = [];
		await Promise.all(
			Array.from({ length: SEEDING_CONCURRENCY }, async () => {
				for (let i = next++; i < count; i = next++) {
					events[i] = await this.ctx.sandbox.client.seedEvent({
						location: LOCATION,
						time: new Date(now - 22 * HOUR_MS + i * spread).toISOString(),
						description: `Bench event ${i + 1}`,
					});
				}
			}),
		);
		this.seeded.push(...events);
	}

	/** The K oldest leave, K new arrive half an hour back, a millisecond apart; their descriptions, oldest first. */
	async renew(count: number): Promise<string[]> {
		const client = this.ctx.sandbox.client;
		for (const gone of this.seeded.splice(0, count)) await client.removeSeededEvent(gone.seed_id);
		const at = Date.now() - HOUR_MS / 2;
		const arrived: string[] = [];
		for (let i = 0; i < count; i++) {
			const event = await client.seedEvent({ location: LOCATION, time: new Date(at + i).toISOString(), description: `Bench arrival ${++this.arrivals}` });
			this.seeded.push(event);
			arrived.push(event.description);
		}
		return arrived;
	}
}

/**
 * In the bench's n8n: the activation's poll remembers the window (its static data then), and
 * after K new events a second activation starts one execution holding exactly them.
 */
async function checkInN8n(ctx: BenchContext, window: Window, newPerPoll: number) {
	const { n8n, credentials } = ctx;
	const id = await n8n.importWorkflow(pollingTriggerWorkflow('Bench polling: Timeline Navigation Events Trigger', LOCATION, LOOK_BACK_HOURS, credentials.timeline));
	// n8n runs the activation's poll after answering the request: wait for the memory it saves.
	const activated = async (events: number) =>
		await waitFor(
			`n8n's activation poll to remember ${events} events`,
			async () => {
				const stored = await storedStaticData(n8n, id);
				return stored.events >= events ? stored : undefined;
			},
			{ timeoutMs: 60000, intervalMs: 250 },
		);
	await n8n.activate(id);
	const remembered = await activated(window.size);
	const before = await newestExecutionId(n8n, id);
	const arrived = await window.renew(newPerPoll);
	await n8n.deactivate(id);
	await n8n.activate(id);
	const execution = await waitFor(
		'the execution the activation poll started for the new events',
		async () => (await executionsAfter(n8n, id, before)).find(isDone),
		{ timeoutMs: 60000, intervalMs: 250 },
	);
	const full = (await n8n.api('GET', `/executions/${execution.id}?includeData=true`)).body;
	const items: Array<{ json: { description?: string } }> = full.data?.resultData?.runData?.[POLLING_TRIGGER_NAME]?.[0]?.data?.main?.[0] ?? [];
	const executions = (await executionsAfter(n8n, id, before)).length;
	const afterNew = await activated(remembered.events + newPerPoll);
	const savedExecution = await savedExecutionBytes(n8n, id, before);
	await n8n.deactivate(id);
	const started = items.map((item) => item.json.description);
	const ok = full.status === 'success' && executions === 1 && JSON.stringify(started) === JSON.stringify(arrived);
	return {
		remembered,
		afterNew,
		savedExecution,
		check: {
			ok,
			detail: `${executions} execution(s), status ${full.status}, ${started.length} items${ok ? ', the new events, oldest first' : `: ${JSON.stringify(started)}, expected ${JSON.stringify(arrived)}`}`,
		},
	};
}

/** The Look Back window as of now, as the Monitor call asks for it. */
function lookBackRange() {
	const end = Date.now();
	return { rangeStart: new Date(end - LOOK_BACK_HOURS * HOUR_MS).toISOString(), rangeEnd: new Date(end).toISOString() };
}

const stats = (calls: TimedCall[]): CallStats => ({
	ms: median(calls.map((c) => c.ms)),
	minMs: Math.min(...calls.map((c) => c.ms)),
	maxMs: Math.max(...calls.map((c) => c.ms)),
	cpuMs: median(calls.map((c) => c.cpuMs)),
});

export async function setUpPollingPart(ctx: BenchContext): Promise<BenchPart> {
	const { cfg, sandbox } = ctx;
	const window = new Window(ctx);
	log(`[bench] polling: seeding ${cfg.pollEvents} events at "${LOCATION}"`);
	await window.fill(cfg.pollEvents);
	const inN8n = await checkInN8n(ctx, window, cfg.pollNew);
	log(
		`[bench]   polling: in n8n, ${inN8n.remembered.events} events remembered in ${inN8n.remembered.bytes} bytes of static data; ` +
			`${cfg.pollNew} new: ${inN8n.check.detail}`,
	);

	const measurer = await startPollProcess(cfg.outDir);
	const { activation } = await measurer.ask<{ activation: PollAnswer }>({
		kind: 'start',
		sandboxUrl: sandbox.url,
		timelineKey: sandbox.timelineKey,
		triggerName: POLLING_TRIGGER_NAME,
		location: LOCATION,
		lookBackHours: LOOK_BACK_HOURS,
	});
	const problems: string[] = [];
	if (activation.error || activation.started !== null || activation.staticData.remembered !== cfg.pollEvents) {
		problems.push(`activation: ${activation.error ?? `started ${JSON.stringify(activation.started)}, remembered ${activation.staticData.remembered} of ${cfg.pollEvents}`}`);
	}
	const pairs: PollingPair[] = [];
	const breakdowns: PollBreakdown[] = [];

	const pollOnce = async (round: number) => {
		const arrived = await window.renew(cfg.pollNew);
		const answer = await measurer.ask<PollAnswer>({ kind: 'poll' });
		if (answer.error || JSON.stringify(answer.started) !== JSON.stringify(arrived)) {
			problems.push(`round ${round}: the poll ${answer.error ? `failed: ${answer.error}` : `started ${JSON.stringify(answer.started)}, expected ${JSON.stringify(arrived)}`}`);
		}
		return answer;
	};
	const monitorOnce = async (round: number) => {
		const answer = await measurer.ask<MonitorAnswer>({ kind: 'monitor', ...lookBackRange() });
		if (answer.error || answer.items !== cfg.pollEvents) {
			problems.push(`round ${round}: the Monitor call ${answer.error ? `failed: ${answer.error}` : `returned ${answer.items} events, expected ${cfg.pollEvents}`}`);
		}
		return answer;
	};
	/** A poll and a Monitor call, the poll first in every other pair. */
	const pair = async (round: number, index: number): Promise<PollingPair> => {
		let poll: PollAnswer;
		let monitor: MonitorAnswer;
		if ((round + index) % 2 === 0) {
			poll = await pollOnce(round);
			monitor = await monitorOnce(round);
		} else {
			monitor = await monitorOnce(round);
			poll = await pollOnce(round);
		}
		return { round, poll: poll.call, monitor: monitor.call, staticData: poll.staticData };
	};

	return {
		async warmUp() {
			for (let i = 0; i < 2; i++) await pair(0, i);
		},
		async round(round) {
			const measured: PollingPair[] = [];
			for (let i = 0; i < cfg.polls; i++) measured.push(await pair(round, i));
			pairs.push(...measured);
			breakdowns.push(await measurer.ask<PollBreakdown>({ kind: 'breakdown', ...lookBackRange() }));
			const poll = stats(measured.map((p) => p.poll));
			const monitor = stats(measured.map((p) => p.monitor));
			log(
				`[bench]   polling: poll ${poll.ms.toFixed(1)} ms (CPU ${poll.cpuMs.toFixed(1)} ms), Monitor call ${monitor.ms.toFixed(1)} ms ` +
					`(CPU ${monitor.cpuMs.toFixed(1)} ms): ${(poll.ms / monitor.ms).toFixed(2)}x, medians of ${cfg.polls}` +
					`; static data ${measured.at(-1)!.staticData.bytes} bytes (${measured.at(-1)!.staticData.remembered} remembered)`,
			);
		},
		report(results: BenchResults) {
			const poll = stats(pairs.map((p) => p.poll));
			const monitor = stats(pairs.map((p) => p.monitor));
			const rounds = [...new Set(pairs.map((p) => p.round))];
			const perRound = (value: (c: CallStats) => number) =>
				rounds.map((r) => {
					const inRound = pairs.filter((p) => p.round === r);
					return value(stats(inRound.map((p) => p.poll))) / value(stats(inRound.map((p) => p.monitor)));
				});
			const last = pairs.at(-1)?.staticData;
			const allProblems = [...problems, ...(inN8n.check.ok ? [] : [`n8n: ${inN8n.check.detail}`])];
			results.polling = {
				events: cfg.pollEvents,
				newPerPoll: cfg.pollNew,
				pollsPerRound: cfg.polls,
				node: measurer.node,
				poll,
				monitor,
				ratios: { time: poll.ms / monitor.ms, cpu: poll.cpuMs / monitor.cpuMs },
				perRound: { time: perRound((c) => c.ms), cpu: perRound((c) => c.cpuMs) },
				staticData: {
					n8n: inN8n.remembered,
					n8nAfterNew: inN8n.afterNew,
					savedExecution: inN8n.savedExecution,
					last: { bytes: last?.bytes ?? NaN, remembered: last?.remembered ?? NaN },
					serialiseMs: median(pairs.map((p) => p.staticData.serialiseMs)),
				},
				breakdown: {
					events: median(breakdowns.map((b) => b.events)),
					parseMs: median(breakdowns.map((b) => b.parseMs)),
					fingerprintMs: median(breakdowns.map((b) => b.fingerprintMs)),
					cachedFingerprintMs: median(breakdowns.map((b) => b.cachedFingerprintMs)),
					compareMs: median(breakdowns.map((b) => b.compareMs)),
				},
				n8nCheck: inN8n.check,
				allValid: allProblems.length === 0,
				problems: allProblems,
				pairs,
			};
		},
		async close() {
			await measurer.close();
		},
	};
}
