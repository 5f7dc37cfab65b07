/**
 * Timeline Navigation Events Triggers combined in one workflow, as users build it: two on new
 * events at two locations and one on new anomalies in a timeline, all polling every minute into
 * one alert. Published with an event at each place and an anomaly already there (n8n runs the
 * publication's polls side by side); then a new event at each place and a new anomaly come, and
 * n8n's own scheduled polls (no republication, no restart) must start each exactly once.
 *
 * On n8n 2.41 with its classic scheduler and its durable one (each an n8n of its own), and on
 * 1.123's classic one. Before the fix, on 2.41's classic scheduler one trigger's copy of what its
 * publication poll saw was lost to the other's, and its new item never started anything.
 * `TWO_TRIGGERS_REPEAT=5` plays the scenario five times in a row on each n8n.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { EXAMPLE_FILES, readExample } from '../../tools/n8n/examples';
import { wireCredentials, type StoredCredential, type WorkflowJson } from '../../tools/n8n/client';
import { startN8n, type N8nInstance } from '../../tools/n8n/instance';
import { freePort } from '../../tools/n8n/processes';
import { ARTIFACTS_DIR } from '../../tools/n8n/runtime';
import { sandboxCredentials } from '../../tools/n8n/sandboxCredentials';
import { templateParametersOf } from '../../tools/sandbox/client';
import { api } from '../../tools/sandbox/testkit';
import { waitFor } from '../../tools/shared/wait';
import { DURABLE_SCHEDULER, e2eRuntime, log } from './environment';
import { env, sandbox } from './support';

jest.setTimeout(3_600_000);

const runtime = e2eRuntime();
const MINUTE = 60_000;
/** One minute between polls, at a random second of each trigger's own: every trigger polls within this. */
const POLL_DUE_MS = 75_000;
const REPEAT = Number(process.env.TWO_TRIGGERS_REPEAT ?? 1);
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const timeline = () => api(env.sandbox.url, env.sandbox.timelineKey);

interface Variant {
	name: string;
	env: Record<string, string>;
}

const VARIANTS: Variant[] = [
	{ name: 'classic scheduler', env: {} },
	...(runtime.id === '2.41' ? [{ name: 'durable scheduler', env: DURABLE_SCHEDULER }] : []),
];

/** What one play of the scenario watches: two places and a timeline of its own. */
interface Watched {
	places: [string, string];
	timelineId: string;
}

/** The three triggers into example 01's alert, whose first parameter says where the item came from. */
function threeTriggers(watched: Watched): WorkflowJson {
	const example = readExample(EXAMPLE_FILES.eventAlerts);
	const events = example.nodes.find((node) => node.type.endsWith('.timelineNavigationEventsTrigger'))!;
	const alert = example.nodes.find((node) => node.type.endsWith('.timelineNavigation'))!;
	const everyMinute = { item: [{ mode: 'everyMinute' }] };
	const eventsAt = (place: string, index: number) => ({
		...events,
		id: `events-${index}`,
		name: `New Event at ${place}`,
		parameters: { ...events.parameters, location: place, pollTimes: everyMinute },
		position: [0, index * 200],
	});
	const triggers = [
		eventsAt(watched.places[0], 0),
		eventsAt(watched.places[1], 1),
		{
			...events,
			id: 'anomalies',
			name: 'New Anomaly',
			parameters: { event: 'newAnomaly', timelineId: { __rl: true, mode: 'id', value: watched.timelineId }, pollTimes: everyMinute },
			position: [0, 400],
		},
	];
	return {
		name: `Events at ${watched.places.join(' and ')}, anomalies in ${watched.timelineId}`,
		nodes: [
			...triggers,
			{
				...alert,
				parameters: {
					...alert.parameters,
					templateParameters: {
						placeholder1: { value: `={{ $json.location ?? $json.timeline_id }}` },
						placeholder2: { value: '={{ $json.time }}' },
						placeholder3: { value: '={{ $json.description }}' },
					},
				},
			},
		],
		connections: Object.fromEntries(triggers.map((trigger) => [trigger.name, { main: [[{ node: alert.name, type: 'main', index: 0 }]] }])),
		settings: { executionOrder: 'v1' },
	};
}

class Run {
	n8n!: N8nInstance;
	creds: StoredCredential[] = [];
	private readonly userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-two-triggers-'));

	constructor(readonly variant: Variant) {}

	say(line: string) {
		log(`[two triggers ${runtime.id}, ${this.variant.name}] ${line}`);
	}

