/**
 * The service's own words reach the error item in a real n8n, on every n8n version the suite
 * runs (n8n 1.x wraps a failed request in an error that drops the response body and headers;
 * see `request` in nodes/shared/transport.ts). One workflow, every node on Continue On Fail (regular output):
 * wrong keys for both services, then one injected failure per node (4xx and 5xx, JSON and text
 * bodies, a Retry-After too long to wait), each error item read from the CLI's run data.
 */
import { randomUUID } from 'node:crypto';

import type { StoredCredential, WorkflowJson } from '../../tools/n8n/client';
import { NODE_TYPES } from '../../tools/n8n/communityPackage';
import type { FaultSpec } from '../../tools/sandbox/types';
import { cliNodeOutput, env, n8n, sandbox } from './support';

/** One node of the chain: what it runs and the error item it must output. */
interface Case {
	name: string;
	parameters: Record<string, unknown>;
	/** Injected at the sandbox before the run; each node calls its own path, or they fire in node order. */
	fault?: FaultSpec;
	wrongKey?: boolean;
	error: string;
}

const PAUSE = { resource: 'time', operation: 'pause' };
const pauseFault = (fault: Omit<FaultSpec, 'kind' | 'path'>): FaultSpec => ({ kind: 'status', path: '/v1/pause-time', ...fault });

const CASES: Case[] = [
	{
		name: 'Wrong Timeline Key',
		parameters: { resource: 'timeline', operation: 'getAll' },
		wrongKey: true,
		error: 'Timeline → Get Many failed: the service answered HTTP 401: The bearer key is not valid for the timeline navigation service.',
	},
	{
		name: 'Wrong Messaging Key',
		parameters: { resource: 'message', operation: 'getStatus', messageId: 'msg_e2e' },
		wrongKey: true,
		error: 'Message → Get Status failed: the service answered HTTP 401: The bearer key is not valid for the messaging service.',
	},
	{
		name: 'HTTP 500 JSON',
		parameters: PAUSE,
		fault: pauseFault({ status: 500, body: { message: 'The flux capacitor is offline' } }),
		error: 'Time → Pause failed: the service answered HTTP 500: The flux capacitor is offline',
	},
	{
		name: 'HTTP 503 Text',
		parameters: PAUSE,
		fault: pauseFault({ status: 503, bodyText: 'Upstream chronometer unreachable' }),
		error: 'Time → Pause failed: the service answered HTTP 503: Upstream chronometer unreachable',
	},
	{
		name: 'HTTP 409 Nested Error',
		parameters: PAUSE,
		fault: pauseFault({ status: 409, body: { error: { code: 'already_paused', message: 'Time is already paused' } } }),
		error: 'Time → Pause failed: the service answered HTTP 409: Time is already paused',
	},
	{
		name: 'HTTP 429 Long Retry-After',
		parameters: PAUSE,
		fault: pauseFault({ status: 429, retryAfter: 3600, body: { message: 'Slow down' } }),
		error:
			'Time → Pause failed: the service answered HTTP 429: Slow down (not retried: the service asked to wait 3600 s, longer than "Max Retry Wait" (60 s))',
	},
];

function chainWorkflow(cases: Case[], wrong: StoredCredential[]): WorkflowJson {
	const trigger = { id: randomUUID(), name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
	const nodes = cases.map((c, i) => {
		const service = c.parameters.resource === 'message' ? env.credentials.messaging : env.credentials.timeline;
		const credential = c.wrongKey ? wrong.find((w) => w.type === service.type)! : service;
		return {
			id: randomUUID(),
			name: c.name,
			type: NODE_TYPES.action,
			typeVersion: 1,
			position: [220 * (i + 1), 0],
			parameters: c.parameters,
			onError: 'continueRegularOutput',
			credentials: { [service.type]: { id: credential.id, name: credential.name } },
		};
	});
	const names = [trigger.name, ...nodes.map((n) => n.name)];
	const connections = Object.fromEntries(
		names.slice(0, -1).map((from, i) => [from, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]),
	);
	return { name: 'Service errors keep the service words', nodes: [trigger, ...nodes], connections, settings: { executionOrder: 'v1' } };
}

describe(`on n8n ${env.versions.n8n}, an error item holds what the service said`, () => {
	let data: any;

	beforeAll(async () => {
		await sandbox.reset();
		await sandbox.setWebhook(null);
		const wrong = await n8n.importCredentials([
			{ name: 'Timeline (wrong key, errors)', type: 'timelineNavigationApi', data: { baseUrl: env.sandbox.url, accessToken: 'wrong-timeline-key-e2e' } },
			{ name: 'Messaging (wrong key, errors)', type: 'chatAppMessagingApi', data: { baseUrl: env.sandbox.url, apiKey: 'wrong-messaging-key-e2e' } },
		]);
		for (const c of CASES) if (c.fault) await sandbox.injectFault(c.fault);
		const id = await n8n.importWorkflow(chainWorkflow(CASES, wrong));
		const run = await n8n.executeWorkflow(id);
		if (run.code !== 0 || !run.data) throw new Error(`n8n execute exited ${run.code}:\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-2000)}`);
		data = run.data;
	});

	afterAll(async () => {
		await sandbox.clearFaults();
	});

	test.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
		expect(cliNodeOutput(data, c.name)).toEqual([expect.objectContaining({ error: c.error })]);
	});

	test('every request reached the sandbox once and got the answer injected for it', async () => {
		const requests = (await sandbox.requests()).filter((r) => r.path.startsWith('/v1/'));
		expect(requests.map((r) => `${r.method} ${r.path} ${r.responseStatus}`)).toEqual([
			'GET /v1/timelines 401',
			'GET /v1/messages/msg_e2e 401',
			'POST /v1/pause-time 500',
			'POST /v1/pause-time 503',
			'POST /v1/pause-time 409',
			'POST /v1/pause-time 429',
		]);
	});
});
