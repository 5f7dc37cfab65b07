// The three built packages as n8n loads an installed community package: each folder the build
// assembles in dist-packages/ (what is packed and published) through n8n's own
// PackageDirectoryLoader, which reads the `n8n` attribute of package.json, the codex files and
// the icon paths. The tests of dist/ (the in-process suites run the source): they need
// `npm run build`, which `npm test` runs first.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PackageDirectoryLoader } from 'n8n-core';
import { NodeHelpers, type IAuthenticateGeneric, type ICredentialType, type INodeTypeDescription } from 'n8n-workflow';
import { CHAT_APP_MESSAGING, COMBINED, PACKAGES, TIMELINE_NAVIGATION, packageDir, type PackageDefinition } from '../../tools/packages/packages';
import { PROJECT_ROOT } from '../support/harness';

const loaders = new Map<string, PackageDirectoryLoader>();

beforeAll(async () => {
	for (const definition of PACKAGES) {
		const dir = packageDir(definition);
		if (!existsSync(join(dir, 'package.json'))) throw new Error(`${relative(PROJECT_ROOT, dir)} is missing: run \`npm run build\` first.`);
		const loader = new PackageDirectoryLoader(dir);
		await loader.loadAll();
		loaders.set(definition.name, loader);
	}
});

interface IconHolder {
	iconUrl?: string | { light: string; dark: string };
}

/** Every file under `dir`, relative to it. */
function filesIn(dir: string, base = dir): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? filesIn(join(dir, entry.name), base) : [relative(base, join(dir, entry.name))],
	);
}

