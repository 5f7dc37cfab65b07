/**
 * Saved-workflow fixtures (test/fixtures/saved-workflows/) in a real n8n: imported as a user's
 * saved workflows, activated, run, and what reached the sandbox compared with what the fixture
 * recorded (ids the service made up replaced, as in the in-process suite). The registry test
 * runs them before and after updating the package through Community Nodes.
 *
 * A fixture that starts at a Manual Trigger runs here from a Webhook node of the same name
 * (responding when the last node is done): the CLI's `n8n execute` takes seconds per run, a
 * webhook milliseconds. Either start gives the chain one item, and the fixtures' expressions read
 * only what the package's own nodes output.
 */
import { randomUUID } from 'node:crypto';

import { fetchOnOpenConnection, type StoredCredential, wireCredentials, type WorkflowJson } from '../../tools/n8n/client';
import { NODE_TYPES } from '../../tools/n8n/communityPackage';
import type { N8nInstance } from '../../tools/n8n/instance';
import { waitFor } from '../../tools/shared/wait';
import {
	comparable,
	readFixtures,
	releasesWithFixtures,
	sentRequests,
	type FixtureFile,
	type SentRequest,
} from '../support/saved-workflows';
import { publishWorkflow } from './communityNodes';
import { onceRegistered, sandbox } from './support';

/** The fixtures the update test runs: Send Template, the timeline chain, and the trigger with its reply. */
export const UPDATE_FIXTURES = [
	'action-template@1.json',
	'action-timeline@1.json',
	'trigger-reply@1.1.json',
];

/** The named fixtures of the newest release that has fixtures. */
export function newestFixtures(names: string[]): FixtureFile[] {
	const release = releasesWithFixtures().at(-1);
	if (!release) throw new Error('test/fixtures/saved-workflows has no release folder');
	const all = readFixtures(release);
	return names.map((name) => {
		const found = all.find((file) => file.id === `${release}/${name}`);
		if (!found) throw new Error(`${release} has no fixture ${name}`);
		return found;
	});
}

/** What a run in real n8n showed: the requests, and for the trigger each delivery's answer. */
export interface RealRun {
	requests: SentRequest[];
	deliveries?: Array<{ status: number; response: unknown }>;
}

export interface ActiveFixture {
	id: string;
	/** What the fixture recorded, in RealRun's terms. */
	expected: RealRun;
	/** Runs it once; `round` keeps the trigger's message ids new, so its repeat memory lets them through. */
	run(round: number): Promise<RealRun>;
}

async function requestsSoFar(): Promise<SentRequest[]> {
	return comparable(sentRequests(await sandbox.requests({ pathPrefix: '/v1/' })));
}

function withWebhookStart(workflow: WorkflowJson, path: string): WorkflowJson {
	const copy: WorkflowJson = JSON.parse(JSON.stringify(workflow));
	copy.nodes = copy.nodes.map((node) =>
		node.type === 'n8n-nodes-base.manualTrigger'
			? {
					...node,
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					webhookId: path,
					parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
				}
			: node,
	);
	return copy;
}

/** Imports and activates the fixture's workflow (with `credentials` wired by type). */
export async function activateFixture(n8n: N8nInstance, file: FixtureFile, credentials: StoredCredential[]): Promise<ActiveFixture> {
	const { fixture } = file;
	const workflow = wireCredentials({ ...(fixture.workflow as unknown as WorkflowJson), name: `${fixture.workflow.name} [${randomUUID()}]` }, credentials);
	const trigger = workflow.nodes.find((node) => node.type === NODE_TYPES.trigger);

	if (!trigger) {
		const path = randomUUID();
		await publishWorkflow(n8n, withWebhookStart(workflow, path));
		return {
			id: file.id,
			expected: { requests: fixture.expected.requests },
			run: async () => {
				await sandbox.clearRequests();
				const res = await onceRegistered(() => fetchOnOpenConnection(`${n8n.webhookBaseUrl}/${path}`, { method: 'POST' }));
				if (res.status !== 200) throw new Error(`${file.id} answered HTTP ${res.status}: ${await res.text()}`);
				return { requests: await requestsSoFar() };
			},
		};
	}

	// The same workflow imported twice would share the trigger's URL: give this import its own.
	trigger.webhookId = randomUUID();
	await publishWorkflow(n8n, workflow);
	const url = `${n8n.webhookBaseUrl}/${trigger.webhookId}/chat-app`;
	return {
		id: file.id,
		expected: {
			requests: fixture.expected.requests,
			deliveries: (fixture.expected.deliveries ?? []).map(({ status, response }) => ({ status, response })),
		},
		run: async (round) => {
			await sandbox.clearRequests();
			const deliveries: RealRun['deliveries'] = [];
			for (const delivery of fixture.deliveries ?? []) {
				const body = { ...delivery.body, message_id: `${String(delivery.body.message_id)}-round-${round}` };
				const post = () =>
					fetchOnOpenConnection(url, {
						method: 'POST',
						headers: { 'content-type': 'application/json', ...delivery.headers },
						body: JSON.stringify(body),
					});
				const res = deliveries.length === 0 ? await onceRegistered(post) : await post();
				const text = await res.text();
				deliveries.push({ status: res.status, response: text ? JSON.parse(text) : text });
			}
			// The workflows the deliveries started run after the answer: wait for their requests.
			const requests = await waitFor(
				`${fixture.expected.requests.length} requests from the workflows ${file.id} started`,
				async () => {
					const sent = await requestsSoFar();
					return sent.length >= fixture.expected.requests.length && sent;
				},
				{ timeoutMs: 15_000, intervalMs: 200 },
			);
			return { requests, deliveries };
		},
	};
}
