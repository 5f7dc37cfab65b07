/**
 * The checks of the compatibility smoke (smoke.compat.test.ts): what a user of each package does
 * first, on one n8n version, with the package installed as users install it. One entry each;
 * adding a check is one entry in CHECKS:
 * its column title, the packages that have it, the n8n version it needs beyond the package's
 * floor, and how it runs.
 *
 * A check resolves WORKS when it works, or else the words a user would read (n8n's answer or the
 * node's error), which go into the results table as they are.
 */
import { randomUUID } from 'node:crypto';

import { fetchOnOpenConnection, type N8nClient, type StoredCredential, type WorkflowJson } from '../../tools/n8n/client';
import { SEND_AND_WAIT_FLOOR } from '../../nodes/shared/n8nVersion';
import { WORKS } from '../../tools/compat/results';
import { CREDENTIAL_TYPES } from '../../tools/n8n/communityPackage';
import { EXAMPLE_DATA } from '../../tools/n8n/examples';
import type { N8nInstance } from '../../tools/n8n/instance';
import type { Log } from '../../tools/n8n/runtime';
import { SANDBOX_WEBHOOK_AUTH } from '../../tools/n8n/sandboxCredentials';
import { waitFor } from '../../tools/shared/wait';
import { AGENT_NODE, AGENT_NODE_TYPE, CHAT_MODEL_NODE_TYPE, agentWorkflow, fastForwardTool, scriptedModel } from '../e2e/agentWorkflow';
import { creatorItem, newWorkflowWithManualTrigger, openBrowser, signIn } from '../e2e/browserSupport';
import { servedNodeTypes } from '../e2e/communityNodes';
import { actionNodeUsing } from '../e2e/credentialUse';
import { nodeTypesOf, type ShippedPackage } from '../e2e/shippedPackages';
import { onceRegistered, sandbox } from '../e2e/support';
import { postAnswer, sendAndWaitWorkflow } from '../support/sendAndWaitWorkflow';
import { status as statusDelivery } from '../support/trigger-payloads';
import { workflowNode } from '../support/workflowNode';

export interface SmokeContext {
	n8n: N8nInstance;
	pkg: ShippedPackage;
	/** The sandbox credential of this type, saved in this n8n. */
	credential(type: string): StoredCredential;
	/** n8n's version, as `major.minor.patch`. */
	version: string;
	log: Log;
}

export interface SmokeCheck {
	/** The results' key (never change it: the results file keeps it). */
	id: string;
	/** The results table's column. */
	title: string;
	appliesTo(pkg: ShippedPackage): boolean;
	/** The n8n version the feature needs beyond the package's floor; below it the node says so. */
	since?: string;
	/** It looks at what n8n lists and runs nothing: below the package's floor the node is listed too (with its notice). */
	onlyLooks?: boolean;
	/** What n8n itself answers below the package's floor, before the node could say anything. */
	belowFloorN8nSays?: string;
	run(ctx: SmokeContext): Promise<string>;
}

const hasCredential = (type: string) => (pkg: ShippedPackage) => pkg.credentials.includes(type);

