/**
 * "Custom API Call", as users meet it. n8n adds a "Custom API Call" choice to the Resource and
 * Operation lists of a node whose credential authenticates requests itself, and names the node
 * after the chosen operation's action, which that choice lacks: a newcomer who picked it got a
 * node called "__CUSTOM_API_CALL__ timeline". The node offers only its own operations (n8n adds
 * the choice to a description whose `defaultVersion` is missing or equals its `version`, so a
 * description that lists its versions keeps it away), so every choice names the node by its
 * action; a call the node does not cover goes through n8n's HTTP Request node with the
 * package's credential, which this file also runs.
 *
 * What is checked is what n8n serves (`/types/nodes.json`) and what the editor shows (the
 * dropdowns and the node's title in Chromium), at every version the served description
 * declares, against the node's registry and n8n's own name for the choice.
 */
import { randomUUID } from 'node:crypto';

import { RESOURCES } from '../../nodes/shared/registry';
import { fetchOnOpenConnection } from '../../tools/n8n/client';
import { NODE_TYPES } from '../../tools/n8n/communityPackage';
import { waitFor } from '../../tools/shared/wait';
import { creatorItem, newWorkflowWithManualTrigger, openBrowser, searchCreator, signIn, type Editor } from './browserSupport';
import { cliNodeOutput, env, n8n, sandbox } from './support';

/** The choice as n8n adds it (n8n's constants, not the package's). */
const CUSTOM_API_CALL = { name: 'Custom API Call', value: '__CUSTOM_API_CALL__' };
const ACTION_NODE = 'Timeline Navigation & Chat-App Messaging';
const PACKAGE = NODE_TYPES.action.split('.')[0];
/** A loaded machine takes tens of seconds per page in Chromium; the lists take two dozen dropdowns. */
const BROWSER_TIMEOUT_MS = 600_000;

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
	defaultVersion?: number;
	properties: Property[];
}

/**
 * The node types as the editor loads them, after n8n has added its own choices. n8n rewrites the
 * file in place whenever it reloads types (after start, after credentials change), and a read
 * during a rewrite is cut off; so it is read until it arrives whole.
 */
async function editorNodeTypes(): Promise<NodeTypeJson[]> {
	let problem = '';
	return await waitFor(
		() => `GET /types/nodes.json to arrive whole (last: ${problem})`,
		async () => {
			try {
				const res = await fetchOnOpenConnection(`${n8n.url}/types/nodes.json`, { headers: { cookie: n8n.cookie } });
				if (!res.ok) throw new Error(`HTTP ${res.status}`);
				return JSON.parse(await res.text()) as NodeTypeJson[];
			} catch (error) {
				problem = `${(error as Error).message}${(error as Error).cause ? ` (${String((error as Error).cause)})` : ''}`;
				return false;
			}
		},
		{ timeoutMs: 120_000, intervalMs: 1000 },
	);
}

const versionsOf = (type: NodeTypeJson): number[] => (Array.isArray(type.version) ? type.version : [type.version]);

const isCustomApiCall = (option: Option) => option.name === CUSTOM_API_CALL.name || option.value === CUSTOM_API_CALL.value;

const offersCustomApiCall = (type: NodeTypeJson) =>
	type.properties.some((p) => ['resource', 'operation'].includes(p.name) && p.options?.some(isCustomApiCall));

/** The Resource list and each resource's Operation list of a served description, as `resource: operations`. */
function servedChoices(description: NodeTypeJson): Record<string, Option[]> {
	const resource = description.properties.find((p) => p.name === 'resource');
	const lists: Record<string, Option[]> = { '(resource)': resource?.options ?? [] };
	for (const { value } of resource?.options ?? []) {
		const operation = description.properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(value));
		lists[value] = operation?.options ?? [];
	}
	return lists;
}

/** What the node declares: its registry's resources, and each one's operations with their actions. */
function declaredChoices(): Record<string, Array<Pick<Option, 'value'> & Partial<Option>>> {
	const lists: Record<string, Array<Pick<Option, 'value'> & Partial<Option>>> = { '(resource)': RESOURCES.map(({ value }) => ({ value })) };
	for (const r of RESOURCES) lists[r.value] = r.operations.map(({ value, action }) => ({ value, action }));
	return lists;
}

