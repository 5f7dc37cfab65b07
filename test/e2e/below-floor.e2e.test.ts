/**
 * What a user of an n8n older than the package's floor (nodes/shared/n8nVersion.ts) meets: the
 * newest such n8n of the version matrix (tools/n8n/versions.ts, n8n 1.82.3, whose n8n-workflow
 * has no NodeConnectionTypes) with the combined package installed. Before the floor had a rule,
 * n8n logged "Class could not be found" and served none of the nodes; now n8n serves them, the
 * node's panel opens on the notice, a run fails saying which n8n the node needs, and publishing
 * a workflow with the trigger is refused in the same words. Runs once, in the n8n 2.41 project
 * (it starts its own n8n of the older version).
 */
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';

import { N8N_FLOOR } from '../../nodes/shared/n8nVersion';
import { CREDENTIAL_TYPES, NODE_TYPES } from '../../tools/n8n/communityPackage';
import { fetchOnOpenConnection, type StoredCredential } from '../../tools/n8n/client';
import { startN8n, type N8nInstance } from '../../tools/n8n/instance';
import { freePort } from '../../tools/n8n/processes';
import { ARTIFACTS_DIR, ensureRuntime, runtimeById } from '../../tools/n8n/runtime';
import { sandboxCredentials } from '../../tools/n8n/sandboxCredentials';
import { MATRIX } from '../../tools/n8n/versions';
import { waitFor } from '../../tools/shared/wait';
import { openBrowser, signIn } from './browserSupport';
import { actionNodeUsing } from './credentialUse';
import { log } from './environment';
import { env, onceRegistered, sandbox } from './support';

jest.setTimeout(300_000);

const runtime = runtimeById(MATRIX.find((entry) => entry.role === 'below the floor')!.n8n);
const NOTICE = `This node needs n8n ${N8N_FLOOR} or newer. This n8n is older, so the node does not run here: update n8n to use it.`;
const REFUSAL = `This node needs n8n ${N8N_FLOOR} or newer`;
const logFile = path.join(ARTIFACTS_DIR, 'e2e', `n8n-below-floor-${runtime.id}.log`);
const PACKAGE_TYPES: string[] = [NODE_TYPES.action, NODE_TYPES.trigger, NODE_TYPES.pollingTrigger];

let n8n: N8nInstance;
let credentials: StoredCredential[];
const credential = (type: string) => credentials.find((c) => c.type === type)!;

// Its own hook, with time for the first install (3-10 minutes, or a wait for .ci/run's installer).
beforeAll(() => ensureRuntime({ runtime, log }), 20 * 60_000);

beforeAll(async () => {
	n8n = await startN8n({ runtime, port: await freePort(), logFile, log });
	credentials = await n8n.importCredentials(sandboxCredentials(env.sandbox));
	await sandbox.clearRequests();
});

afterAll(async () => {
	await n8n?.stop();
});

describe(`on n8n ${runtime.n8nVersion}, older than ${N8N_FLOOR}`, () => {
	test('n8n loads every node of the package (no "Class could not be found"), each with the notice above its own fields', async () => {
		const res = await fetchOnOpenConnection(`${n8n.url}/types/nodes.json`, { headers: { cookie: n8n.cookie, 'browser-id': n8n.browserId } });
		const served = ((await res.json()) as Array<{ name: string; properties: Array<{ type: string; displayName: string }> }>).filter((t) => PACKAGE_TYPES.includes(t.name));
		// n8n puts its own Poll Times above a polling trigger's fields
		const ownFields = (t: (typeof served)[number]) => t.properties.filter((property) => (property as { name?: string }).name !== 'pollTimes');
		expect(served.map((t) => ({ name: t.name, first: ownFields(t)[0] }))).toEqual(
			PACKAGE_TYPES.map((name) => ({ name, first: expect.objectContaining({ type: 'notice', displayName: NOTICE }) })),
		);
		expect(n8n.logs()).not.toContain('Class could not be found');
	});

	test('a run fails with "This node needs n8n 1.85 or newer" on the node, and nothing reaches the service', async () => {
		const node = { ...actionNodeUsing(NODE_TYPES.action, credential(CREDENTIAL_TYPES.timeline)), name: 'Set Anchor' };
		const webhookPath = randomUUID();
		const id = await n8n.importWorkflow({
			name: 'Below the floor',
			nodes: [
				{ id: randomUUID(), name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], webhookId: webhookPath, parameters: { httpMethod: 'POST', path: webhookPath, options: {} } },
				{ ...node, position: [240, 0] },
			],
			connections: { Webhook: { main: [[{ node: 'Set Anchor', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		});
		await n8n.activate(id);
		const called = await onceRegistered(() => fetchOnOpenConnection(`${n8n.webhookBaseUrl}/${webhookPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));
		await called.text();
		const execution = await waitFor('the execution to end', async () => (await n8n.executions(id)).find((e) => e.stoppedAt), { timeoutMs: 30_000 });
		const error = execution.data.resultData.error;
		log(`[below-floor] the run's error: ${error.message} / ${error.description}`);
		expect({ message: error.message, description: error.description, node: error.node?.name }).toEqual({
			message: REFUSAL,
			description: `This n8n is older than ${N8N_FLOOR} and lacks what the node is built on. Update n8n. Nothing was sent.`,
			node: 'Set Anchor',
		});
		expect(await sandbox.requests({ pathPrefix: '/v1/' })).toEqual([]);

		// the editor: the node's panel opens on the notice (screenshot)
		const browser = await openBrowser();
		try {
			await signIn(browser.page, n8n);
			await browser.page.goto(`${n8n.url}/workflow/${id}`);
			await browser.page.locator('[data-test-id=canvas-node]').filter({ hasText: 'Set Anchor' }).first().dblclick();
			await browser.page.getByText(NOTICE, { exact: true }).waitFor();
			await browser.shot(`below-floor-notice-${runtime.id}.png`);
		} finally {
			await browser.close();
		}
		await n8n.deactivate(id);
	});

	test('publishing a workflow with the trigger is refused in the same words', async () => {
		const id = await n8n.importWorkflow({
			name: 'Below the floor: trigger',
			nodes: [{ id: randomUUID(), name: 'On Message', type: NODE_TYPES.trigger, typeVersion: 1.1, position: [0, 0], webhookId: randomUUID(), parameters: { events: ['message.inbound'] } }],
			connections: {},
			settings: { executionOrder: 'v1' },
		});
		const res = await n8n.api('POST', `/workflows/${id}/activate`, undefined, { allowError: true });
		log(`[below-floor] publishing the trigger: HTTP ${res.status} ${JSON.stringify(res.body)}`);
		expect(res.status).toBeGreaterThanOrEqual(400);
		expect(String(res.body?.message)).toContain(REFUSAL);
	});
});
