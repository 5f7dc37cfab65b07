/**
 * Example 01 on the Timeline Navigation Events Trigger, over real polls of a real n8n (an instance of
 * this file's own, its user folder kept across a restart), against the sandbox, with n8n's
 * shortest schedule (every minute). Between the polls the sandbox's events change as a time
 * traveller would change them; what the customer receives is counted in the sandbox's request
 * log: one event_alert per event, none twice, none missing.
 *
 * - activation remembers the two events already there: nothing starts, also after a restart
 *   right away (n8n saved what the activation remembered);
 * - poll: a new event and one back-dated into the window through Manipulate Event: one
 *   execution, two alerts, oldest first;
 * - poll: nothing new: nothing starts;
 * - n8n restarts (after that empty poll) while an event is added: the poll n8n runs at start-up
 *   alerts it once;
 * - a poll the service answers with HTTP 503 starts nothing and is recorded as an error execution
 *   with the service's words; the next poll alerts the event added meanwhile.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { EXAMPLE_DATA, EXAMPLE_FILES, readExample, seedExampleData } from '../../tools/n8n/examples';
import { wireCredentials, type StoredCredential, type WorkflowJson } from '../../tools/n8n/client';
import { startN8n, type N8nInstance } from '../../tools/n8n/instance';
import { freePort } from '../../tools/n8n/processes';
import { ARTIFACTS_DIR } from '../../tools/n8n/runtime';
import { sandboxCredentials } from '../../tools/n8n/sandboxCredentials';
import { api } from '../../tools/sandbox/testkit';
import { waitFor } from '../../tools/shared/wait';
import { e2eRuntime, log } from './environment';
import { env, sandbox } from './support';

jest.setTimeout(900_000);

const runtime = e2eRuntime();
const TRIGGER = 'New Event at Alexandria';
/** One minute between polls, at a random second: a poll is due within this. */
const POLL_DUE_MS = 75_000;
const MINUTE = 60_000;

let n8n: N8nInstance;
let userFolder: string;
let port: number;
let creds: StoredCredential[];
const start = async () => {
	n8n = await startN8n({ port, userFolder, runtime, log, logFile: path.join(ARTIFACTS_DIR, 'e2e', `polling-${runtime.id}.log`) });
};

/** Example 01 as published, with the trigger polling every minute (the example polls every 5). */
function everyMinute(): WorkflowJson {
	const wf = readExample(EXAMPLE_FILES.eventAlerts);
	const trigger = wf.nodes.find((node) => node.name === TRIGGER);
	if (!trigger) throw new Error(`${EXAMPLE_FILES.eventAlerts} has no node "${TRIGGER}"`);
	trigger.parameters = { ...trigger.parameters, pollTimes: { item: [{ mode: 'everyMinute' }] } };
	return { ...wf, name: `${wf.name} (every minute)` };
}

const polls = async () => await sandbox.requests({ path: '/v1/monitor-events' });
/** Waits until the service has been polled `count` times in all. */
async function polled(count: number) {
	await waitFor(`poll ${count}`, async () => (await polls()).length >= count, { timeoutMs: POLL_DUE_MS, intervalMs: 500 });
}
const alerts = async () =>
	(await sandbox.requests({ method: 'POST', path: '/v1/messages' })).map((request) => (request.body as { template: { parameters: string[] } }).template.parameters[2]);
const finished = (executions: any[]) => executions.filter((e) => e.status !== 'running' && e.status !== 'new');
/** The workflow's executions once `count` have finished and the alerts they send have arrived. */
async function executionsOnceFinished(workflowId: string, count: number) {
	return await waitFor(`${count} finished executions`, async () => {
		const all = finished(await n8n.executions(workflowId));
		return all.length >= count ? all : undefined;
	}, { timeoutMs: 30_000, intervalMs: 500 });
}

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

beforeAll(async () => {
	userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-polling-'));
	port = await freePort();
	await start();
	creds = await n8n.importCredentials(sandboxCredentials(env.sandbox));
	await sandbox.reset();
	await sandbox.setWebhook(null);
	await seedExampleData(sandbox);
}, 300_000);

afterAll(async () => {
	await n8n?.stop();
	fs.rmSync(userFolder, { recursive: true, force: true });
}, 120_000);