let types: NodeTypeJson[];
let action: NodeTypeJson;

beforeAll(async () => {
	types = await editorNodeTypes();
	const served = types.filter((t) => t.name === NODE_TYPES.action);
	if (served.length !== 1) throw new Error(`n8n serves ${served.length} descriptions of ${NODE_TYPES.action}, expected one listing its versions`);
	action = served[0];
}, 180_000);

describe(`on n8n ${env.versions.n8n}, what n8n serves offers no "Custom API Call" for the node`, () => {
	test("n8n adds the choice to nodes of its own here, by its rule on versions, so its absence below is the package's doing", () => {
		const withChoice = types.filter(offersCustomApiCall);
		expect(withChoice.length).toBeGreaterThan(10);
		const outsideTheRule = withChoice.filter((t) => t.defaultVersion !== undefined && t.defaultVersion !== t.version);
		expect(outsideTheRule.map((t) => `${t.name} version ${JSON.stringify(t.version)} default ${t.defaultVersion}`)).toEqual([]);
	});

	test("every description of the package's nodes, the action node's AI tool too, lists only the node's own choices, each operation with its action", () => {
		const packaged = types.filter((t) => t.name.startsWith(`${PACKAGE}.`));
		expect(packaged.map((t) => t.name).sort()).toEqual(
			expect.arrayContaining([NODE_TYPES.action, `${NODE_TYPES.action}Tool`, NODE_TYPES.trigger]),
		);
		for (const description of packaged) {
			const label = `${description.name} (version ${JSON.stringify(description.version)}, default ${description.defaultVersion})`;
			const custom = description.properties.flatMap((p) => (p.options ?? []).filter(isCustomApiCall).map((o) => `${p.name}: ${o.name}`));
			expect({ [label]: custom }).toEqual({ [label]: [] });
			// the trigger has no lists; the human-review tool n8n derives (2.x) fixes them to Send and Wait
			if (!description.properties.some((p) => p.name === 'resource' && p.options)) continue;
			const served = Object.fromEntries(
				Object.entries(servedChoices(description)).map(([list, options]) => [
					list,
					options.map((o) => (list === '(resource)' ? { value: o.value } : { value: o.value, action: o.action })),
				]),
			);
			expect({ [label]: served }).toEqual({ [label]: declaredChoices() });
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
		// n8n serves the editor as some 450 files and draws the canvas after they load: on a loaded
		// machine a page takes well over the 30 s the shared helpers wait by default
		editor.page.setDefaultNavigationTimeout(120_000);
		editor.page.setDefaultTimeout(90_000);
		await signIn(editor.page);
	}, BROWSER_TIMEOUT_MS);

	afterAll(async () => {
		await editor?.close();
	});

	const openItems = () => editor.page.locator('.el-select-dropdown__item:visible');

	/** Waits until no dropdown is open, so the next one read is the only one on the page. */
	async function closed(): Promise<void> {
		await waitFor('the open dropdown to close', async () => (await openItems().count()) === 0, { timeoutMs: 10_000 });
	}

	/** The choices the list of parameter `name` offers, read from its open dropdown, which is then closed. */
	async function choices(name: string): Promise<string[]> {
		const { page } = editor;
		await closed();
		await page.locator(`[data-test-id=ndv] [data-test-id=parameter-input-${name}]`).click();
		await openItems().first().waitFor();
		const offered = (await openItems().allInnerTexts()).map((t) => t.split('\n')[0].trim());
		await page.keyboard.press('Escape');
		await closed();
		return offered;
	}

	async function choose(name: string, option: string): Promise<void> {
		const { page } = editor;
		await closed();
		await page.locator(`[data-test-id=ndv] [data-test-id=parameter-input-${name}]`).click();
		await openItems().getByText(option, { exact: true }).first().click();
		await closed();
	}

	/** The node's name as the panel's title shows it, once it is `expected` (or whatever it shows after a while). */
	async function shownTitle(expected: string): Promise<string> {
		const title = editor.page.locator('[data-test-id=ndv] [data-test-id=node-title-container]').first();
		let shown = '';
		const read = async () => (shown = (await title.innerText()).trim()) === expected;
		await waitFor(`the title "${expected}"`, read, { timeoutMs: 10_000 }).catch(() => undefined);
		return shown;
	}

	/** Every list as the open panel offers it: `(resource)` and, choosing each resource in turn, its operations. */
	async function shownLists(): Promise<Record<string, string[]>> {
		const lists: Record<string, string[]> = { '(resource)': await choices('resource') };
		for (const resource of lists['(resource)'].filter((name) => name !== CUSTOM_API_CALL.name)) {
			await choose('resource', resource);
			lists[resource] = await choices('operation');
		}
		return lists;
	}

	/** What the node declares, as the lists name it. */
	const declaredLists = () => ({
		'(resource)': RESOURCES.map((r) => r.name),
		...Object.fromEntries(RESOURCES.map((r) => [r.name, r.operations.map((o) => o.name)])),
	});

	async function step(failureShot: string, work: () => Promise<void>): Promise<void> {
		try {
			await work();
		} catch (error) {
			await editor.shot(failureShot).catch(() => undefined);
			throw error;
		}
	}

	test('added from the node creator, the lists offer only the node\'s choices, and choosing an operation names the node by its action', async () => {
		const { page } = editor;
		await step('custom-api-call-failure.png', async () => {
			await newWorkflowWithManualTrigger(page);
			await searchCreator(page, 'timeline', ACTION_NODE);
			await creatorItem(page, ACTION_NODE).click();
			await page.getByText('Send a text message', { exact: true }).first().click();
			await page.locator('[data-test-id=ndv]').waitFor();

			expect(await shownLists()).toEqual(declaredLists());
			// n8n renames a node that still has its generated name after the chosen operation's action
			const titles: Record<string, string> = {};
			for (const resource of RESOURCES) {
				const last = resource.operations[resource.operations.length - 1];
				await choose('resource', resource.name);
				await choose('operation', last.name);
				titles[`${resource.name} → ${last.name}`] = await shownTitle(last.action);
			}
			await editor.shot('custom-api-call-operations.png');
			expect(titles).toEqual(Object.fromEntries(RESOURCES.map((r) => [`${r.name} → ${r.operations.at(-1)!.name}`, r.operations.at(-1)!.action])));
		});
	}, BROWSER_TIMEOUT_MS);

	test('in a saved workflow, at every version the node declares, the lists offer only the node\'s choices', async () => {
		const { page } = editor;
		const versions = versionsOf(action);
		const nodeName = (version: number) => `Version ${version} node`;
		const shown: Record<string, Record<string, string[]>> = {};
		await step('custom-api-call-failure-versions.png', async () => {
			const id = await n8n.importWorkflow({
				name: `Custom API Call at versions ${versions.join(', ')} (${randomUUID()})`,
				nodes: versions.map((version, i) => ({
					id: randomUUID(),
					name: nodeName(version),
					type: NODE_TYPES.action,
					typeVersion: version,
					position: [300 * i, 0],
					parameters: { resource: 'message', operation: 'sendText' },
				})),
				connections: {},
				settings: { executionOrder: 'v1' },
			});
			await page.goto(`${n8n.url}/workflow/${id}`);
			for (const version of versions) {
				await page.locator(`[data-test-id=canvas-node][data-node-name="${nodeName(version)}"]`).dblclick();
				await page.locator('[data-test-id=ndv]').waitFor();
				expect(await shownTitle(nodeName(version))).toBe(nodeName(version));
				shown[`version ${version}`] = await shownLists();
				await page.locator('[data-test-id=ndv-close-button], [data-test-id=back-to-canvas]').first().click();
				await page.locator('[data-test-id=ndv]').waitFor({ state: 'hidden' });
			}
		});
		expect(shown).toEqual(Object.fromEntries(versions.map((version) => [`version ${version}`, declaredLists()])));
	}, BROWSER_TIMEOUT_MS);
});
