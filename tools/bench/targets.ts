/**
 * The bench's verdict: the targets each measured part is held to (met or not, with the value)
 * and the notes that explain the numbers a reader would otherwise ask about.
 */
import type { Config } from './config';
import { median } from './measure';
import type { BenchResults } from './results';
import { measureSecretTiming } from './secretTiming';

function sendTargets(results: BenchResults): void {
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
}

/** The median of per-round ratios, and whether at least two thirds of the rounds reached `min`. */
function inMostRounds(perRound: number[], min: number): { value: number; met: boolean } {
	const measured = perRound.filter(Number.isFinite);
	const sorted = [...measured].sort((a, b) => a - b);
	const value = sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : NaN;
	return { value, met: measured.length > 0 && measured.filter((r) => r >= min).length >= Math.ceil((2 * measured.length) / 3) };
}

function webhookTargets(results: BenchResults): void {
	if (results.webhooks) {
		const w = results.webhooks;
		const lost = w.rows.every((r) => r.nothingLost);
		const remembered = w.prefill ? ` (memory holding ${w.prefill.toLocaleString('en-US')}+ events)` : '';
		const perRound = (name: string, ratios: number[], min: number) => {
			if (!ratios.some(Number.isFinite)) return;
			const rounds = ratios.filter(Number.isFinite).length;
			results.targets.push({
				name: `${name} >= ${min.toFixed(2)} in at least ${Math.ceil((2 * rounds) / 3)} of ${rounds} rounds (median of the rounds' ratios)`,
				...inMostRounds(ratios, min),
			});
		};
		if (Number.isFinite(w.ratios.triggerOverWebhook)) {
			results.targets.push({
				name: "webhooks, n8n's default settings: this trigger / Webhook node, deliveries processed per second >= 0.75",
				value: w.ratios.triggerOverWebhook,
				met: w.ratios.triggerOverWebhook >= 0.75,
			});
		}
		perRound(`webhooks, n8n's default settings: this trigger, Ignore Repeated Deliveries on / off${remembered}`, w.perRound.triggerOverTriggerNoDedupe, 0.9);
		perRound(`webhooks, N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true: this trigger / Webhook node, deliveries processed per second${remembered}`, w.perRound.triggerLazyOverWebhookLazy, 1.0);
		perRound(`webhooks, N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true: this trigger, Ignore Repeated Deliveries on / off${remembered}`, w.perRound.triggerLazyOverTriggerNoDedupeLazy, 0.9);
		if (Number.isFinite(w.memoryBytesPerSavedExecution)) {
			results.targets.push({
				name: "webhooks: what the repeat memory adds to a saved execution in n8n's database (static data in its stored workflow), bytes <= 4096",
				value: w.memoryBytesPerSavedExecution,
				met: w.memoryBytesPerSavedExecution <= 4096,
			});
		}
		results.targets.push({
			name: 'webhooks: nothing lost (every delivery accepted, one successful execution each)',
			value: lost ? 1 : 0,
			met: lost,
		});
	}
}

/** n8n's Webhook node with bursts held beside it / without them (issue 47, item 3). */
const HELD_OVER_NONE = 0.9;
/** The trigger with the option off / the trigger before the option (issue 47, item 4). */
const OFF_OVER_BEFORE = 0.95;

const ratioText = (r: number) => (Number.isFinite(r) ? r.toFixed(2) : '–');

/** The n8n the burst parts ran in. */
export const BURST_SETTINGS_LABEL = { lazy: 'n8n with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true', defaults: "n8n's default settings" } as const;

/** The labels of the ratios the "option off, unchanged" target can be judged on. */
export const OFF_TARGET_LABEL = {
	absentOverBefore: 'this trigger with the option off (parameter absent, as in every existing workflow) / the same trigger before the option',
	eachOverAbsent: "this trigger with One Run Each set / the parameter absent (the trigger before the option could not be built: see the part's note)",
} as const;

