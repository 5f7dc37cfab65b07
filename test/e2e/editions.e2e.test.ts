/**
 * The single-service packages as their users meet them: a fresh n8n without the combined package,
 * each edition installed from the local registry through Settings → Community Nodes (its REST
 * calls, as registry-install.e2e.test.ts makes them), then a workflow of its service:
 *
 * - n8n-nodes-timeline-navigation-service: a webhook sets an anchor;
 * - n8n-nodes-chat-app-messaging: a send (Send Template); Send and Wait for Response, its question
 *   answered in headless Chromium; the inbound-reply example, the sandbox posting an inbound
 *   message to the Chat-App Inbox Trigger's production URL and receiving the workflow's reply.
 *
 * In the editor (headless Chromium), the searches users type find each edition's node, and the
 * messaging node is listed under Human review → Send and wait for response.
 *
 * What the sandbox received is the evidence: it answers 401 to a wrong key and 422 to a refused
 * message, and it records each request.
 */
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';

import { EXAMPLE_DATA, EXAMPLE_FILES, inboundReplyText, readExample, seedExampleData } from '../../tools/n8n/examples';
import { fetchOnOpenConnection, type StoredCredential, wireCredentials } from '../../tools/n8n/client';
import { sandboxCredentials, webhookHeadersFor } from '../../tools/n8n/sandboxCredentials';
import { waitFor } from '../../tools/shared/wait';
import { sendAndWaitWorkflow } from '../support/sendAndWaitWorkflow';
import { status as statusDelivery } from '../support/trigger-payloads';
import { creatorItem, newWorkflowWithManualTrigger, openBrowser, searchCreator, signIn } from './browserSupport';
import {
	installThroughSettings,
	publishWorkflow,
	registrySetup,
	servedNodeTypes,
	type InstalledPackage,
} from './communityNodes';
import { actionUse, tryUses, working } from './credentialUse';
import { EDITIONS, MESSAGING_EDITION, TIMELINE_EDITION, nodeTypesOf } from './shippedPackages';
import { env, onceRegistered, sandbox } from './support';

jest.setTimeout(300_000);

const setup = registrySetup({ logName: 'editions', publish: EDITIONS });
const { runtime } = setup;
const CUSTOMER = EXAMPLE_DATA.customerPhone;
/** The node panel's entry for n8n's Send and Wait nodes: "Human review" in 2.x, "Human in the loop" in 1.x. */
const HUMAN_REVIEW = runtime.n8nVersion.startsWith('1.') ? 'Human in the loop' : 'Human review';

let saved: StoredCredential[] | undefined;

/** The sandbox credentials, saved once the packages that define their types are installed. */
async function savedCredentials(): Promise<StoredCredential[]> {
	saved ??= await setup.n8n.importCredentials(sandboxCredentials(env.sandbox));
	return saved;
}
const credential = async (type: string) => (await savedCredentials()).find((c) => c.type === type)!;

beforeAll(async () => {
	await sandbox.reset();
	await sandbox.setWebhook(null);
	await seedExampleData(sandbox);
});

afterAll(async () => {
	await sandbox.setWebhook(null);
});

/** The workflow's executions as the editor lists them (waiting ones included), newest first. */
async function executionsOf(workflowId: string): Promise<Array<{ id: string; status: string }>> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	return (await setup.n8n.rest('GET', `/executions?filter=${filter}`)).body.results;
}