	async start(): Promise<void> {
		const logFile = path.join(ARTIFACTS_DIR, 'e2e', `two-triggers-${runtime.id}-${this.variant.name.replace(/ /g, '-')}.log`);
		this.n8n = await startN8n({ port: await freePort(), userFolder: this.userFolder, runtime, log, logFile, env: this.variant.env });
		this.creds = await this.n8n.importCredentials(sandboxCredentials(env.sandbox));
	}

	async stop(): Promise<void> {
		await this.n8n?.stop();
		fs.rmSync(this.userFolder, { recursive: true, force: true });
	}
}

/** The alerts sent for what `watched` watches, as `<where>: <description>`. */
async function alerts(watched: Watched): Promise<string[]> {
	const sends = await sandbox.requests({ method: 'POST', path: '/v1/messages' });
	const where = new Set<string>([...watched.places, watched.timelineId]);
	return sends
		// The lane's other files send through the same sandbox, texts among them.
		.map(templateParametersOf)
		.filter((parameters) => where.has(parameters[0]))
		.map((parameters) => `${parameters[0]}: ${parameters[2]}`)
		.sort();
}

/** How often the service was asked about each place and the timeline. */
async function polls(watched: Watched): Promise<number[]> {
	const requests = await sandbox.requests({});
	return [
		...watched.places.map((place) => requests.filter((r) => r.path === '/v1/monitor-events' && r.query.location === place).length),
		requests.filter((r) => r.path === '/v1/monitor-timeline' && r.query.timeline_id === watched.timelineId).length,
	];
}

/** Waits until each trigger has polled `more` times after `before`, and what the polls started has run. */
async function polledAgain(watched: Watched, before: number[], more: number, timeoutMs: number): Promise<number[]> {
	const counts = await waitFor(`${more} more polls of each trigger`, async () => {
		const now = await polls(watched);
		return now.every((count, index) => count >= before[index] + more) && now;
	}, { timeoutMs, intervalMs: 500 });
	await new Promise((resolve) => setTimeout(resolve, 3000));
	return counts;
}

const runs = VARIANTS.map((variant) => new Run(variant));

afterAll(async () => {
	await Promise.all(runs.map(async (run) => await run.stop()));
}, 120_000);

test.concurrent.each(runs.map((run) => [run.variant.name, run] as const))(
	'on the %s: two event triggers and an anomaly trigger in one workflow each start their new item once, at n8n\'s own scheduled polls',
	async (_name, run) => {
		await run.start();
		for (let play = 1; play <= REPEAT; play++) {
			const tag = `${runtime.id} ${run.variant.name} ${play}`;
			const watched: Watched = {
				places: [`Rhodes (${tag})`, `Pharos (${tag})`],
				timelineId: (await timeline().post('/timelines', { name: `Watched beside events (${tag})` })).data.timeline_id,
			};
			for (const place of watched.places) await sandbox.seedEvent({ location: place, time: ago(60 * MINUTE), description: 'There at publication' });
			await sandbox.addAnomaly({ timelineId: watched.timelineId, description: 'There at publication', time: ago(60 * MINUTE) });
			const workflowId = await run.n8n.importWorkflow(wireCredentials(threeTriggers(watched), run.creds));

			// Publication: each trigger's first poll (side by side) only remembers.
			const beforePublication = await polls(watched);
			await run.n8n.activate(workflowId);
			let counted = await polledAgain(watched, beforePublication, 1, 30_000);

			// New items before n8n's first scheduled polls, which start each once.
			for (const place of watched.places) await sandbox.seedEvent({ location: place, time: ago(5 * MINUTE), description: 'A new event' });
			await sandbox.addAnomaly({ timelineId: watched.timelineId, description: 'A new anomaly', time: ago(5 * MINUTE) });
			counted = await polledAgain(watched, counted, 1, POLL_DUE_MS);
			// One more scheduled poll each: nothing starts again.
			await polledAgain(watched, counted, 1, POLL_DUE_MS);

			expect(await alerts(watched)).toEqual([`${watched.places[0]}: A new event`, `${watched.places[1]}: A new event`, `${watched.timelineId}: A new anomaly`].sort());
			const executions = await run.n8n.executions(workflowId);
			expect(executions.map((execution: { status: string }) => execution.status)).toEqual(['success', 'success', 'success']);
			await run.n8n.deactivate(workflowId);
			run.say(`play ${play} of ${REPEAT}: three triggers, three new items, three alerts, each once`);
		}
	},
);
