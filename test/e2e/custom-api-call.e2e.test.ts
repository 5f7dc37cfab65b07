/**
 * "Custom API Call", as users meet it. n8n adds a "Custom API Call" choice to the Resource and
 * Operation lists of a node whose credential authenticates requests itself, and names the node
 * after the chosen operation's action, which that choice lacks: a newcomer who picked it got a
 * node called "__CUSTOM_API_CALL__ timeline". The node offers only its own operations (n8n adds
 * the choice to a node description whose version is a single number, and this node's lists its
 * versions), so every choice names the node by its action; a call the node does not cover goes
 * through n8n's HTTP Request node with the package's credential, which this file also runs.
 */
import { randomUUID } from 'node:crypto';

import { RESOURCES } from '../../nodes/TimelineNavigation/actions/registry';
import { NODE_TYPES } from '../../tools/n8n/instance';
import { creatorItem, newWorkflowWithManualTrigger, openBrowser, searchCreator, signIn, type Editor } from './browserSupport';
import { cliNodeOutput, env, n8n, sandbox } from './support';

const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';
const ACTION_NODE = 'Timeline Navigation & Chat-App Messaging';
const PACKAGE = NODE_TYPES.action.split('.')[0];

interface Option {
	name: string;
	value: string;
	action?: string;
}
interface Property {
	name: string;
	options?: Option[];
	displayOptions?: { show?: Record<string, unknown[]> };
}
interface NodeTypeJson {
	name: string;
	version: number | number[];
	properties: Property[];
}

/** The node types as the editor loads them, after n8n has added its own choices. */
async function editorNodeTypes(): Promise<NodeTypeJson[]> {
	const res = await fetch(`${n8n.url}/types/nodes.json`, { headers: { cookie: n8n.cookie } });
	if (!res.ok) throw new Error(`GET /types/nodes.json answered ${res.status}`);
	return (await res.json()) as NodeTypeJson[];
}

const offersCustomApiCall = (type: NodeTypeJson) =>
	type.properties.some((p) => ['resource', 'operation'].includes(p.name) && p.options?.some((o) => o.value === CUSTOM_API_CALL));

