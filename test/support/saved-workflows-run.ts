// Runs a saved-workflow fixture in-process (n8n-core, the TypeScript source) against a sandbox
// and reports what happened in the fixture's terms. Used by the saved-workflow suite and by the
// script that records a release's fixtures (test/fixtures/saved-workflows/make.ts).
import { SEND_AND_WAIT_OPERATION, type INode } from 'n8n-workflow';
import type { Sandbox } from '../../tools/sandbox/server';
import { hostTrigger, runWorkflow, TRIGGER_NODE_TYPE, type StoredCredential } from './harness';
import { startWaitingServer } from './harness/waiting';
import { credentialsFor, NODE_TYPE } from './node-support';
import { escapeRegExp } from './regexp';
import {
	arrange,
	comparable,
	sentRequests,
	triggerNode,
	type DeliveryOutcome,
	type Fixture,
	type SavedWorkflow,
	type SentRequest,
} from './saved-workflows';

export interface FixtureRun {
	requests: SentRequest[];
	deliveries?: DeliveryOutcome[];
	error?: string;
}

/** The webhook credentials trigger fixtures refer to (ids `hdr` and `basic`). */
export const WEBHOOK_CREDENTIALS: StoredCredential[] = [
	{ id: 'hdr', name: 'Webhook Secret', type: 'chatAppWebhookHeaderAuthApi', data: { headerName: 'X-Webhook-Secret', secret: 'fixture-secret-0123456789' } },
	{ id: 'basic', name: 'Webhook Login', type: 'chatAppWebhookBasicAuthApi', data: { user: 'chat-app', password: 'fixture-password-0123' } },
];

async function runActions(workflow: SavedWorkflow, credentials: StoredCredential[], startNode?: string) {
	const result = await runWorkflow(workflow, { credentials, startNode });
	return result.error?.message;
}

/** Hosts the trigger, posts each delivery, and runs the rest of the workflow on what it started. */
async function runTriggerFixture(fixture: Fixture, trigger: INode, credentials: StoredCredential[]) {
	const hosted = await hostTrigger({
		typeVersion: trigger.typeVersion,
		name: trigger.name,
		parameters: trigger.parameters,
		nodeCredentials: trigger.credentials,
		credentials,
		webhookId: trigger.webhookId,
		// n8n keeps a trigger's repeat memory per workflow: one per fixture.
		workflowId: fixture.workflow.name,
	});
	const deliveries: DeliveryOutcome[] = [];
	const errors: string[] = [];
	try {
		for (const delivery of fixture.deliveries ?? []) {
			hosted.clearRecords();
			const response = await hosted.post(delivery.body, { headers: delivery.headers });
			const start = hosted.starts[0];
			deliveries.push({ status: response.status, response: response.json ?? response.text, output: start ? start.json : null });
			if (!start || !fixture.workflow.connections[trigger.name]) continue;
			// What n8n runs next: the workflow from the trigger, with the items it started with.
			const pinned: SavedWorkflow = { ...fixture.workflow, pinData: { [trigger.name]: start.data[0] } };
			const error = await runActions(pinned, credentials, trigger.name);
			if (error) errors.push(error);
		}
	} finally {
		await hosted.close();
	}
	return { deliveries, error: errors.length ? errors.join('\n') : undefined };
}

/** What a link of a Send and Wait question looks like in a fixture: its port, execution id and signature change every run. */
export const RESUME_LINK = '<resume link>';

/**
 * Runs the workflow until its Send and Wait node waits, posts each answer to the link of the
 * latest question the service accepted, as the person would, and lets the execution go on.
 */
async function runWaitingFixture(fixture: Fixture, sandbox: Sandbox, credentials: StoredCredential[]) {
	const waiting = await startWaitingServer();
	try {
		const execution = await waiting.start(fixture.workflow, { credentials });
		const linkPattern = new RegExp(`${escapeRegExp(waiting.baseUrl)}/\\S+?(?=["\\s]|$)`);
		for (const form of fixture.answers ?? []) {
			const questions = await sandbox.client.requests({ method: 'POST', path: '/v1/messages' });
			const link = questions
				.filter((request) => request.responseStatus === 200)
				.map((request) => linkPattern.exec(JSON.stringify(request.body))?.[0])
				.filter((found): found is string => found !== undefined)
				.at(-1);
			if (!link) throw new Error(`${fixture.workflow.name}: no accepted message holds a link to answer`);
			await waiting.request(link, { form });
			await execution.settled();
		}
		return { error: execution.run().data.resultData.error?.message, linkPattern: new RegExp(linkPattern.source, 'g') };
	} finally {
		await waiting.close();
	}
}

const asksAndWaits = (workflow: SavedWorkflow) =>
	workflow.nodes.some((node) => node.type === NODE_TYPE && node.parameters.operation === SEND_AND_WAIT_OPERATION);

export async function runFixture(fixture: Fixture, sandbox: Sandbox): Promise<FixtureRun> {
	await sandbox.client.reset();
	await arrange(sandbox.client, fixture.sandbox);
	const credentials = [...credentialsFor(sandbox), ...WEBHOOK_CREDENTIALS];
	const trigger = triggerNode(fixture.workflow, TRIGGER_NODE_TYPE);
	let outcome: { deliveries?: DeliveryOutcome[]; error?: string };
	let resumeLinks: RegExp | undefined;
	if (trigger) outcome = await runTriggerFixture(fixture, trigger, credentials);
	else if (asksAndWaits(fixture.workflow)) {
		const { error, linkPattern } = await runWaitingFixture(fixture, sandbox, credentials);
		outcome = { error };
		resumeLinks = linkPattern;
	} else outcome = { error: await runActions(fixture.workflow, credentials) };
	let requests = sentRequests(await sandbox.client.requests({ pathPrefix: '/v1/' }));
	if (resumeLinks) requests = JSON.parse(JSON.stringify(requests).replace(resumeLinks, RESUME_LINK)) as SentRequest[];
	const run: FixtureRun = comparable({ requests, ...outcome });
	return JSON.parse(JSON.stringify(run)) as FixtureRun;
}
