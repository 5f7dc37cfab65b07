/**
 * The Timeline Navigation Events Trigger over real polls of a real n8n, on each of n8n's
 * schedulers: the classic one (the default through n8n 2.44, and 1.x) and, on 2.41, the durable
 * one (its four settings on, as n8n's docs say 2.45 will have by default), side by side, each in
 * an n8n of its own (user folder kept across restarts) polling every minute, n8n's shortest.
 *
 * Example 01 (events at a place, an alert template per event) and a workflow of the trigger on a
 * timeline's anomalies, published while events and an anomaly are already there; then, as a time
 * traveller would change things between polls:
 * - n8n restarts right after the publication; an event and an anomaly come before n8n's first
 *   scheduled poll (the durable scheduler never keeps what the publication's poll saw);
 * - an event back-dated three hours through Manipulate Event;
 * - the workflow unpublished, an event added, published again;
 * - n8n restarts with an event added while it is down;
 * - a poll answered with HTTP 503 (an error execution with the service's words), and an event
 *   that the next good poll starts.
 * In the end each event started exactly one alert and the anomaly one execution; nothing that
 * was there at publication started anything; with the durable scheduler the `poller_state` rows
 * hold the memory.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { EXAMPLE_DATA, EXAMPLE_FILES, readExample, seedExampleData } from '../../tools/n8n/examples';
import { wireCredentials, type StoredCredential, type WorkflowJson } from '../../tools/n8n/client';
import { queryN8nDatabase } from '../../tools/n8n/database';
import { startN8n, type N8nInstance } from '../../tools/n8n/instance';
import { freePort } from '../../tools/n8n/processes';
import { ARTIFACTS_DIR } from '../../tools/n8n/runtime';
import { sandboxCredentials } from '../../tools/n8n/sandboxCredentials';
import { templateParametersOf } from '../../tools/sandbox/client';
import { api } from '../../tools/sandbox/testkit';
import { waitFor } from '../../tools/shared/wait';
import { DURABLE_SCHEDULER, e2eRuntime, log } from './environment';
import { env, sandbox } from './support';

jest.setTimeout(1_200_000);

const runtime = e2eRuntime();
const TRIGGER = 'New Event at Alexandria';
/** One minute between polls, at a random second: a poll is due within this. */
const POLL_DUE_MS = 75_000;
const MINUTE = 60_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

interface Variant {
	name: string;
	env: Record<string, string>;
	/** Each variant watches a place of its own, so that their alerts (the template's first parameter) tell them apart. */
	location: string;
}

const VARIANTS: Variant[] = [
	{ name: 'classic scheduler', env: {}, location: EXAMPLE_DATA.location },
	...(runtime.id === '2.41' ? [{ name: 'durable scheduler', env: DURABLE_SCHEDULER, location: 'Pharos, Egypt' }] : []),
];

const timeline = () => api(env.sandbox.url, env.sandbox.timelineKey);
const finished = (executions: any[]) => executions.filter((e) => e.status !== 'running' && e.status !== 'new');

/** Example 01 watching `location`, polling every minute (the example polls every 5). */
function eventAlerts(location: string): WorkflowJson {
	const wf = readExample(EXAMPLE_FILES.eventAlerts);
	const trigger = wf.nodes.find((node) => node.name === TRIGGER);
	if (!trigger) throw new Error(`${EXAMPLE_FILES.eventAlerts} has no node "${TRIGGER}"`);
	trigger.parameters = { ...trigger.parameters, location, pollTimes: { item: [{ mode: 'everyMinute' }] } };
	return { ...wf, name: `${wf.name} (${location}, every minute)` };
}