/** The words of a failed n8n request (`POST … -> 400: {"message": …}`), or of an error. */
function wordsOf(err: unknown): string {
	const text = err instanceof Error ? err.message : String(err);
	const json = text.match(/-> \d+: (\{.*)$/s)?.[1];
	try {
		return json ? String(JSON.parse(json).message) : text;
	} catch {
		return text;
	}
}

/** What the execution's error says: its message, as n8n shows it on the failed node. */
function executionError(execution: any): string | undefined {
	const error = execution?.data?.resultData?.error;
	return error ? String(error.message) : undefined;
}

/**
 * Publishes `workflow` through the public API as a user's Publish (Activate) does, gives its id to
 * `use` and unpublishes it after; what n8n refused the publishing with, if it did.
 */
async function whilePublished(n8n: N8nClient, workflow: WorkflowJson, use: (id: string) => Promise<string>): Promise<string> {
	const id = await n8n.importWorkflow(workflow);
	try {
		await n8n.activate(id);
	} catch (err) {
		return wordsOf(err);
	}
	try {
		return await use(id);
	} finally {
		await n8n.deactivate(id);
	}
}

/** A JSON POST to a production webhook once n8n has registered it; the answer's status. */
async function postToWebhook(n8n: N8nClient, path: string, body: object = {}): Promise<number> {
	const res = await onceRegistered(() =>
		fetchOnOpenConnection(`${n8n.webhookBaseUrl}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
	);
	await res.text();
	return res.status;
}

/**
 * Whether an execution has ended: not running and not waiting (a waiting execution has stopped
 * too). n8n 1.85's public API gives no `status`, only `stoppedAt` and `waitTill`.
 */
const hasEnded = (execution: any) =>
	execution.status === undefined ? Boolean(execution.stoppedAt) && !execution.waitTill : ['success', 'error', 'crashed', 'canceled'].includes(execution.status);

/** Whether it ended well. */
const succeeded = (execution: any) => execution.status === 'success' || (execution.status === undefined && execution.finished === true);

/** The workflow's finished executions (newest first), once there are `count`. */
async function finishedExecutions(n8n: N8nClient, workflowId: string, count = 1, timeoutMs = 60_000): Promise<any[]> {
	return waitFor(
		`${count} finished execution(s) of workflow ${workflowId}`,
		async () => {
			const list = (await n8n.executions(workflowId)).filter(hasEnded);
			return list.length >= count && list;
		},
		{ timeoutMs, intervalMs: 500 },
	);
}

/**
 * n8n's Webhook node, then `node`; POSTs a marker to its production URL: WORKS when the sandbox
 * received the request `sent` finds with HTTP 200, else the execution's error.
 */
async function throughWebhook(ctx: SmokeContext, node: Record<string, any>, sent: (r: any, marker: string) => boolean): Promise<string> {
	const path = randomUUID();
	const workflow: WorkflowJson = {
		name: `Compat ${node.name} ${path.slice(0, 8)}`,
		nodes: [
			workflowNode('Webhook', 'n8n-nodes-base.webhook', 2, 0, { httpMethod: 'POST', path, responseMode: 'lastNode', options: {} }, { webhookId: path }),
			{ ...node, position: [240, 0] },
		],
		connections: { Webhook: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
	return whilePublished(ctx.n8n, workflow, async (id) => {
		const marker = `Marker-${randomUUID()}`;
		const status = await postToWebhook(ctx.n8n, path, { marker });
		const statuses = (await sandbox.requests()).filter((r) => sent(r, marker)).map((r) => r.responseStatus);
		if (status === 200 && statuses.includes(200)) return WORKS;
		const [execution] = await finishedExecutions(ctx.n8n, id);
		return executionError(execution) ?? `n8n answered ${status}; the sandbox answered ${statuses.join(', ') || 'nothing'}`;
	});
}

/** The newest version n8n serves of a node type (n8n's own nodes change their parameters by version). */
async function newestVersion(n8n: N8nClient, type: string): Promise<number | undefined> {
	const res = await fetchOnOpenConnection(`${n8n.url}/types/nodes.json`, { headers: { cookie: n8n.cookie, 'browser-id': n8n.browserId } });
	const versions = ((await res.json()) as Array<{ name: string; version: number | number[] }>)
		.filter((t) => t.name === type)
		.flatMap((t) => (Array.isArray(t.version) ? t.version : [t.version]));
	return versions.length > 0 ? Math.max(...versions) : undefined;
}

/** In the order of the results table's columns. */
export const CHECKS: readonly SmokeCheck[] = [
	{
		id: 'loads',
		title: 'Loads',
		appliesTo: () => true,
		onlyLooks: true,
		run: async (ctx) => {
			const expected = [...nodeTypesOf([ctx.pkg]), `${ctx.pkg.nodes.action}Tool`];
			const served = await servedNodeTypes(ctx.n8n, expected, expected);
			return served.length === expected.length ? WORKS : `n8n serves ${served.length === 0 ? 'none' : `only ${served.join(', ')}`} of ${expected.join(', ')}`;
		},
	},
	{
		id: 'timeline',
		title: 'Timeline operation',
		appliesTo: hasCredential(CREDENTIAL_TYPES.timeline),
		run: (ctx) => {
			const node = { ...actionNodeUsing(ctx.pkg.nodes.action, ctx.credential(CREDENTIAL_TYPES.timeline)), name: 'Set Anchor' };
			return throughWebhook(ctx, node, (r, marker) => r.path === '/v1/set-anchor' && r.body?.description === marker);
		},
	},
	{
		id: 'send',
		title: 'Send',
		appliesTo: hasCredential(CREDENTIAL_TYPES.messaging),
		run: (ctx) => {
			const node = { ...actionNodeUsing(ctx.pkg.nodes.action, ctx.credential(CREDENTIAL_TYPES.messaging)), name: 'Send Template' };
			return throughWebhook(ctx, node, (r, marker) => r.path === '/v1/messages' && JSON.stringify(r.body).includes(marker));
		},
	},
	{
		id: 'trigger',
		title: 'Messaging trigger',
		appliesTo: (pkg) => pkg.nodes.trigger !== undefined,
		run: async (ctx) => {
			const webhookId = randomUUID();
			const trigger = workflowNode(
				'On Message Status',
				ctx.pkg.nodes.trigger!,
				1.1,
				0,
				{ events: ['message.status'], authentication: 'headerAuth' },
				{ webhookId, credentials: { [CREDENTIAL_TYPES.webhookHeader]: { id: ctx.credential(CREDENTIAL_TYPES.webhookHeader).id, name: 'header' } } },
			);
			const workflow = { name: `Compat trigger ${webhookId.slice(0, 8)}`, nodes: [trigger], connections: {}, settings: { executionOrder: 'v1' } };
			return whilePublished(ctx.n8n, workflow, async (id) => {
				const deliver = (secret: string) =>
					fetchOnOpenConnection(`${ctx.n8n.webhookBaseUrl}/${webhookId}/chat-app`, {
						method: 'POST',
						headers: { 'content-type': 'application/json', [SANDBOX_WEBHOOK_AUTH.headerName]: secret },
						body: JSON.stringify({ ...statusDelivery, message_id: `msg_${randomUUID()}` }),
					});
				const right = await onceRegistered(() => deliver(SANDBOX_WEBHOOK_AUTH.secret));
				const wrong = await deliver(`${SANDBOX_WEBHOOK_AUTH.secret}-wrong`);
				await Promise.all([right.text(), wrong.text()]);
				if (right.status !== 200 || wrong.status !== 401) return `with the secret ${right.status}, with a wrong one ${wrong.status}`;
				const [execution] = await finishedExecutions(ctx.n8n, id);
				return succeeded(execution) ? WORKS : (executionError(execution) ?? `the execution ended ${execution.status}`);
			});
		},
	},
	{
		id: 'sendAndWait',
		title: 'Send and Wait',
		appliesTo: hasCredential(CREDENTIAL_TYPES.messaging),
		since: SEND_AND_WAIT_FLOOR,
		run: async (ctx) => {
			const path = randomUUID();
			const to = EXAMPLE_DATA.customerPhone;
			await sandbox.inbound(to, 'Hi'); // the chat's 24-hour window is open: the question goes as free text
			const workflow = sendAndWaitWorkflow({
				name: `Compat Send and Wait ${path.slice(0, 8)}`,
				path,
				to,
				messaging: ctx.credential(CREDENTIAL_TYPES.messaging),
				ask: { message: `Ship order ${path.slice(0, 6)}?`, approvalOptions: { values: { approvalType: 'single', approveLabel: 'Ship it' } } },
				actionType: ctx.pkg.nodes.action,
			});
			return whilePublished(ctx.n8n, workflow, async (id) => {
				await postToWebhook(ctx.n8n, path);
				let seen: unknown[] = [];
				const asked = await waitFor(
					() => `the question with its link, or the execution ended (executions: ${JSON.stringify(seen)})`,
					async () => {
						const message = (await sandbox.messages({ phone: to })).find((m) => m.direction === 'outbound' && (m.text ?? '').includes(path.slice(0, 6)));
						if (message?.links?.[0]) return { link: message.links[0] };
						const executions = await ctx.n8n.executions(id);
						seen = executions.map((e) => ({ id: e.id, status: e.status, finished: e.finished, stoppedAt: e.stoppedAt }));
						const [ended] = executions.filter(hasEnded);
						return ended && { ended };
					},
					{ timeoutMs: 60_000, intervalMs: 500 },
				);
				if ('ended' in asked) return executionError(asked.ended) ?? `the execution ended ${asked.ended.status} without asking`;
				if (!/[?&]signature=/.test(asked.link)) return `the link is not signed: ${asked.link}`;
				// n8n answers 409 "is running already" from the moment the question is sent until it has
				// saved the execution as waiting (in CI at load 10 the answer came first, and the execution
				// then waited for one that never came): answer again, as a person would. (Waiting for the
				// status instead would need the REST API: 1.x's public API does not list waiting executions.)
				const answered = await waitFor(
					'n8n to take the answer (HTTP 409 while the execution still runs)',
					async () => {
						const response = await postAnswer(asked.link, { answer: 'approve' });
						await response.text();
						return response.status !== 409 && response;
					},
					{ timeoutMs: 60_000, intervalMs: 500 },
				);
				if (answered.status !== 200) return `the answer got HTTP ${answered.status}`;
				const [execution] = await finishedExecutions(ctx.n8n, id);
				const output = execution.data?.resultData?.runData?.Ask?.[0]?.data?.main?.[0]?.[0]?.json;
				return output?.data?.approved === true ? WORKS : (executionError(execution) ?? `the answer went on with ${JSON.stringify(output)}`);
			});
		},
	},
	{
		id: 'aiTool',
		title: 'AI Agent tool',
		appliesTo: hasCredential(CREDENTIAL_TYPES.timeline),
		// before 1.85 n8n takes community nodes as tools only with N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE=true
		belowFloorN8nSays: 'Unrecognized node type',
		run: async (ctx) => {
			const [agentVersion, modelVersion] = [await newestVersion(ctx.n8n, AGENT_NODE_TYPE), await newestVersion(ctx.n8n, CHAT_MODEL_NODE_TYPE)];
			if (!agentVersion || !modelVersion) return 'n8n serves no AI Agent or OpenAI Chat Model';
			const { model, credential } = await scriptedModel(ctx.n8n, `Scripted model ${randomUUID().slice(0, 8)}`);
			try {
				const path = randomUUID();
				const workflow = agentWorkflow({
					name: `Compat AI tool ${path.slice(0, 8)}`,
					prompt: 'Move forward 2 hours.',
					tool: fastForwardTool(ctx.credential(CREDENTIAL_TYPES.timeline)),
					openAiCredential: credential,
					agentVersion,
					modelVersion,
					toolType: `${ctx.pkg.nodes.action}Tool`,
					webhookPath: path,
				});
				model.script([{ toolCall: { tool: 'Fast_Forward', arguments: { amount: 2, unit: 'hours' } } }, { text: 'Moved forward 2 hours.' }]);
				await sandbox.clearRequests();
				return await whilePublished(ctx.n8n, workflow, async (id) => {
					await postToWebhook(ctx.n8n, path);
					const [execution] = await finishedExecutions(ctx.n8n, id);
					const answer = execution.data?.resultData?.runData?.[AGENT_NODE]?.at(-1)?.data?.main?.[0]?.[0]?.json?.output;
					const sent = (await sandbox.requests()).filter((r) => r.path === '/v1/fast-forward' && r.responseStatus === 200);
					if (answer === 'Moved forward 2 hours.' && sent.length === 1) return WORKS;
					return executionError(execution) ?? `the agent answered ${JSON.stringify(answer)}; the sandbox got ${sent.length} fast-forward(s)`;
				});
			} finally {
				await model.close();
			}
		},
	},
	{
		id: 'humanReview',
		title: 'Human review list',
		appliesTo: hasCredential(CREDENTIAL_TYPES.messaging),
		onlyLooks: true,
		run: async (ctx) => {
			// "Human in the loop" in the node panel of n8n 1.x and early 2.x, "Human review" later
			const entries = ['Human review', 'Human in the loop'];
			const displayName = await actionDisplayName(ctx);
			const browser = await openBrowser();
			let entry = entries.join('" or "');
			try {
				await signIn(browser.page, ctx.n8n);
				await newWorkflowWithManualTrigger(browser.page, ctx.n8n);
				const creator = browser.page.locator('[data-test-id=node-creator]');
				const listed = [];
				for (const name of entries) if ((await creator.getByText(name, { exact: true }).count()) > 0) listed.push(name);
				if (listed.length === 0) return `the node panel has no "${entry}" list`;
				entry = listed[0];
				await creator.getByText(entry, { exact: true }).click();
				await creator.getByText('Send and wait for response', { exact: true }).waitFor({ timeout: 15_000 });
				await creatorItem(browser.page, displayName).waitFor({ timeout: 15_000 });
				return WORKS;
			} catch (err) {
				await browser.shot(`compat-human-review-${ctx.version}-${ctx.pkg.name}.png`).catch(() => undefined);
				return `not listed under ${entry}: ${wordsOf(err).split('\n')[0]}`;
			} finally {
				await browser.close();
			}
		},
	},
	{
		id: 'polling',
		title: 'Timeline trigger (polling)',
		appliesTo: (pkg) => pkg.nodes.pollingTrigger !== undefined,
		run: async (ctx) => {
			// a place of its own: the activation's first poll remembers nothing, the next one starts the new event
			const location = `Compat ${randomUUID().slice(0, 8)}`;
			const trigger = workflowNode(
				'New Event',
				ctx.pkg.nodes.pollingTrigger!,
				1,
				0,
				{ pollTimes: { item: [{ mode: 'everyMinute' }] }, event: 'newEvent', location, lookBackAmount: 24, lookBackUnit: 'hours', options: {} },
				{ credentials: { [CREDENTIAL_TYPES.timeline]: { id: ctx.credential(CREDENTIAL_TYPES.timeline).id, name: 'timeline' } } },
			);
			const workflow = { name: `Compat polling ${location}`, nodes: [trigger], connections: {}, settings: { executionOrder: 'v1' } };
			const polls = async () => (await sandbox.requests({ path: '/v1/monitor-events' })).filter((r) => r.query.location === location);
			return whilePublished(ctx.n8n, workflow, async (id) => {
				// the poll n8n runs on activation (after it answers) remembers what is there: the event comes after it
				const first = await waitFor('the first poll', async () => (await polls()).length >= 1, { timeoutMs: 30_000, intervalMs: 250 }).catch(() => false);
				if (!first) return 'n8n did not poll the service when the workflow was published';
				const description = `A new event at ${location}`;
				await sandbox.seedEvent({ location, time: new Date(Date.now() - 60_000).toISOString(), description });
				// n8n polls every minute, at a second of its own
				const ended = await finishedExecutions(ctx.n8n, id, 1, 150_000).catch(async () => undefined);
				if (!ended) return `no execution started; the service was polled ${(await polls()).length} time(s), answering ${JSON.stringify((await polls()).map((r) => r.responseStatus))}`;
				const [execution] = ended;
				const started = execution.data?.resultData?.runData?.['New Event']?.[0]?.data?.main?.[0]?.map((item: any) => item.json.description);
				return succeeded(execution) && started?.length === 1 && started[0] === description
					? WORKS
					: (executionError(execution) ?? `the poll started ${JSON.stringify(started)}`);
			});
		},
	},
];

/** The action node's display name as n8n serves it (the node panel lists it so). */
async function actionDisplayName(ctx: SmokeContext): Promise<string> {
	const res = await fetchOnOpenConnection(`${ctx.n8n.url}/types/nodes.json`, { headers: { cookie: ctx.n8n.cookie, 'browser-id': ctx.n8n.browserId } });
	const type = ((await res.json()) as Array<{ name: string; displayName: string }>).find((t) => t.name === ctx.pkg.nodes.action);
	if (!type) throw new Error(`n8n does not serve ${ctx.pkg.nodes.action}`);
	return type.displayName;
}