/** The icon files the loader points at: it rewrites `file:` icons to `icons/<package>/<path>`. */
function expectIconsBuilt(definition: PackageDefinition, holder: IconHolder): void {
	const urls = typeof holder.iconUrl === 'string' ? [holder.iconUrl] : Object.values(holder.iconUrl ?? {});
	const files = urls.map((url) => url.replace(/^icons\/[^/]+\//, ''));
	expect(files.length).toBeGreaterThan(0);
	expect(files.filter((file) => !existsSync(join(packageDir(definition), file)))).toEqual([]);
}

const descriptionOf = (definition: PackageDefinition, node: string): INodeTypeDescription =>
	NodeHelpers.getVersionedNodeType(loaders.get(definition.name)!.nodeTypes[node].type).description;

/** What each package holds, as a user sees it in n8n: node types and credential types. */
const EXPECTED = [
	[COMBINED, ['chatAppMessagingTrigger', 'timelineNavigation', 'timelineNavigationEventsTrigger'], ['chatAppMessagingApi', 'chatAppWebhookBasicAuthApi', 'chatAppWebhookHeaderAuthApi', 'timelineNavigationApi']],
	[CHAT_APP_MESSAGING, ['chatAppMessaging', 'chatAppTrigger'], ['chatAppMessagingApi', 'chatAppWebhookBasicAuthApi', 'chatAppWebhookHeaderAuthApi']],
	[TIMELINE_NAVIGATION, ['timelineEventsTrigger', 'timelineNavigationService'], ['timelineNavigationApi']],
] as const;

describe.each(EXPECTED)('the built package %#, loaded the way n8n loads a community package', (definition, nodes, credentials) => {
	it(`${definition.name} loads its nodes under its name, with codex and icons`, () => {
		const loader = loaders.get(definition.name)!;
		expect(loader.packageName).toBe(definition.name);
		expect(Object.keys(loader.nodeTypes).sort()).toEqual([...nodes]);
		for (const node of nodes) {
			const description = descriptionOf(definition, node);
			expect(description.codex?.categories?.length).toBeGreaterThan(0);
			expectIconsBuilt(definition, description as unknown as IconHolder);
		}
	});

	// The action nodes' descriptions are built by one class (nodes/shared/actionNode/actionNode.ts), where
	// the scanner's description rules (which read a literal `description` in a node's class) cannot
	// see them: what those rules ask is checked here, on the description n8n loads.
	it(`${definition.name}'s nodes have what n8n's scanner asks of a description: distinct light and dark icons, a subtitle, AI-tool use for actions only`, () => {
		for (const node of nodes) {
			// A new instance: the loader replaces `icon` with the URL it serves.
			const loaded = loaders.get(definition.name)!.nodeTypes[node].type;
			const description = (new (loaded.constructor as new () => { description: INodeTypeDescription })()).description;
			const trigger = description.group.includes('trigger');
			const icon = description.icon as { light: string; dark: string };
			expect({ node, light: /^file:\w+\.svg$/.test(icon.light), dark: /^file:\w+\.dark\.svg$/.test(icon.dark) }).toEqual({ node, light: true, dark: true });
			const iconFile = (file: string) => readFileSync(join(packageDir(definition), 'dist', 'nodes', node[0].toUpperCase() + node.slice(1), file.slice('file:'.length)), 'utf8');
			expect(iconFile(icon.light)).not.toBe(iconFile(icon.dark));
			expect(description.subtitle).toEqual(expect.any(String));
			expect({ node, usableAsTool: description.usableAsTool === true }).toEqual({ node, usableAsTool: !trigger });
			expect({ node, inputs: description.inputs }).toEqual({ node, inputs: trigger ? [] : ['main'] });
			expect(description.outputs).toEqual(['main']);
		}
	});

	it(`${definition.name} loads its credentials, each with an icon; the service keys go as a bearer header`, async () => {
		const loader = loaders.get(definition.name)!;
		expect(Object.keys(loader.credentialTypes).sort()).toEqual([...credentials]);
		for (const { type } of Object.values(loader.credentialTypes)) expectIconsBuilt(definition, type as unknown as IconHolder);
		for (const name of credentials.filter((credential) => !credential.startsWith('chatAppWebhook'))) {
			const type: ICredentialType = loader.credentialTypes[name].type;
			expect(type.test).toBeDefined();
			const secret = type.properties.find((property) => property.typeOptions?.password);
			expect(secret).toBeDefined();
			// A function (no expression for n8n to evaluate per request) that keeps the request's own headers.
			expect(typeof type.authenticate).toBe('function');
			const authenticate = type.authenticate as Exclude<ICredentialType['authenticate'], IAuthenticateGeneric | undefined>;
			const request = { url: 'https://api.example/v1/x', headers: { Accept: 'application/json' } };
			await expect(authenticate({ baseUrl: 'https://api.example', [secret!.name]: 'key-123' }, request)).resolves.toEqual({
				...request,
				headers: { Accept: 'application/json', Authorization: 'Bearer key-123' },
			});
		}
	});

	it(`${definition.name} exports its classes from dist/index.js for programmatic use`, async () => {
		const exported = await import(join(packageDir(definition), 'dist', 'index.js'));
		const classes = [...definition.n8n.nodes, ...definition.n8n.credentials].map((file) => file.split('/').pop()!.split('.')[0]);
		expect(Object.keys(exported).filter((key) => key !== 'default').sort()).toEqual(classes.sort());
	});

	it(`${definition.name} has no runtime dependencies, n8n-workflow as its only peer, MIT, and the community-package keyword`, () => {
		const packageJson = JSON.parse(readFileSync(join(packageDir(definition), 'package.json'), 'utf8'));
		expect(packageJson.dependencies ?? {}).toEqual({});
		expect(packageJson.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		expect(packageJson.license).toBe('MIT');
		expect(packageJson.keywords).toContain('n8n-community-node-package');
		expect(packageJson.files).toEqual(['dist']);
		expect(packageJson.scripts).toBeUndefined();
		expect(packageJson.version).toBe(JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')).version);
	});
});

it("index.js, the checkout's entry point, exports the combined package's classes from dist/", async () => {
	const exported = await import(join(PROJECT_ROOT, 'index.js'));
	const published = await import(join(packageDir(COMBINED), 'dist', 'index.js'));
	const classes = (module: object) => Object.keys(module).filter((key) => key !== 'default').sort();
	expect(classes(exported)).toEqual(classes(published));
	expect(new exported.TimelineNavigation().description.name).toBe('timelineNavigation');
});

// n8n's node panel lists under Human review → Send and wait for response every node whose codex
// has the category "HITL" and the subcategory "Human in the Loop" (the editor's viewsData and
// subcategorizeItems), and opens it on its `sendAndWait` operation; its own Send and Wait nodes
// (Slack, Telegram, Gmail, ...) also carry the aliases below. subcategorizeItems files a node
// under the subcategories its HITL entry names instead of "*" (Action in an app), which Slack and
// Telegram leave that way; naming "*" too keeps the node there.
it.each([
	[COMBINED, ['timelineNavigation']],
	[CHAT_APP_MESSAGING, ['chatAppMessaging']],
	[TIMELINE_NAVIGATION, []],
] as const)('%#: every node offering Send and Wait is filed under Human review, found by "send and wait", "approval" and "human"', (definition, expected) => {
	const descriptions = Object.values(loaders.get(definition.name)!.nodeTypes).map(({ type }) => NodeHelpers.getVersionedNodeType(type).description);
	const offersSendAndWait = (description: INodeTypeDescription) =>
		description.properties.some(
			(property) => property.name === 'operation' && (property.options ?? []).some((option) => 'value' in option && option.value === 'sendAndWait'),
		);
	const humanReview = descriptions.filter(offersSendAndWait);
	expect(humanReview.map((description) => description.name)).toEqual([...expected]);
	for (const { codex } of humanReview) {
		expect(codex?.categories).toContain('HITL');
		expect(codex?.subcategories?.HITL).toEqual(['Human in the Loop', '*']);
		expect(codex?.alias).toEqual(expect.arrayContaining(['send and wait', 'approval', 'human', 'hitl', 'chat', 'sms']));
	}
	// The panel would open any other node on a Send and Wait action it does not have.
	for (const { codex } of descriptions.filter((description) => !offersSendAndWait(description))) {
		expect(codex?.categories).not.toContain('HITL');
	}
});

describe('each edition holds one service', () => {
	const holds = (definition: PackageDefinition, part: string) => filesIn(packageDir(definition)).some((file) => file.includes(part));

	it('the Chat-App Messaging package holds no timeline operation, credential or picker', () => {
		for (const part of ['nodes/shared/timelineNavigation/', 'TimelineNavigationApi']) {
			expect({ part, held: holds(CHAT_APP_MESSAGING, part) }).toEqual({ part, held: false });
		}
		expect(descriptionOf(CHAT_APP_MESSAGING, 'chatAppMessaging').credentials?.map((credential) => credential.name)).toEqual(['chatAppMessagingApi']);
	});

	it('the Timeline Navigation package holds no message operation, Send and Wait, messaging trigger or messaging credential', () => {
		for (const part of ['nodes/shared/chatAppMessaging/', 'ChatAppMessagingTrigger', 'ChatAppMessagingApi', 'ChatAppWebhook']) {
			expect({ part, held: holds(TIMELINE_NAVIGATION, part) }).toEqual({ part, held: false });
		}
		const description = descriptionOf(TIMELINE_NAVIGATION, 'timelineNavigationService');
		expect(description.credentials?.map((credential) => credential.name)).toEqual(['timelineNavigationApi']);
		expect(description.webhooks ?? []).toEqual([]);
	});

	it.each([
		[COMBINED, ['ChatAppMessagingTrigger', 'TimelineNavigation', 'TimelineNavigationEventsTrigger', 'shared', 'shared/actionNode', 'shared/chatAppMessaging', 'shared/fields', 'shared/timelineNavigation']],
		[CHAT_APP_MESSAGING, ['ChatAppMessaging', 'ChatAppMessagingTrigger', 'ChatAppTrigger', 'shared', 'shared/actionNode', 'shared/chatAppMessaging', 'shared/fields']],
		[TIMELINE_NAVIGATION, ['TimelineEventsTrigger', 'TimelineNavigationEventsTrigger', 'TimelineNavigationService', 'shared', 'shared/actionNode', 'shared/fields', 'shared/timelineNavigation']],
	])('%# ships these folders of nodes/ (one per node, and the shared code of its services)', (definition, folders) => {
		const nodesDir = join(packageDir(definition), 'dist', 'nodes');
		const folder = (path: string) => readdirSync(join(nodesDir, path), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
		const shipped = [...folder('.'), ...folder('shared').map((name) => `shared/${name}`)].sort();
		expect(shipped).toEqual(folders);
	});

	it('offers each service’s resources in its edition, and every resource in the combined package', () => {
		const resources = (definition: PackageDefinition, node: string) =>
			(descriptionOf(definition, node).properties.find((property) => property.name === 'resource')?.options ?? []).map((option) => (option as { value: string }).value);
		expect(resources(CHAT_APP_MESSAGING, 'chatAppMessaging')).toEqual(['message']);
		expect(resources(TIMELINE_NAVIGATION, 'timelineNavigationService')).toEqual(['anchor', 'event', 'item', 'time', 'timeline']);
		expect(resources(COMBINED, 'timelineNavigation')).toEqual(['anchor', 'event', 'item', 'message', 'time', 'timeline']);
	});
});

it('no two packages have a node of the same display name (n8n refuses to install the second: its table of installed nodes is keyed by display name)', () => {
	const displayNames = PACKAGES.flatMap((definition) =>
		Object.keys(loaders.get(definition.name)!.nodeTypes).map((node) => descriptionOf(definition, node).displayName),
	);
	expect(displayNames.sort()).toEqual(
		['Chat-App Inbox Trigger', 'Chat-App Messaging', 'Chat-App Messaging Inbox Trigger', 'Timeline Navigation', 'Timeline Navigation & Chat-App Messaging', 'Timeline Navigation Events Trigger', 'Timeline Events Trigger'].sort(),
	);
	expect(new Set(displayNames).size).toBe(displayNames.length);
});

it('in the node panel, whatever is installed, a trigger is not listed like a node that sends, and says that it starts the workflow', () => {
	const nodes = PACKAGES.flatMap((definition) =>
		Object.keys(loaders.get(definition.name)!.nodeTypes).map((node) => ({ ...descriptionOf(definition, node), type: `${definition.name}.${node}` })),
	);
	const isTrigger = (node: (typeof nodes)[number]) => node.group.includes('trigger');
	const actions = nodes.filter((node) => !isTrigger(node));
	// n8n's panel (useActionsGeneration.ts) shows a trigger named like an action node of its package
	// plus "Trigger" inside that node's entry, with the trigger's description; any other trigger with
	// more than one event on its own, without the word "Trigger" (NodeItem.vue).
	const mergedInto = (trigger: (typeof nodes)[number]) => actions.find((action) => action.type === trigger.type.replace('Trigger', ''));
	const merged = nodes.filter((node) => isTrigger(node) && mergedInto(node));
	const listed = nodes.filter((node) => isTrigger(node) && !mergedInto(node));
	const shown = (trigger: (typeof nodes)[number]) => trigger.displayName.replace('Trigger', '').trim();
	// None is merged: a merged trigger's description would stand on the sender's entry.
	expect(merged.map((trigger) => [trigger.type, mergedInto(trigger)!.type])).toEqual([]);
	expect(listed.map(shown).sort()).toEqual(['Chat-App Inbox', 'Chat-App Messaging Inbox', 'Timeline Events', 'Timeline Navigation Events']);
	const entryNames = [...actions.map((action) => action.displayName), ...listed.map(shown)];
	expect(new Set(entryNames).size).toBe(entryNames.length);
	for (const trigger of [...listed, ...merged]) expect(trigger.description).toMatch(/^Starts the workflow /);
	// every node that sends chat-app messages says so first
	for (const action of actions.filter((node) => node.displayName.includes('Chat-App'))) expect(action.description).toMatch(/^Send Chat-App messages/);
});