test('every new event alerts the customer once: across polls, a back-dated event, an empty poll, a restart and a failed poll', async () => {
	const id = await n8n.importWorkflow(wireCredentials(everyMinute(), creds));
	await sandbox.clearRequests();
	const timeline = api(env.sandbox.url, env.sandbox.timelineKey);

	// Activation: the poll n8n runs at once only remembers the two seeded events; restarted right
	// away, n8n polls at start-up and still starts nothing for them.
	await n8n.activate(id);
	await polled(1);
	expect((await polls())[0].query.location).toBe(EXAMPLE_DATA.location);
	await n8n.stop();
	await start();
	await polled(2);
	expect(await n8n.executions(id)).toEqual([]);
	const afterActivation = (await polls()).length;

	// Poll: a new event, and one back-dated three hours through Manipulate Event.
	await sandbox.seedEvent({ location: EXAMPLE_DATA.location, time: ago(30 * MINUTE), description: 'A caravan from Memphis arrives' });
	const line = (await timeline.post('/timelines', { name: 'Detour' })).data;
	const manipulated = await timeline.post('/events', {
		timeline_id: line.timeline_id,
		action: 'add',
		time: ago(180 * MINUTE),
		description: 'A scroll is saved from the fire',
		location: EXAMPLE_DATA.location,
	});
	expect(manipulated.status).toBe(201);
	await polled(afterActivation + 1);
	const first = await executionsOnceFinished(id, 1);
	expect(first.map((e) => [e.mode, e.status])).toEqual([['trigger', 'success']]);
	expect(await alerts()).toEqual(['A scroll is saved from the fire', 'A caravan from Memphis arrives']);

	// Poll: nothing new.
	await polled(afterActivation + 2);
	expect(finished(await n8n.executions(id))).toHaveLength(1);

	// A restart after that empty poll, with an event added while n8n is down.
	await n8n.stop();
	await sandbox.seedEvent({ location: EXAMPLE_DATA.location, time: ago(10 * MINUTE), description: 'The harbour chain is raised' });
	const beforeStart = (await polls()).length;
	await start();
	await polled(beforeStart + 1);
	await executionsOnceFinished(id, 2);
	expect((await alerts()).slice(2)).toEqual(['The harbour chain is raised']);

	// A poll that fails (HTTP 503), then one that succeeds.
	await sandbox.injectFault({ kind: 'status', status: 503, path: '/v1/monitor-events', count: 1 });
	await sandbox.seedEvent({ location: EXAMPLE_DATA.location, time: ago(5 * MINUTE), description: 'A storm closes the harbour' });
	const beforeFault = (await polls()).length;
	await polled(beforeFault + 1);
	expect((await polls()).at(-1)?.responseStatus).toBe(503);
	const withError = await executionsOnceFinished(id, 3);
	const failed = withError.filter((e) => e.status === 'error');
	expect(failed).toHaveLength(1);
	const failure = (await n8n.api('GET', `/executions/${failed[0].id}?includeData=true`)).body;
	expect(JSON.stringify(failure.data?.resultData?.error)).toMatch(/New events at \\"Alexandria, Egypt\\" failed: the service answered HTTP 503: \S/);
	await polled(beforeFault + 2);
	const all = await executionsOnceFinished(id, 4);

	// The whole month in minutes: four events, four alerts, each once; three runs and one error.
	expect(await alerts()).toEqual([
		'A scroll is saved from the fire',
		'A caravan from Memphis arrives',
		'The harbour chain is raised',
		'A storm closes the harbour',
	]);
	expect(all.map((e) => e.status).sort()).toEqual(['error', 'success', 'success', 'success']);
	const sends = await sandbox.requests({ method: 'POST', path: '/v1/messages' });
	expect(sends.every((request) => request.responseStatus === 200 && (request.body as { to: string }).to === EXAMPLE_DATA.customerPhone)).toBe(true);
	// {{2}}: the event's time as people read it, not an ISO timestamp.
	for (const send of sends) expect((send.body as { template: { parameters: string[] } }).template.parameters[1]).toMatch(/^\d{1,2} [A-Z][a-z]+ \d{4} at \d\d:\d\d UTC$/);
	log(`[polling] n8n ${runtime.n8nVersion}: ${(await polls()).length} polls, ${all.length} executions (1 error), ${sends.length} alerts`);
	await n8n.deactivate(id);
});