/** Messages in Quick Succession (bursts.ts): other webhooks beside held bursts; the gathering's runs; the option off. */
function burstTargets(results: BenchResults): void {
	const h = results.heldBursts;
	if (h) {
		results.targets.push({
			name:
				`held bursts (${BURST_SETTINGS_LABEL[h.settings]}): n8n's Webhook node, deliveries processed per second with ${h.customers} bursts (${h.messages.toLocaleString('en-US')} messages, Quiet Time ${h.quietSeconds} s) held by a gathering trigger in the same n8n / without them ` +
				`>= ${HELD_OVER_NONE} (median of the rounds' ratios, side by side; rounds ${h.perRound.map(ratioText).join(', ')})`,
			value: h.ratio,
			met: h.allValid && h.ratio >= HELD_OVER_NONE,
		});
		results.targets.push({
			name: `held bursts: the bursts held all through the Webhook node's runs, then started: ${h.customers} runs, each its customer's messages in order, none lost, none twice; every Webhook node delivery one successful execution`,
			value: h.allValid ? 1 : 0,
			met: h.allValid,
		});
	}
	const b = results.bursts;
	if (b) {
		const gather = b.rows.find((r) => r.key === 'gather');
		results.targets.push({
			name:
				`bursts (${BURST_SETTINGS_LABEL[b.settings]}): ${b.deliveries.toLocaleString('en-US')} deliveries from ${b.customers} customers in bursts of ${b.sizes.min}–${b.sizes.max}, ${b.concurrency} in flight, Quiet Time ${b.quietSeconds} s: ` +
				`exactly ${b.customers} runs, each with its customer's messages in order, 0 lost, 0 twice, in every round (runs per round ${b.checks.map((c) => c.runs).join(', ')}; ` +
				`${gather ? `${gather.processedPerSecond.toFixed(1)} deliveries processed/s, ${gather.acceptedPerSecond.toFixed(0)} answered/s` : ''})`,
			value: b.checks.length ? Math.min(...b.checks.map((c) => c.exact)) : 0,
			met: b.gatherValid,
		});
		const ratios = b.perRound[b.offTarget];
		const value = median(ratios);
		results.targets.push({
			name:
				`bursts (${BURST_SETTINGS_LABEL[b.settings]}), option off: deliveries processed per second, ${OFF_TARGET_LABEL[b.offTarget]}` +
				`${b.before.installed ? ` (${b.before.commit.slice(0, 7)}, the commit before it)` : ''} >= ${OFF_OVER_BEFORE} (median of the rounds' ratios, side by side; rounds ${ratios.map(ratioText).join(', ')})`,
			value,
			met: b.rows.every((r) => r.nothingLost) && value >= OFF_OVER_BEFORE,
		});
	}
}

/** The poll's own work (a fingerprint per new event, the comparison with the memory) at most half the fetch it stands on. */
const POLL_OVER_FLOOR = 1.5;
/** The memory keeps a 9-character digest per event, grouped by hour. */
const STATIC_BYTES_PER_EVENT = 10;

