/** The bench's results (results.ts) in two renderings: a console table and results.md. */
import type { QueueBenchResult } from './queue';
import { median } from './measure';
import { BURST_SETTINGS_LABEL } from './targets';
import type { BenchResults, BurstCheck, BurstRow, BurstsResult, HeldBurstsResult, PollingResult, SendResult } from './results';

const n0 = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '–' : Math.round(x).toLocaleString('en-US'));
const n1 = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(1));
const n2 = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(2));
/** The fastest path / ceiling of each round, side by side in it. */
const byRound = (s: SendResult) => (s.ratios.fastOverCeilingByRound ?? []).map(n2).join('/');

export function machineLine(r: BenchResults): string {
	const m = r.machine;
	return (
		`${m.nproc} cores (${m.cpuModel}), ${m.memoryGiB} GiB, ${m.os}; n8n ${m.n8nVersion} on Node ${m.n8nNode}, ` +
		`bench and sandbox on Node ${m.benchNode}; ${r.date.slice(0, 16).replace('T', ' ')} UTC; ` +
		`load average at start ${m.loadAverageAtStart.join(' ')}`
	);
}

function mdTable(header: string[], rows: string[][], align?: string[]): string {
	const sep = header.map((_, i) => align?.[i] ?? '---');
	return [header, sep, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

function sendTable(s: SendResult): string {
	return mdTable(
		['Variant', 'In flight', 'Items/s (median)', 'Range', '÷ ceiling', '÷ plain loop', 'n8n CPU per item, ms', 'n8n main peak, MB (rise)', 'Checked'],
		s.rows.map((r) => [
			r.key === s.fastKey ? `**${r.label}**` : r.label,
			r.inFlight,
			`**${n0(r.itemsPerSecond)}**`,
			`${n0(r.min)}–${n0(r.max)}`,
			n2(r.overCeiling),
			n2(r.overPlain),
			n2(r.cpuMsPerItem),
			r.medianPeakMainMb === undefined ? '–' : `${n0(r.medianPeakMainMb)} (+${n0(r.medianGrowthMainMb)})`,
			r.allValid ? 'all sent once, 200' : `**${r.problems.join('; ')}**`,
		]),
		['---', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---'],
	);
}

const SETTINGS_LABEL = { defaults: "n8n's defaults", lazy: 'N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true' } as const;

function webhookTable(w: NonNullable<BenchResults['webhooks']>): string {
	return mdTable(
		['Receiver', 'n8n settings', 'Processed/s (median)', 'Range', 'Accepted/s', 'p50, ms', 'p99, ms', 'n8n CPU per delivery, ms', 'Bytes per saved execution', 'Succeeded executions per round', 'n8n peak RSS, MB', 'Static data after the run'],
		w.rows.map((r) => [
			r.label,
			SETTINGS_LABEL[r.settings],
			`**${n0(r.processedPerSecond)}**`,
			`${n0(r.min)}–${n0(r.max)}`,
			n0(r.acceptedPerSecond),
			n1(r.p50Ms),
			n1(r.p99Ms),
			n1(r.cpuMsPerDelivery),
			`${n0(r.bytesPerSavedExecution)} (static data ${n0(r.staticDataPerSavedExecution)}${r.savedExecutionsWithMemory ? `; ${r.savedExecutionsWithMemory} hold the memory` : ''})`,
			`${r.executionsSucceeded.join(', ')} of ${w.deliveries}${r.nothingLost ? '' : ' **(lost or failed)**'}`,
			`${r.peakMemoryMb} (main ${r.peakMainMb})`,
			r.staticDataBytes === undefined ? '–' : `${n0(r.staticDataBytes / 1024)} KiB`,
		]),
		['---', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---', '---:', '---:'],
	);
}

/** Processed/s of each receiver round by round, with the events its memory held after the round. */
function webhookRoundTable(w: NonNullable<BenchResults['webhooks']>, rounds: number): string {
	const idx = Array.from({ length: rounds }, (_, i) => i);
	const ratioRows: Array<[string, number[]]> = [
		["this trigger / Webhook node, n8n's defaults", w.perRound.triggerOverWebhook],
		["this trigger, option off / Webhook node, n8n's defaults", w.perRound.triggerNoDedupeOverWebhook],
		["this trigger, option on / off, n8n's defaults", w.perRound.triggerOverTriggerNoDedupe],
		['this trigger / Webhook node, lazy isolate acquisition', w.perRound.triggerLazyOverWebhookLazy],
		['this trigger, option on / off, lazy isolate acquisition', w.perRound.triggerLazyOverTriggerNoDedupeLazy],
	];
	return mdTable(
		['Receiver (processed/s) or ratio', ...idx.map((i) => `Round ${i + 1}`)],
		[
			...w.rows.map((r) => [
				`${r.label} (${SETTINGS_LABEL[r.settings]})`,
				...idx.map((i) => {
					const run = r.runs[i];
					if (!run) return '–';
					return `${n0(run.processedPerSecond)}${run.staticData?.events ? ` (${n0(run.staticData.events)} remembered)` : ''}`;
				}),
			]),
			...ratioRows.filter(([, v]) => v.some(Number.isFinite)).map(([label, v]) => [`**${label}**`, ...idx.map((i) => `**${n2(v[i])}**`)]),
		],
		['---', ...idx.map(() => '---:')],
	);
}

function queueTable(q: QueueBenchResult): string {
	return mdTable(
		['n8n set-up', 'Deliveries accepted/s', 'Deliveries/s (replied)', 'Items/s', 'vs single mode (deliveries, items)', 'Checked'],
		q.rows.map((row, i) => [
			row.setup,
			n1(row.acceptedPerSecond),
			`**${n1(row.deliveriesPerSecond)}**`,
			`**${n0(row.itemsPerSecond)}**`,
			i === 0 ? '1.00, 1.00' : `${n2(q.ratios[row.setup]?.deliveries)}, ${n2(q.ratios[row.setup]?.items)}`,
			row.allValid ? 'every delivery replied once; every item sent once, 200' : `**${row.problems.join('; ')}**`,
		]),
		['---', '---:', '---:', '---:', '---:', '---'],
	);
}

const ranged = (c: PollingResult['poll']) => `${n1(c.minMs)}–${n1(c.maxMs)}`;

function pollingMarkdown(p: PollingResult, rounds: number): string[] {
	const kib = (bytes: number) => `${n0(bytes)} bytes (${n1(bytes / 1024)} KiB)`;
	return [
		`## Polling: the Timeline Navigation Events Trigger over ${p.events.toLocaleString('en-US')} events, ${p.newPerPoll} new per poll`,
		'',
		mdTable(
			['Call, over the same Look Back window (24 hours)', 'Time, ms (median)', 'Range', 'CPU, ms (median)', 'Checked'],
			[
				[`**poll** (${p.newPerPoll} new events started, the rest remembered)`, `**${n1(p.poll.ms)}**`, ranged(p.poll), n1(p.poll.cpuMs), p.allValid ? `each started exactly the ${p.newPerPoll} new` : `**${p.problems.join('; ')}**`],
				[`floor: one Event → Monitor call (${p.events.toLocaleString('en-US')} items)`, `**${n1(p.monitor.ms)}**`, ranged(p.monitor), n1(p.monitor.cpuMs), p.allValid ? `each returned all ${p.events.toLocaleString('en-US')}` : '–'],
			],
			['---', '---:', '---:', '---:', '---'],
		),
		'',
		`Poll ÷ Monitor call: time **${n2(p.ratios.time)}** (per round ${p.perRound.time.map(n2).join(', ')}), CPU **${n2(p.ratios.cpu)}** (per round ${p.perRound.cpu.map(n2).join(', ')}); ` +
			`medians of ${p.pollsPerRound} pairs in each of ${rounds} rounds, each pair's order turned.`,
		'',
		`Static data in the bench's n8n after the activation's poll remembered the ${n0(p.staticData.n8n.events)} events of the window: **${kib(p.staticData.n8n.bytes)}**, ` +
			`${n2(p.staticData.n8n.bytes / p.staticData.n8n.events)} bytes per event; with ${n0(p.staticData.n8nAfterNew.events)} remembered ${kib(p.staticData.n8nAfterNew.bytes)}. ` +
			`After the last measured poll: ${kib(p.staticData.last.bytes)} (${n0(p.staticData.last.remembered)} remembered: the removed events stay until their hour leaves the window); ` +
			`n8n saves it after every poll that starts the workflow (its JSON.stringify: ${n2(p.staticData.serialiseMs)} ms). ` +
			`The bench's n8n, ${p.newPerPoll} new events and the workflow activated again: ${p.n8nCheck.detail}; that execution takes ${n0(p.staticData.savedExecution.total)} bytes in n8n's database, ` +
			`${n0(p.staticData.savedExecution.staticData)} of them static data (n8n 2.41 stores none with an execution).`,
		'',
		`Where the poll's own time goes (its steps timed one by one on the window's answer, medians): reading the answer (JSON.parse, which the Monitor call does too) ${n1(p.breakdown.parseMs)} ms; ` +
			`the fingerprint of each of the ${n0(p.breakdown.events)} events ${n1(p.breakdown.fingerprintMs)} ms afresh (a poll's first in a process), ${n1(p.breakdown.cachedFingerprintMs)} ms with the process's cache of the last listing (every later poll); ` +
			`the comparison with the memory and its update ${n1(p.breakdown.compareMs)} ms.`,
		'',
		`Time and CPU are each call of the node's own method (the trigger's poll(), the action node's execute()) as n8n-core 2.41's PollContext and WorkflowExecute make it, ` +
			`in a process of their own on Node ${p.node}: wall time, and that process's CPU time (all threads). The sandbox answers from its own process; its work is in the time, not in the CPU. ` +
			"What n8n does around either call is not in them: for a poll that found something, the save of the static data and the execution it starts; for the Monitor call, n8n's bookkeeping of its items.",
		'',
	];
}

function burstRowsTable(rows: BurstRow[], rounds: number): string {
	const idx = Array.from({ length: rounds }, (_, i) => i);
	return mdTable(
		['Receiver', 'Processed/s (median)', 'Range', 'Rounds', 'Answered/s', 'p99, ms', 'n8n CPU per delivery, ms', 'Succeeded executions per round'],
		rows.map((row) => [
			row.label,
			`**${n1(row.processedPerSecond)}**`,
			`${n1(row.min)}–${n1(row.max)}`,
			idx.map((i) => n1(row.runs[i]?.processedPerSecond)).join(', '),
			n0(row.acceptedPerSecond),
			n0(row.p99Ms),
			n1(row.cpuMsPerDelivery),
			`${row.executionsSucceeded.join(', ')} of ${row.expectedExecutions}${row.nothingLost ? '' : ' **(lost or failed)**'}`,
		]),
		['---', '---:', '---:', '---:', '---:', '---:', '---:', '---'],
	);
}

const checkLine = (c: BurstCheck) =>
	`round ${c.round}: ${c.runs} runs, ${c.exact} exactly one customer's burst in order, ${c.lost} lost, ${c.twice} twice, ${c.split} split${c.ok ? '' : ` (**${c.problems.join('; ')}**)`}`;

function heldBurstsMarkdown(h: HeldBurstsResult): string[] {
	return [
		`## Held bursts: n8n's Webhook node with and without ${h.customers} bursts held in the same n8n`,
		'',
		`In the ${BURST_SETTINGS_LABEL[h.settings]}. ${h.deliveries.toLocaleString('en-US')} deliveries to n8n's Webhook node at ${h.concurrency} in flight, once with no burst held and once while a trigger gathering bursts (Quiet Time ${h.quietSeconds} s) holds ` +
			`${h.customers} customers' bursts (${h.messages.toLocaleString('en-US')} messages, sent to it just before), the two side by side in every round (without them first in odd rounds), each run right after a full garbage collection in n8n. ` +
			'Afterwards the trigger is republished with a Quiet Time of 1 s, its create hook calls its own URL for each held burst, and the runs are checked, so that the next run without them has none held.',
		'',
		burstRowsTable(h.rows, h.perRound.length),
		'',
		`With / without, processed/s: **${n2(h.ratio)}** (median of the rounds' ${h.perRound.map(n2).join(', ')}).`,
		'',
		mdTable(
			['Round', 'Messages answered/s while filling', 'Held after the Webhook node\'s run (customers, messages)', 'Static data', 'Runs started meanwhile', 'Released afterwards'],
			h.fills.map((f) => {
				const release = h.releases.find((c) => c.round === f.round);
				return [String(f.round), n0(f.acceptedPerSecond), `${f.heldCustomers}, ${n0(f.heldMessages)}`, `${n0(f.staticDataBytes / 1024)} KiB`, String(f.startedWhileHeld), release ? checkLine(release).replace(/^round \d+: /, '') : '–'];
			}),
			['---:', '---:', '---', '---:', '---:', '---'],
		),
		'',
		...(h.problems.length ? [`Problems: ${h.problems.join('; ')}`, ''] : []),
	];
}

function burstsMarkdown(b: BurstsResult): string[] {
	const pr = b.perRound;
	return [
		`## Bursts: ${b.deliveries.toLocaleString('en-US')} inbound messages from ${b.customers} customers in bursts of ${b.sizes.min}–${b.sizes.max}, ${b.concurrency} in flight`,
		'',
		`In the ${BURST_SETTINGS_LABEL[b.settings]}. Each customer's messages one after another (the next once the previous was answered), ${b.concurrency} customers at a time; the split into bursts is pseudo-random and the same in every run. ` +
			`Processed/s = deliveries / (first message sent → last execution stopped): for the gathering trigger that includes the last Quiet Time (${b.quietSeconds} s) and its own call to start the last burst. ` +
			'Order each round: as listed in odd rounds, reversed in even ones, so that the option off (absent) and the trigger before the option run one right after the other; each run right after a full garbage collection in n8n.',
		'',
		burstRowsTable(b.rows, b.checks.length || b.rows[0]?.runs.length || 0),
		'',
		`The gathering trigger's runs, read from n8n's executions (the trigger's item: \`from\`, \`messages\`, \`text\`, \`message_count\`): ${b.checks.map(checkLine).join('; ')}.`,
		'',
		`Ratios of processed/s, per round: option off (absent) / before the option **${pr.absentOverBefore.map(n2).join(', ')}** (median ${n2(median(pr.absentOverBefore))}); ` +
			`One Run Each set / before ${pr.eachOverBefore.map(n2).join(', ')}; One Run Each set / absent ${pr.eachOverAbsent.map(n2).join(', ')}; ` +
			`gathering / option off (absent) ${pr.gatherOverAbsent.map(n2).join(', ')}; n8n's CPU per delivery, absent / before ${pr.cpuAbsentOverBefore.map(n2).join(', ')}.`,
		'',
		b.before.installed
			? `"Before the option": this package with the trigger's trigger.ts and description.ts from ${b.before.commit.slice(0, 7)} (the parent of the commit that added it), installed under another name in the same n8n (tools/bench/beforeBursts.ts).`
			: `The trigger before the option was not measured (${b.before.missing}); the "unchanged" target compares One Run Each set with the parameter absent, the same code.`,
		'',
		`The gathering trigger's static data after the last round: ${n0(b.staticDataBytesAfter / 1024)} KiB (its emptied burst store and the IDs of the messages it started).`,
		'',
		...(b.problems.length ? [`Problems: ${b.problems.join('; ')}`, ''] : []),
	];
}

export function renderMarkdown(r: BenchResults): string {
	const out: string[] = [];
	out.push('# Benchmark: this package vs the ceiling, n8n\'s HTTP Request and Webhook nodes', '');
	out.push(`Machine: ${machineLine(r)}.`, '');
	out.push(
		`Settings: ${r.config.items} items per send execution, ${r.config.deliveries} webhook deliveries at ` +
			`${r.config.webhookConcurrency} in flight, ${r.config.rounds} rounds (variants alternate, order rotated ` +
			`each round, the fastest documented path and the ceiling always side by side; medians shown, range = slowest–fastest round), ${r.config.recipients} recipients with an open window; ` +
			`n8n expression engine: ${r.config.expressionEngine}.` +
			(r.durationSeconds ? ` Whole run: ${r.durationSeconds} s.` : ''),
		'',
	);
	if (r.config.smoke) {
		out.push('## Targets: not judged (a smoke run: one round, small counts)', '');
		out.push(mdTable(['Target', 'Measured'], r.targets.map((t) => [t.name, n2(t.value)])), '');
	} else {
		out.push('## Targets', '');
		out.push(mdTable(['Target', 'Measured', 'Met'], r.targets.map((t) => [t.name, n2(t.value), t.met ? 'yes' : '**no**'])), '');
	}
	for (const s of Object.values(r.sends)) {
		out.push(`## Sends: ${s.title}, ${s.items.toLocaleString('en-US')} items in one execution`, '');
		out.push(sendTable(s), '');
		out.push(
			`Ratios: fastest documented path / ceiling = **${n2(s.ratios.fastOverCeiling)}** (rounds ${byRound(s)}); this node (defaults) / ceiling = ${n2(s.ratios.nodeOverCeiling)}; ` +
				`this node (defaults) / HTTP Request (defaults) = **${n2(s.ratios.nodeOverHttp)}**` +
				(s.ratios.nodeOverFastestHttp !== s.ratios.nodeOverHttp ? `, / HTTP Request with its faster body mode = **${n2(s.ratios.nodeOverFastestHttp)}**` : '') +
				`; both all at once = ${n2(s.ratios.nodeAllOverHttp)}; ceiling / plain loop = ${n2(s.ratios.ceilingOverPlain)}; ` +
				`plain loop with a new connection per request / keep-alive = ${n2(s.ratios.plainNewOverPlain)}; ` +
				`this node (defaults) / without its credential cache = **${n2(s.ratios.nodeOverNoCredentialCache)}**; ` +
				`n8n's main-process peak with this node / with the HTTP Request node = ${n2(s.ratios.peakNodeOverHttp)}, its rise during the run ${n2(s.ratios.riseNodeOverHttp)}.`,
			'',
		);
	}
	if (r.webhooks) {
		out.push(`## Webhooks: ${r.webhooks.deliveries.toLocaleString('en-US')} deliveries, ${r.webhooks.concurrency} in flight, no auth, both answer at once`, '');
		out.push(webhookTable(r.webhooks), '');
		out.push(
			`Round by round${r.webhooks.prefill ? `, each remembering trigger filled with ${r.webhooks.prefill.toLocaleString('en-US')} deliveries before round 1` : ''} (remembered = events in the stored memory after the round):`,
			'',
			webhookRoundTable(r.webhooks, r.config.rounds),
			'',
			`What the repeat memory adds to each saved execution in n8n's database (the static data inside the stored workflow of the trigger's executions, bytes per execution): **${n0(r.webhooks.memoryBytesPerSavedExecution)}**.`,
			'',
			'The memory\'s JavaScript cost per webhook call, measured in the bench process (n8n\'s parse of the static data and its observable copy; the trigger\'s check and record; the JSON.stringify of a save; the database\'s own work is in the CPU per delivery above):',
			'',
			mdTable(
				['Events remembered', 'Static data, bytes', 'Load, µs per call', 'Trigger, µs per call', 'Save\'s stringify, µs'],
				r.webhooks.memoryCost.map((c) => [n0(c.events), n0(c.staticDataBytes), n0(c.loadUs), n0(c.triggerUs), n0(c.saveUs)]),
				['---:', '---:', '---:', '---:', '---:'],
			),
			'',
		);
		const wr = r.webhooks.ratios;
		out.push(
			`Ratios of deliveries processed per second, this trigger / Webhook node in the same n8n: n8n's defaults **${n2(wr.triggerOverWebhook)}**; ` +
				`N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true **${n2(wr.triggerLazyOverWebhookLazy)}**` +
				(Number.isFinite(wr.triggerNoDedupeOverWebhook) ? `; with Ignore Repeated Deliveries off ${n2(wr.triggerNoDedupeOverWebhook)}` : '') +
				'.',
			'',
		);
	}
	if (r.heldBursts) out.push(...heldBurstsMarkdown(r.heldBursts));
	if (r.bursts) out.push(...burstsMarkdown(r.bursts));
	if (r.polling) out.push(...pollingMarkdown(r.polling, r.config.rounds));
	if (r.queue) {
		const q = r.queue.config;
		out.push(
			`## Queue mode: ${q.deliveries} deliveries at ${q.concurrency} in flight (each replied to with one Send Text), ` +
				`${q.items.toLocaleString('en-US')} items in ${q.parallel} executions started together`,
			'',
		);
		out.push(queueTable(r.queue), '');
		out.push(
			`Queue mode: PostgreSQL 17, Redis, main, 2 webhook processes behind the balancer, workers at concurrency 10 (cluster started in ${r.queue.clusterStartSeconds} s). ` +
				'Deliveries/s = deliveries / (first request → last execution stopped); items/s likewise over all the item executions.',
			'',
		);
	}
	if (r.sandbox) {
		out.push('## The sandbox alone (plain keep-alive client, no n8n)', '');
		out.push(
			mdTable(
				['Request @ in flight', 'Requests/s (median)', 'p50, ms', 'p99, ms'],
				Object.entries(r.sandbox).map(([k, v]) => [k, `**${n0(v.requestsPerSecond)}**`, n1(v.p50Ms), n1(v.p99Ms)]),
				['---', '---:', '---:', '---:'],
			),
			'',
		);
	}
	out.push('## How to read it', '');
	out.push(
		'- **Items/s** for an n8n variant = items / the node\'s own execution time as n8n records it (`runData[node].executionTime`), so the webhook that starts the run and the Split Out node that makes the items are not counted. "Execution, ms" is the whole execution (`startedAt` → `stoppedAt`). For the plain loop it is items / wall time.',
		"- **n8n CPU per item**: the CPU time n8n's main process used (all its threads) from the webhook call to its answer, divided by the items: the work each item costs, which the machine's load barely changes, unlike items per second. It holds the workflow's Webhook and Split Out nodes too, the same for every variant.",
		'- **In flight**: this node sends at most *Concurrency* (Request Options, default 10) requests at a time. n8n\'s HTTP Request node has no such limit: it starts every item\'s request at once (its Batching option only spaces out the *starts*). So the like-for-like pairs are: this node at its default vs the plain loop at the same 10 in flight (a/c), and this node with Concurrency = all items vs the HTTP Request node (both unbounded). The headline a/b compares both nodes at their defaults, as a user gets them.',
		'- **HTTP Request body**: shown with its default body mode ("Using Fields Below": `to` and `text` as two expressions, as this node has them) and with the whole body as one JSON expression (one expression per item instead of two). The target uses whichever is faster.',
		'- **Checked**: every run is verified: the execution succeeded with one output item per input item, and the sandbox received exactly one request per item, each answered 200.',
		'- **Webhooks**: processed/s = deliveries / (first request sent → last execution stopped), the throughput compared (a receiver that answers before n8n starts its execution accepts faster than it processes). Accepted/s and latency are measured by the sender (keep-alive, fixed number in flight). Every delivery carries a distinct `message_id`. Afterwards the executions are counted through n8n\'s public API: "nothing lost" means every delivery was answered 2xx and there is exactly one successful execution per delivery.',
		'- **Ceiling**: a minimal node (tools/bench/ceiling, never published) that reads its parameters and credential once per execution and makes one authenticated request per item (`httpRequestWithAuthentication`, a credential whose `authenticate` is a function), at the same concurrency: the fastest any community node can be inside this n8n. **÷ ceiling** and **÷ plain loop** are each row\'s items/s over the ceiling\'s and over the keep-alive plain loop\'s.',
		'- **Memory** (sends): n8n\'s main process, its exact peak during each run (VmHWM, reset when the run starts) as the median over rounds, and in brackets how far it rose above its size at the start of the run. Every send run starts right after a full garbage collection in n8n (heap.ts), so the rise is what that run\'s items add and not what the runs before left behind; the memory target compares it. Webhooks: peak VmRSS of the main process plus its task-runner child, sampled every 100 ms (max over rounds). Static data: what n8n stores for the trigger\'s workflow after every round.',
		'- The machine is shared and has few cores: n8n, the sandbox and the load generator compete for them, so absolute figures vary between runs; ratios from the same run are the meaningful part.',
		'',
	);
	if (r.notes.length) out.push('## Notes', '', ...r.notes.map((n) => `- ${n}`), '');
	return out.join('\n');
}

/** The console version: the same tables, compact. */
export function renderTable(r: BenchResults): string {
	const lines: string[] = [];
	const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
	const lpad = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);
	lines.push('', `Machine: ${machineLine(r)}`);
	for (const s of Object.values(r.sends)) {
		lines.push('', `${s.title}: ${s.items} items, medians of ${r.config.rounds} rounds`);
		const lw = Math.max(7, ...s.rows.map((row) => row.label.length));
		const fw = Math.max(9, ...s.rows.map((row) => row.inFlight.length));
		lines.push(`  ${pad('variant', lw)}  ${pad('in flight', fw)} ${lpad('items/s', 9)} ${lpad('/ceiling', 9)} ${lpad('/plain', 7)} ${lpad('CPU ms', 7)} ${lpad('peak MB', 8)} ${lpad('rise', 5)}  check`);
		for (const row of s.rows) {
			lines.push(
				`  ${pad(row.label, lw)}  ${pad(row.inFlight, fw)} ${lpad(n0(row.itemsPerSecond), 9)} ${lpad(n2(row.overCeiling), 9)} ${lpad(n2(row.overPlain), 7)} ${lpad(n2(row.cpuMsPerItem), 7)} ${lpad(n0(row.medianPeakMainMb), 8)} ${lpad(n0(row.medianGrowthMainMb), 5)}  ${row.allValid ? 'ok' : 'INVALID'}`,
			);
		}
		lines.push(
			`  fastest path/ceiling ${n2(s.ratios.fastOverCeiling)} (rounds ${byRound(s)})   node/HTTP (defaults) ${n2(s.ratios.nodeOverHttp)}` +
				(s.ratios.nodeOverFastestHttp !== s.ratios.nodeOverHttp ? `   vs HTTP's faster body mode ${n2(s.ratios.nodeOverFastestHttp)}` : '') +
				`   ceiling/plain ${n2(s.ratios.ceilingOverPlain)}   plain new connections/keep-alive ${n2(s.ratios.plainNewOverPlain)}   memory node/HTTP: peak ${n2(s.ratios.peakNodeOverHttp)}, rise ${n2(s.ratios.riseNodeOverHttp)}` +
				`\n  credential cache: node/without it ${n2(s.ratios.nodeOverNoCredentialCache)}`,
		);
	}
	if (r.webhooks) {
		const w = r.webhooks;
		lines.push('', `Webhooks: ${w.deliveries} deliveries, ${w.concurrency} in flight, medians of ${r.config.rounds} rounds`);
		const rw = Math.max(8, ...w.rows.map((row) => row.label.length));
		lines.push(`  ${pad('receiver', rw)} ${lpad('processed/s', 11)} ${lpad('per round', 14)} ${lpad('accepted/s', 10)} ${lpad('p99 ms', 7)} ${lpad('CPU ms', 7)} ${lpad('bytes/exec', 10)} ${lpad('static', 8)}  executions`);
		for (const row of w.rows) {
			lines.push(
				`  ${pad(row.label, rw)} ${lpad(n0(row.processedPerSecond), 11)} ${lpad(row.runs.map((run) => n0(run.processedPerSecond)).join('/'), 14)} ${lpad(n0(row.acceptedPerSecond), 10)} ${lpad(n1(row.p99Ms), 7)} ${lpad(n1(row.cpuMsPerDelivery), 7)} ${lpad(n0(row.bytesPerSavedExecution), 10)} ${lpad(row.staticDataBytes === undefined ? '–' : `${n0(row.staticDataBytes / 1024)}K`, 8)}  ${row.executionsSucceeded.join('/')} ok${row.nothingLost ? '' : ' LOST'}`,
			);
		}
		const rounds = (v: number[]) => v.map(n2).join('/');
		lines.push(
			`  per round: trigger/Webhook node defaults ${rounds(w.perRound.triggerOverWebhook)}, lazy ${rounds(w.perRound.triggerLazyOverWebhookLazy)};` +
				` option on/off defaults ${rounds(w.perRound.triggerOverTriggerNoDedupe)}, lazy ${rounds(w.perRound.triggerLazyOverTriggerNoDedupeLazy)}` +
				`; the memory adds ${n0(w.memoryBytesPerSavedExecution)} bytes of static data per saved execution`,
		);
		lines.push(
			`  trigger/Webhook node, processed/s: defaults ${n2(w.ratios.triggerOverWebhook)}   lazy acquire ${n2(w.ratios.triggerLazyOverWebhookLazy)}` +
				(Number.isFinite(w.ratios.triggerNoDedupeOverWebhook) ? `   without de-duplication ${n2(w.ratios.triggerNoDedupeOverWebhook)}` : ''),
		);
	}
	const burstConsole = (rows: BurstRow[]) => {
		const bw = Math.max(8, ...rows.map((row) => row.label.length));
		lines.push(`  ${pad('receiver', bw)} ${lpad('processed/s', 11)} ${lpad('per round', 18)} ${lpad('answered/s', 10)} ${lpad('p99 ms', 7)} ${lpad('CPU ms', 7)}  executions`);
		for (const row of rows) {
			lines.push(
				`  ${pad(row.label, bw)} ${lpad(n1(row.processedPerSecond), 11)} ${lpad(row.runs.map((run) => n1(run.processedPerSecond)).join('/'), 18)} ${lpad(n0(row.acceptedPerSecond), 10)} ${lpad(n0(row.p99Ms), 7)} ${lpad(n1(row.cpuMsPerDelivery), 7)}  ${row.executionsSucceeded.join('/')} of ${row.expectedExecutions}${row.nothingLost ? ' ok' : ' LOST'}`,
			);
		}
	};
	if (r.heldBursts) {
		const h = r.heldBursts;
		lines.push('', `Held bursts: n8n's Webhook node, ${h.deliveries} deliveries at ${h.concurrency} in flight, with and without ${h.customers} bursts (${h.messages} messages, Quiet Time ${h.quietSeconds} s) held in the same n8n (${BURST_SETTINGS_LABEL[h.settings]})`);
		burstConsole(h.rows);
		lines.push(`  with / without ${n2(h.ratio)} (rounds ${h.perRound.map(n2).join('/')}); held: ${h.fills.map((f) => `${f.heldCustomers} bursts, ${f.heldMessages} messages, ${n0(f.staticDataBytes / 1024)} KiB, ${f.startedWhileHeld} started`).join('; ')}`);
		lines.push(`  released afterwards: ${h.releases.map(checkLine).join('; ')}`);
		if (h.problems.length) lines.push(`  problems: ${h.problems.join('; ')}`);
	}
	if (r.bursts) {
		const b = r.bursts;
		lines.push('', `Bursts: ${b.deliveries} messages from ${b.customers} customers in bursts of ${b.sizes.min}-${b.sizes.max}, ${b.concurrency} in flight, Quiet Time ${b.quietSeconds} s, ${BURST_SETTINGS_LABEL[b.settings]}`);
		burstConsole(b.rows);
		lines.push(`  gathering runs: ${b.checks.map(checkLine).join('; ')}`);
		lines.push(
			`  per round: option off (absent) / before ${b.perRound.absentOverBefore.map(n2).join('/')}, One Run Each / before ${b.perRound.eachOverBefore.map(n2).join('/')}, ` +
				`One Run Each / absent ${b.perRound.eachOverAbsent.map(n2).join('/')}, gathering / absent ${b.perRound.gatherOverAbsent.map(n2).join('/')}; CPU absent / before ${b.perRound.cpuAbsentOverBefore.map(n2).join('/')}` +
				(b.before.installed ? '' : `; the trigger before the option not measured: ${b.before.missing}`),
		);
		if (b.problems.length) lines.push(`  problems: ${b.problems.join('; ')}`);
	}
	if (r.polling) {
		const p = r.polling;
		lines.push('', `Polling: Timeline Navigation Events Trigger, ${p.events} events in the window, ${p.newPerPoll} new per poll; medians of ${p.pollsPerRound} pairs x ${r.config.rounds} rounds (n8n-core on Node ${p.node})`);
		lines.push(`  ${pad('call', 34)} ${lpad('ms', 7)} ${lpad('range', 12)} ${lpad('CPU ms', 7)}  check`);
		lines.push(`  ${pad('poll', 34)} ${lpad(n1(p.poll.ms), 7)} ${lpad(ranged(p.poll), 12)} ${lpad(n1(p.poll.cpuMs), 7)}  ${p.allValid ? 'ok' : 'INVALID'}`);
		lines.push(`  ${pad('Event → Monitor call (the floor)', 34)} ${lpad(n1(p.monitor.ms), 7)} ${lpad(ranged(p.monitor), 12)} ${lpad(n1(p.monitor.cpuMs), 7)}  ${p.allValid ? 'ok' : 'INVALID'}`);
		lines.push(
			`  poll/Monitor: time ${n2(p.ratios.time)} (rounds ${p.perRound.time.map(n2).join('/')}), CPU ${n2(p.ratios.cpu)} (rounds ${p.perRound.cpu.map(n2).join('/')})` +
				`; static data in n8n: ${n0(p.staticData.n8n.bytes)} bytes for ${n0(p.staticData.n8n.events)} events remembered`,
		);
		lines.push(
			`  the poll's own steps: parse ${n1(p.breakdown.parseMs)} ms, fingerprints ${n1(p.breakdown.fingerprintMs)} ms afresh and ${n1(p.breakdown.cachedFingerprintMs)} ms from the last listing, comparison with the memory ${n1(p.breakdown.compareMs)} ms`,
		);
		if (!p.allValid) lines.push(`  problems: ${p.problems.join('; ')}`);
	}
	if (r.queue) {
		const q = r.queue;
		lines.push('', `Queue mode vs single mode: ${q.config.deliveries} replied deliveries at ${q.config.concurrency} in flight; ${q.config.items} items in ${q.config.parallel} executions`);
		lines.push(`  ${pad('set-up', 24)} ${lpad('accepted/s', 10)} ${lpad('deliveries/s', 12)} ${lpad('items/s', 8)}  check`);
		for (const row of q.rows) {
			lines.push(`  ${pad(row.setup, 24)} ${lpad(n1(row.acceptedPerSecond), 10)} ${lpad(n1(row.deliveriesPerSecond), 12)} ${lpad(n0(row.itemsPerSecond), 8)}  ${row.allValid ? 'ok' : 'INVALID'}`);
		}
	}
	if (r.sandbox) {
		lines.push('', 'Sandbox alone (plain client):');
		for (const [k, v] of Object.entries(r.sandbox)) lines.push(`  ${pad(k, 24)} ${lpad(n0(v.requestsPerSecond), 7)} req/s  p50 ${n1(v.p50Ms)} ms  p99 ${n1(v.p99Ms)} ms`);
	}
	if (r.config.smoke) {
		lines.push('', 'Targets, not judged (a smoke run: one round, small counts; the figures say nothing of speed):');
		for (const t of r.targets) lines.push(`  ${t.name}: ${n2(t.value)}`);
	} else {
		lines.push('', 'Targets:');
		for (const t of r.targets) lines.push(`  ${t.met ? 'met    ' : 'MISSED '} ${t.name}: ${n2(t.value)}`);
	}
	lines.push('');
	return lines.join('\n');
}
