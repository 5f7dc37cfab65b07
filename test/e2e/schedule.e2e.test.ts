/**
 * The scheduled example (examples/01) fires on its own in real n8n: a copy whose Schedule
 * Trigger runs every few seconds is published; n8n starts it by itself (execution mode
 * `trigger`), and the sandbox receives Monitor Events and the `event_alert` templates. Once
 * unpublished, no further run starts (the execution count stays the same over a settle period
 * longer than the interval).
 */
import { EXAMPLE_DATA, EXAMPLE_FILES, readExample, seedExampleData } from '../../tools/n8n/examples';
import { wireCredentials, type WorkflowJson } from '../../tools/n8n/client';
import { creds, n8n, nodeOutput, sandbox, waitForExecutionsWhere, waitForSettledExecutions } from './support';

const INTERVAL_SECONDS = 2;
/** Three intervals without a new execution: a schedule still running would have fired twice. */
const SETTLE_MS = 3 * INTERVAL_SECONDS * 1000;

type Seeded = Awaited<ReturnType<typeof seedExampleData>>;
let seeded: Seeded;
let workflowId: string | undefined;

/** The scheduled example with its Schedule Trigger set to every few seconds; the rest is its own. */
function everyFewSeconds(seconds: number): WorkflowJson {
	const wf = readExample(EXAMPLE_FILES.scheduled);
	const trigger = wf.nodes.find((n) => n.type === 'n8n-nodes-base.scheduleTrigger');
	if (!trigger) throw new Error(`${EXAMPLE_FILES.scheduled} has no Schedule Trigger`);
	trigger.parameters = { rule: { interval: [{ field: 'seconds', secondsInterval: seconds }] } };
	return { ...wf, name: `${wf.name} (every ${seconds} seconds)` };
}

beforeAll(async () => {
	await sandbox.reset();
	await sandbox.setWebhook(null);
	seeded = await seedExampleData(sandbox);
});

afterAll(async () => {
	// never leave a schedule firing into the other test files
	if (workflowId) await n8n.deactivate(workflowId);
});

test(`published with a ${INTERVAL_SECONDS}-second schedule, n8n runs the scheduled example by itself (mode trigger): Monitor Events, then one event_alert template per event; unpublished, it runs no more`, async () => {
	const id = await n8n.importWorkflow(wireCredentials(everyFewSeconds(INTERVAL_SECONDS), creds));
	workflowId = id;
	expect(await n8n.executions(id)).toEqual([]);
	const publishedAt = Date.now();
	await n8n.activate(id);
	try {
		await waitForExecutionsWhere(id, 'finished trigger execution', (list) =>
			list.some((e) => e.mode === 'trigger' && e.status !== 'running' && e.status !== 'new'),
		);
	} finally {
		await n8n.deactivate(id);
	}
	expect((await n8n.api('GET', `/workflows/${id}`)).body.active).toBe(false);

	// Settled: every run n8n started before unpublishing has finished, and no new one starts.
	const runs = await waitForSettledExecutions(id, SETTLE_MS);
	expect(runs.length).toBeGreaterThanOrEqual(1);
	for (const run of runs) {
		expect(run).toEqual(expect.objectContaining({ mode: 'trigger', status: 'success' }));
		expect(Date.parse(run.startedAt)).toBeGreaterThanOrEqual(publishedAt - 1000);
	}

	// Each run: Monitor Events at the example's location, then one template per seeded event.
	const monitors = await sandbox.requests({ path: '/v1/monitor-events' });
	expect(monitors).toHaveLength(runs.length);
	for (const m of monitors) {
		expect(m.query.location).toBe(EXAMPLE_DATA.location);
		expect(m.responseStatus).toBe(200);
	}
	const templateFor = (e: Seeded[number]) => ({
		channel: 'chatapp',
		to: EXAMPLE_DATA.customerPhone,
		message_type: 'template',
		template: { id: 'event_alert', parameters: [e.location, e.time, e.description] },
	});
	const sends = await sandbox.requests({ method: 'POST', path: '/v1/messages' });
	const sortedBodies = (bodies: unknown[]) => bodies.map((b) => JSON.stringify(b)).sort();
	expect(sortedBodies(sends.map((s) => s.body))).toEqual(
		sortedBodies(runs.flatMap(() => seeded.map(templateFor))),
	);
	expect(sends.every((s) => s.responseStatus === 200)).toBe(true);

	// The first run's output: one sent message per event, and what the customer reads.
	const firstRun = runs.at(-1);
	const alerts = nodeOutput(firstRun, 'Alert the Customer');
	expect(alerts).toHaveLength(seeded.length);
	for (const [i, alert] of alerts.entries()) {
		expect(alert.message_id).toMatch(/^msg_/);
		expect((await sandbox.message(alert.message_id)).text).toContain(seeded[i].description);
	}
});