/** The Timeline Navigation Events Trigger's poll against its floor, and its memory's size in static data. */
function pollingTargets(results: BenchResults): void {
	const p = results.polling;
	if (!p) return;
	const events = p.events.toLocaleString('en-US');
	results.targets.push(
		{
			name: `polling: time per poll (${events} events in the window, ${p.newPerPoll} new) / one Event → Monitor call over the same window <= ${POLL_OVER_FLOOR}`,
			value: p.ratios.time,
			met: p.allValid && p.ratios.time <= POLL_OVER_FLOOR,
		},
		{
			name: `polling: static data per remembered event in n8n (${p.staticData.n8n.events.toLocaleString('en-US')} remembered), bytes <= ${STATIC_BYTES_PER_EVENT}`,
			value: p.staticData.n8n.bytes / p.staticData.n8n.events,
			met: p.staticData.n8n.bytes / p.staticData.n8n.events <= STATIC_BYTES_PER_EVENT,
		},
		{
			name: `polling: every poll started exactly the ${p.newPerPoll} new events once, every Monitor call returned all ${events}, and in n8n the activation's poll one execution with the new events`,
			value: p.allValid ? 1 : 0,
			met: p.allValid,
		},
	);
}
/** The trigger's secret checks: refusal times must not tell how much of a secret was right. */
function secretTargets(results: BenchResults): void {
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

function notes(results: BenchResults): void {
	// Why the plain loop is out of reach, and where the time goes when a target is missed
	// (measured with --profile, see docs/benchmarks.md).
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
				"package's share of n8n's CPU (profile.md) with the ceiling's; see docs/benchmarks.md.",
		);
	}
	const noDedupe = results.webhooks?.rows.find((r) => r.key === 'triggerNoDedupe');
	const webhook = results.webhooks?.rows.find((r) => r.key === 'webhook');
	if (noDedupe && webhook) {
		results.notes.push(
			`Webhooks with n8n's default settings: this trigger with Ignore Repeated Deliveries off processed ` +
				`${ratio2(noDedupe.processedPerSecond / webhook.processedPerSecond)} of the Webhook node's deliveries per second, ` +
				`with it on ${ratio2(results.webhooks!.ratios.triggerOverWebhook)}: the first is the floor n8n sets for a community trigger ` +
				'there (the expression isolate per call, below), whatever the trigger does.',
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
}

/** Adds the targets and notes for the parts that ran (measuring the secret timing here). */
export function judge(results: BenchResults, cfg: Config): void {
	sendTargets(results);
	pollingTargets(results);
	webhookTargets(results);
	burstTargets(results);
	if (cfg.only.has('secrets')) secretTargets(results);
	notes(results);
}

/**
 * What a run's own checks found wrong, part by part (empty when every chosen part ran and every
 * run was as expected): a part that reported nothing, a send not one request per item answered
 * 200, a delivery lost, a poll that did not start exactly the new events, a sandbox request not
 * answered. A smoke run (--smoke) fails on these, never on a target.
 */
export function failedChecks(results: BenchResults, cfg: Config): string[] {
	const failed: string[] = [];
	const ran: Record<string, boolean> = {
		sends: Boolean(results.sends.sendText),
		timeline: Boolean(results.sends.fastForward),
		polling: Boolean(results.polling),
		webhooks: Boolean(results.webhooks?.rows.length),
		sandbox: Boolean(results.sandbox),
		secrets: results.targets.some((t) => /^trigger (header secret|basic auth)/.test(t.name)),
		queue: Boolean(results.queue),
		'held-bursts': Boolean(results.heldBursts?.rows.some((r) => r.runs.length)),
		bursts: Boolean(results.bursts?.rows.some((r) => r.runs.length)),
	};
	for (const part of cfg.only) if (!ran[part]) failed.push(`${part}: reported nothing`);
	for (const [op, s] of Object.entries(results.sends)) {
		for (const row of s.rows) if (!row.allValid) failed.push(`${op}, ${row.label}: ${row.problems.join('; ')}`);
	}
	for (const row of results.webhooks?.rows ?? []) {
		if (!row.nothingLost) failed.push(`webhooks, ${row.label}: deliveries lost or failed (successful executions per round ${row.executionsSucceeded.join(', ')} of ${results.webhooks!.deliveries})`);
	}
	for (const problem of results.heldBursts?.problems ?? []) failed.push(`held bursts: ${problem}`);
	for (const problem of results.bursts?.problems ?? []) failed.push(`bursts: ${problem}`);
	if (results.polling && !results.polling.allValid) failed.push(`polling: ${results.polling.problems.join('; ')}`);
	for (const row of results.queue?.rows ?? []) if (!row.allValid) failed.push(`queue, ${row.setup}: ${row.problems.join('; ')}`);
	for (const [key, v] of Object.entries(results.sandbox ?? {})) if (!v.allOk) failed.push(`sandbox alone, ${key}: not every request answered 200`);
	return failed;
}
