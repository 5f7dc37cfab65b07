/**
 * A month of examples/05 (a timeline session with a safe return) in minutes, in real n8n: one
 * session a day for thirty sandbox days, with the service failing on some days at each step of
 * the trip (HTTP 503, a dropped connection) and at the steps of the return. Every day must end
 * the same way for the traveller: time running, back home at the anchored moment; a failed trip
 * ends the execution with an error that names the step, after the return; a failed return step
 * is retried. Asserted where it lands: the requests the sandbox received, in order, and the
 * traveller's state at the sandbox.
 */
import { EXAMPLE_FILES, importExample, readExample, SESSION_REQUESTS } from '../../tools/n8n/examples';
import type { FaultSpec } from '../../tools/sandbox/client';
import { creds, endedExecution, n8n, nodeOutput, runFromEditor, sandbox } from './support';

const DAY = 24 * 3600_000;
const HOME = readExample(EXAMPLE_FILES.session).nodes.find((n) => n.name === 'Trip Plan')!.parameters.assignments.assignments.find(
	(a: { name: string }) => a.name === 'home',
).value as string;

/** What goes wrong on a day, and what the day must then look like. */
interface Day {
	day: number;
	what: string;
	faults: FaultSpec[];
	/** The requests in order, `!` marking those answered with the fault. */
	requests: string[];
	/** The step named by the error that ends the execution; none when the session succeeds. */
	failedStep?: string;
}

const NORMAL = [...SESSION_REQUESTS];
const RETURN = ['POST /v1/resume-time', 'POST /v1/travels', 'POST /v1/travel'];
const fault = (path: string, extra: Partial<FaultSpec> = {}): FaultSpec => ({ kind: 'status', status: 503, method: 'POST', path, count: 1, ...extra });

const TROUBLE: Day[] = [
	{
		day: 3,
		what: 'Travel answers 503',
		faults: [fault('/v1/travel')],
		requests: ['POST /v1/set-anchor', 'POST /v1/pause-time', '!POST /v1/travel', ...RETURN],
		failedStep: 'Travel to 1969',
	},
	{
		day: 7,
		what: 'the connection drops during Fast-Forward',
		faults: [fault('/v1/fast-forward', { kind: 'drop' })],
		requests: ['POST /v1/set-anchor', 'POST /v1/pause-time', 'POST /v1/travel', '!POST /v1/fast-forward', ...RETURN],
		failedStep: 'Fast-Forward 6 Hours',
	},
	{
		day: 12,
		what: 'Pause answers 503',
		faults: [fault('/v1/pause-time')],
		requests: ['POST /v1/set-anchor', '!POST /v1/pause-time', ...RETURN],
		failedStep: 'Pause Time',
	},
	{
		day: 18,
		what: 'Resume answers 503 once (retried)',
		faults: [fault('/v1/resume-time')],
		requests: [...NORMAL.slice(0, 4), '!POST /v1/resume-time', ...NORMAL.slice(4)],
	},
	{
		day: 25,
		what: 'Return to Anchor answers 503 twice (retried)',
		faults: [fault('/v1/travels', { count: 2 })],
		requests: [...NORMAL.slice(0, 5), '!POST /v1/travels', '!POST /v1/travels', ...NORMAL.slice(5)],
	},
];

let workflowId: string;

beforeAll(async () => {
	await sandbox.reset();
	await sandbox.setWebhook(null);
	workflowId = await importExample(n8n, EXAMPLE_FILES.session, creds);
});

afterAll(async () => {
	await sandbox.clearFaults();
});

test('thirty days, one session a day, with faults on five: the traveller always ends up home at the anchored moment with time running', async () => {
	const summary: string[] = [];
	for (let day = 1; day <= 30; day++) {
		const trouble = TROUBLE.find((t) => t.day === day);
		const expected: Day = trouble ?? { day, what: 'no fault', faults: [], requests: NORMAL };
		await sandbox.clearFaults();
		await sandbox.clearRequests();
		for (const f of expected.faults) await sandbox.injectFault(f);

		const execution = await endedExecution(workflowId, await runFromEditor(workflowId, 'When Clicking Execute'));
		const requests = (await sandbox.requests({ pathPrefix: '/v1/' })).map((r) => `${r.fault ? '!' : ''}${r.method} ${r.path}`);
		const [anchor] = nodeOutput(execution, 'Set Anchor');
		const [home] = nodeOutput(execution, 'Back Home');
		const [traveller] = await sandbox.travellers();
		const error: string | undefined = execution.data?.resultData?.error?.message;

		expect({ day, what: expected.what, requests }).toEqual({ day, what: expected.what, requests: expected.requests });
		// Home, at the anchored moment, and time flows again.
		expect({ day, paused: traveller.paused, location: traveller.location, homeLocation: home?.location }).toEqual({
			day,
			paused: false,
			location: HOME,
			homeLocation: HOME,
		});
		const drift = Date.parse(traveller.currentTime) - Date.parse(anchor.timestamp);
		expect({ day, driftUnderAMinute: drift >= 0 && drift < 60_000 }).toEqual({ day, driftUnderAMinute: true });
		if (expected.failedStep) {
			expect({ day, status: execution.status }).toEqual({ day, status: 'error' });
			expect(error).toMatch(new RegExp(`^The trip failed at ${expected.failedStep} \\(.+\\)\\. Time runs again, and the traveller is back home`));
		} else {
			expect({ day, status: execution.status, error }).toEqual({ day, status: 'success', error: undefined });
		}
		summary.push(`day ${day}: ${expected.what} -> ${execution.status}${error ? ` ("${error}")` : ''}, home at the anchor`);
		await sandbox.advanceClock(DAY);
	}
	console.log(`timeline session, a month: ${summary.filter((line) => !line.includes('no fault')).join('; ')}; 25 other days without a fault`);
}, 600_000);