describe(`the single-service packages from a registry, through Settings → Community Nodes (n8n ${runtime.n8nVersion})`, () => {
	test.each(EDITIONS.map((edition) => [edition.name, edition]))('%s installs and its nodes load, without a restart', async (name, edition) => {
		const res = await installThroughSettings(setup.n8n, name);
		expect({ status: res.status, message: res.body?.message }).toEqual({ status: 200, message: undefined });
		const installed: InstalledPackage = res.body;
		expect(installed.installedNodes.map((node) => node.type).sort()).toEqual(nodeTypesOf([edition]).sort());
		expect(await servedNodeTypes(setup.n8n, nodeTypesOf([edition]), nodeTypesOf(EDITIONS))).toEqual(
			nodeTypesOf(EDITIONS.slice(0, EDITIONS.indexOf(edition) + 1)).sort(),
		);
	});

	test(`in the editor, the searches users type find each edition's node, and ${MESSAGING_EDITION.name}'s is listed under Human review (screenshot)`, async () => {
		const browser = await openBrowser();
		const { page } = browser;
		try {
			await signIn(page, setup.n8n);
			await newWorkflowWithManualTrigger(page, setup.n8n);
			for (const term of ['send and wait', 'approval', 'human', 'chat', 'sms']) {
				expect({ term, found: await searchCreator(page, term, 'Chat-App Messaging') }).toEqual({ term, found: expect.arrayContaining(['Chat-App Messaging']) });
			}
			for (const term of ['timeline', 'time travel']) {
				expect({ term, found: await searchCreator(page, term, 'Timeline Navigation') }).toEqual({ term, found: expect.arrayContaining(['Timeline Navigation']) });
			}
			// "chat-app": the action node and its trigger, told apart; one click on the action shows the sends
			const chatApp = await searchCreator(page, 'chat-app', 'Chat-App Messaging');
			expect(chatApp).toEqual(expect.arrayContaining(['Chat-App Messaging', 'Chat-App Inbox']));
			await creatorItem(page, 'Chat-App Messaging').click();
			for (const action of ['Send a text message', 'Send a template message', 'Send message and wait for response']) {
				await page.locator('[data-test-id=node-creator]').getByText(action, { exact: true }).first().waitFor();
			}
			await browser.shot(`editions-chat-app-actions-${runtime.id}.png`);
			await page.keyboard.press('Escape');
			await newWorkflowWithManualTrigger(page, setup.n8n);
			await page.locator('[data-test-id=node-creator-search-bar]').fill('');
			const creator = page.locator('[data-test-id=node-creator]');
			await creator.getByText(HUMAN_REVIEW, { exact: true }).click();
			await creator.getByText('Send and wait for response', { exact: true }).waitFor();
			await creatorItem(page, 'Chat-App Messaging').waitFor();
			await browser.shot(`editions-human-review-${runtime.id}.png`);
		} catch (err) {
			await browser.shot(`editions-human-review-failure-${runtime.id}.png`).catch(() => undefined);
			throw err;
		} finally {
			await browser.close();
		}
	});

	test(`${TIMELINE_EDITION.name}: a webhook sets an anchor, and ${MESSAGING_EDITION.name}: a webhook sends a template, each with its saved credential`, async () => {
		const uses = [];
		for (const edition of EDITIONS) uses.push(actionUse(edition.nodes.action, await credential(edition.credentials[0])));
		expect(await tryUses(setup.n8n, uses, 'Editions')).toEqual(working(uses));
	});

	test(`${MESSAGING_EDITION.name}: Send and Wait for Response asks over chat, Chromium approves, and the workflow goes on`, async () => {
		await sandbox.inbound(CUSTOMER, 'Hi'); // opens the customer's 24-hour window
		const webhookPath = `editions-send-and-wait-${randomUUID()}`;
		const workflow = sendAndWaitWorkflow({
			name: 'Edition: Send and Wait',
			path: webhookPath,
			to: CUSTOMER,
			messaging: await credential(MESSAGING_EDITION.credentials[0]),
			ask: { message: 'Ship order #1042 today?', approvalOptions: { values: { approvalType: 'single', approveLabel: 'Ship it' } } },
			actionType: MESSAGING_EDITION.nodes.action,
		});
		const id = await publishWorkflow(setup.n8n, workflow);
		const started = await onceRegistered(() =>
			fetchOnOpenConnection(`${setup.n8n.webhookBaseUrl}/${webhookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
		);
		expect(started.status).toBe(200);

		const waiting = await waitFor(
			'the execution to wait for the answer',
			async () => (await executionsOf(id)).find((e) => e.status === 'waiting'),
			{ timeoutMs: 60_000 },
		);
		const question = await waitFor(
			'the question with its link in the sandbox',
			async () => (await sandbox.messages({ phone: CUSTOMER })).find((m) => m.direction === 'outbound' && m.text?.startsWith('Ship order #1042 today?')),
			{ timeoutMs: 30_000 },
		);
		const [link] = question.links!;
		expect(link).toContain(`/webhook-waiting/${waiting.id}/`);

		const browser = await openBrowser();
		try {
			await browser.page.goto(link);
			await browser.page.getByRole('button', { name: 'Ship it' }).click();
			await browser.page.getByText('Your answer was recorded: Ship it.').waitFor();
			await browser.shot(`editions-send-and-wait-${runtime.id}.png`);
		} finally {
			await browser.close();
		}
		const finished = await waitFor(
			'the execution to finish',
			async () => (await executionsOf(id)).find((e) => e.id === waiting.id && e.status !== 'waiting' && e.status !== 'running'),
			{ timeoutMs: 60_000 },
		);
		expect(finished.status).toBe('success');
	});

	test(`${MESSAGING_EDITION.name}: the inbound-reply example, published, answers a message the sandbox posts to the Chat-App Inbox Trigger`, async () => {
		const file = path.join(MESSAGING_EDITION.name, EXAMPLE_FILES.inboundReply);
		const example = wireCredentials(readExample(file), await savedCredentials());
		const trigger = example.nodes.find((node) => node.type === MESSAGING_EDITION.nodes.trigger);
		expect(trigger).toBeDefined();
		await publishWorkflow(setup.n8n, example);
		const url = `${setup.n8n.webhookBaseUrl}/${trigger!.webhookId}/chat-app`;
		const headers = webhookHeadersFor(example, MESSAGING_EDITION.nodes.trigger);
		expect(Object.keys(headers)).toHaveLength(1);
		// the sandbox delivers once: wait until n8n has registered the URL (a status event is
		// acknowledged without starting this inbound-only workflow)
		await onceRegistered(() =>
			fetchOnOpenConnection(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ ...statusDelivery, message_id: `msg_${randomUUID()}` }) }),
		);
		await sandbox.setWebhook(url, headers);

		const inbound = await sandbox.inbound(CUSTOMER, 'Is my order on its way?');
		const reply = await waitFor(
			'the reply to reach the sandbox',
			async () =>
				(await sandbox.requests({ method: 'POST', path: '/v1/messages' })).find(
					(r) => (r.body as { to?: string }).to === CUSTOMER && String((r.body as { text?: string }).text).startsWith('Hi {first_name}, thanks for your message.'),
				),
			{ timeoutMs: 60_000 },
		).catch(async (err) => {
			const deliveries = await sandbox.webhookDeliveries();
			throw new Error(`${err.message}; the sandbox's deliveries: ${JSON.stringify(deliveries.slice(-3))}`);
		});
		expect(reply.responseStatus).toBe(200);
		expect(reply.responseStatus).toBe(200);
		const timeZone = (await setup.n8n.rest('GET', '/settings')).body.timezone;
		const stored = (await sandbox.messages({ phone: CUSTOMER })).filter((m) => m.direction === 'outbound').at(-1);
		expect(stored?.text).toBe(inboundReplyText('Ada', inbound.timestamp, timeZone));
	});
});