/** The trigger alone on a timeline's anomalies, every minute: each execution holds one started run. */
function anomalyWatch(timelineId: string, trigger: WorkflowJson['nodes'][number]): WorkflowJson {
	return {
		name: `New anomalies in ${timelineId}`,
		nodes: [
			{
				...trigger,
				name: 'New Anomaly',
				parameters: { event: 'newAnomaly', timelineId: { __rl: true, mode: 'id', value: timelineId }, pollTimes: { item: [{ mode: 'everyMinute' }] } },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/** A paradox anomaly in the timeline: an item fixed now, then an event manipulated to before it. */
async function addAnomaly(timelineId: string, description: string): Promise<void> {
	expect((await timeline().post('/items', { timeline_id: timelineId, name: `Fixed before: ${description}` })).status).toBe(201);
	const manipulated = await timeline().post('/events', { timeline_id: timelineId, action: 'add', time: ago(60 * MINUTE), description });
	expect(manipulated.status).toBe(201);
}

class Run {
	n8n!: N8nInstance;
	private readonly userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-polling-'));
	private port = 0;
	private creds: StoredCredential[] = [];
	alertsId = '';
	anomaliesId = '';
	timelineId = '';
	/** Where the back-dated event is added: not the watched timeline, whose fixed item would make it a paradox. */
	detourId = '';

	constructor(readonly variant: Variant) {}

	say(line: string) {
		log(`[polling ${runtime.id}, ${this.variant.name}] ${line}`);
	}

	async start(): Promise<void> {
		this.port ||= await freePort();
		const logFile = path.join(ARTIFACTS_DIR, 'e2e', `polling-${runtime.id}-${this.variant.name.replace(/ /g, '-')}.log`);
		this.n8n = await startN8n({ port: this.port, userFolder: this.userFolder, runtime, log, logFile, env: this.variant.env });
	}

	async restart(between: () => Promise<void> = async () => {}): Promise<void> {
		await this.n8n.stop();
		await between();
		await this.start();
	}

	async polls(): Promise<number> {
		return (await sandbox.requests({ path: '/v1/monitor-events' })).filter((r) => r.query.location === this.variant.location).length;
	}

	/** Waits for the next poll of the events after `count` polls, and for what it started to finish. */
	async polled(count: number): Promise<number> {
		await waitFor(`poll ${count + 1} at ${this.variant.location}`, async () => (await this.polls()) > count, { timeoutMs: POLL_DUE_MS, intervalMs: 500 });
		await new Promise((resolve) => setTimeout(resolve, 3000));
		return await this.polls();
	}

	async nextPoll(): Promise<number> {
		return await this.polled(await this.polls());
	}

	async alerts(): Promise<string[]> {
		const sends = (await sandbox.requests({ method: 'POST', path: '/v1/messages' })).filter((request) => request.responseStatus === 200);
		return sends
			// The lane's other files send through the same sandbox, texts among them.
			.map(templateParametersOf)
			.filter((parameters) => parameters[0] === this.variant.location)
			.map((parameters) => parameters[2]);
	}

	/** Waits until `count` alerts of this variant have arrived. */
	async alertsUpTo(count: number): Promise<void> {
		await waitFor(`${count} alerts at ${this.variant.location}`, async () => (await this.alerts()).length >= count, { timeoutMs: POLL_DUE_MS, intervalMs: 1000 });
	}

	async seed(description: string, msAgo: number): Promise<void> {
		await sandbox.seedEvent({ location: this.variant.location, time: ago(msAgo), description });
	}

	async setUp(): Promise<void> {
		await this.start();
		this.creds = await this.n8n.importCredentials(sandboxCredentials(env.sandbox));
		this.timelineId = (await timeline().post('/timelines', { name: `Watched by the ${this.variant.name}` })).data.timeline_id;
		this.detourId = (await timeline().post('/timelines', { name: `A detour of the ${this.variant.name}` })).data.timeline_id;
		await this.seed('The library opens', 5 * 60 * MINUTE);
		await this.seed('The lighthouse is lit', 60 * MINUTE);
		await addAnomaly(this.timelineId, 'There before publication');
		const alerts = eventAlerts(this.variant.location);
		this.alertsId = await this.n8n.importWorkflow(wireCredentials(alerts, this.creds));
		this.anomaliesId = await this.n8n.importWorkflow(wireCredentials(anomalyWatch(this.timelineId, alerts.nodes.find((node) => node.name === TRIGGER)!), this.creds));
		this.say('set up');
	}

	async publish(): Promise<void> {
		await this.n8n.activate(this.alertsId);
		await this.n8n.activate(this.anomaliesId);
	}

	async anomalyRuns(): Promise<any[]> {
		return finished(await this.n8n.executions(this.anomaliesId));
	}

	async cursors(): Promise<Array<{ workflowId: string; cursor: string }>> {
		return await queryN8nDatabase(this.n8n, 'SELECT "workflowId", "cursor" FROM poller_state');
	}

	async stop(): Promise<void> {
		await this.n8n?.stop();
		fs.rmSync(this.userFolder, { recursive: true, force: true });
	}
}

const runs = VARIANTS.map((variant) => new Run(variant));

beforeAll(async () => {
	await sandbox.setWebhook(null);
	await seedExampleData(sandbox);
}, 120_000);

afterAll(async () => {
	await Promise.all(runs.map(async (run) => await run.stop()));
}, 120_000);

test.concurrent.each(runs.map((run) => [run.variant.name, run] as const))(
	'on the %s: nothing there at publication starts; every event and anomaly after it starts once, across a restart, a republication and a failed poll',
	async (_name, run) => {
		await run.setUp();

		// Publication remembers what is there; n8n restarts at once; an event and an anomaly come
		// before the first scheduled poll, which starts each once.
		await run.publish();
		await run.restart(async () => {
			await run.seed('A caravan arrives before the first scheduled poll', 30 * MINUTE);
			await addAnomaly(run.timelineId, 'A paradox before the first scheduled poll');
		});
		let polls = await run.nextPoll();
		await run.alertsUpTo(1);
		expect(await run.alerts()).toEqual(['A caravan arrives before the first scheduled poll']);
		const anomalyRuns = await waitFor('the anomaly run', async () => {
			const all = await run.anomalyRuns();
			return all.length >= 1 && all;
		}, { timeoutMs: POLL_DUE_MS, intervalMs: 1000 });
		expect(anomalyRuns.map((e) => e.status)).toEqual(['success']);
		if (run.variant.env === DURABLE_SCHEDULER) {
			// The durable scheduler's cursors hold the memory (they stayed `{}` before the fix).
			const cursors = await run.cursors();
			for (const id of [run.alertsId, run.anomaliesId]) {
				const cursor = cursors.find((row) => row.workflowId === id)?.cursor;
				expect(JSON.parse(cursor ?? '{}')).toMatchObject({ memory: { subject: expect.any(String) } });
			}
		}

		// A back-dated event, added through Manipulate Event into the last 24 hours.
		const manipulated = await timeline().post('/events', {
			timeline_id: run.detourId,
			action: 'add',
			time: ago(180 * MINUTE),
			description: 'A scroll is saved from the fire',
			location: run.variant.location,
		});
		expect(manipulated.status).toBe(201);
		polls = await run.polled(polls);
		await run.alertsUpTo(2);

		// Unpublished, an event added, published again: the publication's poll starts it.
		await run.n8n.deactivate(run.alertsId);
		await run.seed('The harbour chain is raised while unpublished', 10 * MINUTE);
		await run.n8n.activate(run.alertsId);
		await run.alertsUpTo(3);

		// n8n restarts with an event added while it is down: the classic scheduler polls at
		// start-up, the durable one at its next scheduled poll.
		await run.restart(async () => await run.seed('A storm while n8n was down', 5 * MINUTE));
		if (run.variant.env === DURABLE_SCHEDULER) polls = await run.nextPoll();
		await run.alertsUpTo(4);

		// A poll that fails (HTTP 503), then a good one with the event added meanwhile.
		await sandbox.injectFault({ kind: 'status', status: 503, path: '/v1/monitor-events', query: { location: run.variant.location }, count: 1 });
		await run.seed('Ships return after the failed poll', 2 * MINUTE);
		polls = await run.nextPoll();
		const failedPoll = (await sandbox.requests({ path: '/v1/monitor-events' })).filter((r) => r.query.location === run.variant.location).at(-1);
		expect(failedPoll?.responseStatus).toBe(503);
		const withError = await waitFor('the failed poll\'s error execution', async () => {
			const failed = finished(await run.n8n.executions(run.alertsId)).filter((e) => e.status === 'error');
			return failed.length === 1 && failed;
		}, { timeoutMs: 30_000, intervalMs: 1000 });
		const failure = (await run.n8n.api('GET', `/executions/${withError[0].id}?includeData=true`)).body;
		expect(JSON.stringify(failure.data?.resultData?.error)).toMatch(/New events at .+ failed: the service answered HTTP 503: \S/);
		polls = await run.nextPoll();
		await run.alertsUpTo(5);

		// Three events in one poll: one the service gives no description, one whose alert the
		// service refuses (HTTP 503 on its send), and one more. Both others are alerted, the first
		// as "no description given"; the refused one fails the execution, naming the event.
		const refused = `A lamp is lit (${run.variant.location})`;
		await run.seed(refused, 3 * MINUTE);
		await run.seed('', 2 * MINUTE);
		await run.seed('A bell rings', MINUTE);
		await sandbox.injectFault({ kind: 'status', status: 503, method: 'POST', path: '/v1/messages', bodyContains: refused, count: 1 });
		polls = await run.nextPoll();
		await run.alertsUpTo(7);
		const notSent = await waitFor('the execution that names the alert not sent', async () => {
			const failed = finished(await run.n8n.executions(run.alertsId)).filter((e) => e.status === 'error');
			return failed.length === 2 && failed;
		}, { timeoutMs: 30_000, intervalMs: 1000 });
		const messages = [];
		for (const execution of notSent) messages.push(String((await run.n8n.api('GET', `/executions/${execution.id}?includeData=true`)).body.data?.resultData?.error?.message));
		const notSentMessage = messages.find((message) => message.startsWith('The alert for the event at')) ?? messages.join(' | ');
		expect(notSentMessage).toContain(`The alert for the event at ${run.variant.location} (`);
		expect(notSentMessage).toMatch(/, "A lamp is lit \(.+\)"\) was not sent: Message → Send Template failed: the service answered HTTP 503/);

		expect(await run.alerts()).toEqual([
			'A caravan arrives before the first scheduled poll',
			'A scroll is saved from the fire',
			'The harbour chain is raised while unpublished',
			'A storm while n8n was down',
			'Ships return after the failed poll',
			'no description given',
			'A bell rings',
		]);
		const executions = finished(await run.n8n.executions(run.alertsId));
		expect(executions.map((e) => e.status).sort()).toEqual(['error', 'error', 'success', 'success', 'success', 'success', 'success']);
		expect((await run.anomalyRuns()).length).toBe(1);
		// {{2}}: the event's time as people read it, not an ISO timestamp.
		const sends = (await sandbox.requests({ method: 'POST', path: '/v1/messages' })).map(templateParametersOf).filter((parameters) => parameters[0] === run.variant.location);
		for (const parameters of sends) expect(parameters[1]).toMatch(/^\d{1,2} [A-Z][a-z]+ \d{4} at \d\d:\d\d UTC$/);
		run.say(`${polls} polls, alerts: ${(await run.alerts()).length}, executions: ${executions.map((e) => e.status).join(' ')}, anomaly runs: 1`);
	},
);