describe(`on n8n ${env.versions.n8n}, the node offers no "Custom API Call"`, () => {
	let types: NodeTypeJson[];

	beforeAll(async () => {
		types = await editorNodeTypes();
	});

	test('n8n adds the choice to nodes of its own here, so its absence below is the package\'s doing', () => {
		const withChoice = types.filter(offersCustomApiCall).map((t) => t.name);
		expect(withChoice.length).toBeGreaterThan(10);
		// the action node and the AI tool n8n derives from it
		expect(withChoice.filter((name) => name.startsWith(`${PACKAGE}.`))).toEqual([]);
	});

	test('the Resource and Operation lists hold the registry\'s choices, each operation with its action', () => {
		const descriptions = types.filter((t) => t.name === NODE_TYPES.action);
		expect(descriptions.length).toBeGreaterThan(0);
		for (const description of descriptions) {
			const resource = description.properties.find((p) => p.name === 'resource');
			expect(resource?.options?.map((o) => o.value)).toEqual(RESOURCES.map((r) => r.value));
			for (const r of RESOURCES) {
				const operation = description.properties.find(
					(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(r.value),
				);
				expect(operation?.options?.map(({ value, action }) => ({ value, action }))).toEqual(
					r.operations.map(({ value, action }) => ({ value, action })),
				);
			}
		}
	});
});

describe(`on n8n ${env.versions.n8n}, a call the node does not cover goes through the HTTP Request node`, () => {
	test('with "Predefined Credential Type" set to either of the package\'s credentials, it sends that bearer key', async () => {
		await sandbox.reset();
		const { timeline, messaging } = env.credentials;
		// The sandbox answers 401 to a missing or wrong key: 200, and 404 for a message id that cannot exist, mean the key went.
		const calls = [
			{ name: 'Raw Timeline Call', credential: timeline, path: '/v1/timelines', status: 200 },
			{ name: 'Raw Messaging Call', credential: messaging, path: '/v1/messages/raw-call-e2e', status: 404 },
		];
		const trigger = { id: randomUUID(), name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
		const requests = calls.map((call, i) => ({
			id: randomUUID(),
			name: call.name,
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			position: [220 * (i + 1), 0],
			parameters: {
				url: `${env.sandbox.url}${call.path}`,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: call.credential.type,
				options: { response: { response: { neverError: true } } },
			},
			credentials: { [call.credential.type]: { id: call.credential.id, name: call.credential.name } },
		}));
		const names = [trigger.name, ...calls.map((c) => c.name)];
		const id = await n8n.importWorkflow({
			name: 'HTTP Request with the package credentials',
			nodes: [trigger, ...requests],
			connections: Object.fromEntries(names.slice(0, -1).map((from, i) => [from, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }])),
			settings: { executionOrder: 'v1' },
		});
		const run = await n8n.executeWorkflow(id);
		if (run.code !== 0 || !run.data) throw new Error(`n8n execute exited ${run.code}:\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-2000)}`);

		const seen = (await sandbox.requests()).filter((r) => r.path.startsWith('/v1/'));
		expect(seen.map((r) => `${r.method} ${r.path} ${r.responseStatus}`)).toEqual(calls.map((c) => `GET ${c.path} ${c.status}`));
		for (const call of calls) expect(cliNodeOutput(run.data, call.name).length).toBeGreaterThan(0);
	});
});

describe(`on n8n ${env.versions.n8n}, in the editor (headless Chromium)`, () => {
	let editor: Editor;

	beforeAll(async () => {
		editor = await openBrowser();
		await signIn(editor.page);
	});

	afterAll(async () => {
		await editor?.close();
	});

	/** The choices the list of parameter `name` offers, read from its open dropdown. */
	async function choices(name: string): Promise<string[]> {
		const { page } = editor;
		await page.locator(`[data-test-id=ndv] [data-test-id=parameter-input-${name}]`).click();
		const items = page.locator('.el-select-dropdown__item:visible');
		await items.first().waitFor();
		return (await items.allInnerTexts()).map((t) => t.split('\n')[0].trim());
	}

	async function choose(name: string, option: string): Promise<void> {
		const { page } = editor;
		await page.locator(`[data-test-id=ndv] [data-test-id=parameter-input-${name}]`).click();
		await page.locator('.el-select-dropdown__item:visible').getByText(option, { exact: true }).first().click();
	}

	test('each resource lists only its operations, and choosing one names the node by its action', async () => {
		const { page } = editor;
		try {
			await newWorkflowWithManualTrigger(page);
			await searchCreator(page, 'timeline', ACTION_NODE);
			await creatorItem(page, ACTION_NODE).click();
			await page.getByText('Send a text message', { exact: true }).first().click();
			await page.locator('[data-test-id=ndv]').waitFor();

			expect(await choices('resource')).toEqual(RESOURCES.map((r) => r.name));
			await page.keyboard.press('Escape');
			const names: string[] = [];
			for (const resource of RESOURCES) {
				await choose('resource', resource.name);
				expect(await choices('operation')).toEqual(resource.operations.map((o) => o.name));
				await page.keyboard.press('Escape');
				const last = resource.operations[resource.operations.length - 1];
				await choose('operation', last.name);
				// n8n renames a node that still has its generated name; the panel's title shows it
				await page.locator('[data-test-id=ndv]').getByText(last.action, { exact: true }).first().waitFor({ state: 'attached' });
				names.push(last.action);
			}
			await editor.shot('custom-api-call-operations.png');
			expect(names.join(' | ')).not.toContain(CUSTOM_API_CALL);
		} catch (error) {
			await editor.shot('custom-api-call-failure.png').catch(() => undefined);
			throw error;
		}
	});
});
