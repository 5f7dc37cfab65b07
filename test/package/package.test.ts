// The built package as n8n loads an installed community package: through n8n's own
// PackageDirectoryLoader, which reads the `n8n` attribute of package.json, the codex files and
// the icon paths. The one test of dist/ (the in-process suites run the source): it needs
// `npm run build`, which `npm test` runs first.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PackageDirectoryLoader } from 'n8n-core';
import { NodeHelpers, type IAuthenticateGeneric, type ICredentialType } from 'n8n-workflow';
import { PROJECT_ROOT, readPackageJson } from '../support/harness';

const listed = readPackageJson().n8n;
let loader: PackageDirectoryLoader;

beforeAll(async () => {
	const unbuilt = [...listed.nodes, ...listed.credentials].filter((path) => !existsSync(join(PROJECT_ROOT, path)));
	if (unbuilt.length > 0) throw new Error(`${unbuilt.join(', ')} listed in package.json but missing: run \`npm run build\` first.`);
	loader = new PackageDirectoryLoader(PROJECT_ROOT);
	await loader.loadAll();
});

interface IconHolder {
	iconUrl?: string | { light: string; dark: string };
}

/** The icon files the loader points at: it rewrites `file:` icons to `icons/<package>/<path>`. */
function iconFiles(holder: IconHolder): string[] {
	const urls = typeof holder.iconUrl === 'string' ? [holder.iconUrl] : Object.values(holder.iconUrl ?? {});
	return urls.map((url) => url.replace(/^icons\/[^/]+\//, ''));
}

function expectIconsBuilt(holder: IconHolder): void {
	const files = iconFiles(holder);
	expect(files.length).toBeGreaterThan(0);
	expect(files.filter((file) => !existsSync(join(PROJECT_ROOT, file)))).toEqual([]);
}

describe('the built package, loaded the way n8n loads a community package', () => {
	it('loads both nodes under the package name, with codex and icons', async () => {
		expect(loader.packageName).toBe('n8n-nodes-timeline-navigation');
		expect(Object.keys(loader.nodeTypes).map((name) => `${loader.packageName}.${name}`).sort()).toEqual([
			'n8n-nodes-timeline-navigation.chatAppMessagingTrigger',
			'n8n-nodes-timeline-navigation.timelineNavigation',
		]);
		expect(Object.keys(loader.nodeTypes)).toHaveLength(listed.nodes.length);
		for (const { type } of Object.values(loader.nodeTypes)) {
			const description = NodeHelpers.getVersionedNodeType(type).description;
			expect(description.codex?.categories?.length).toBeGreaterThan(0);
			expectIconsBuilt(description as unknown as IconHolder);
		}
		const action = NodeHelpers.getVersionedNodeType(loader.nodeTypes.timelineNavigation.type).description;
		expect(action.usableAsTool).toBe(true);
		expect(action.codex?.alias).toEqual(expect.arrayContaining(['time travel', 'chat']));
		const trigger = NodeHelpers.getVersionedNodeType(loader.nodeTypes.chatAppMessagingTrigger.type).description;
		expect(trigger.usableAsTool).toBeFalsy();
		expect(trigger.inputs).toEqual([]);
		expect(trigger.codex?.alias).toEqual(expect.arrayContaining(['chat', 'messaging', 'webhook']));
	});

	// n8n's node panel lists under Human review → Send and wait for response every node whose codex
	// has the category "HITL" and the subcategory "Human in the Loop" (the editor's viewsData and
	// subcategorizeItems), and opens it on its `sendAndWait` operation; its own Send and Wait nodes
	// (Slack, Telegram, Gmail, ...) also carry the aliases below. subcategorizeItems files a node
	// under the subcategories its HITL entry names instead of "*" (Action in an app), which Slack and
	// Telegram leave that way; naming "*" too keeps the node there. A node that gains Send and Wait
	// (such as a single-service edition's) copies this block into its codex.
	it('files every node that offers Send and Wait under Human review, found by "send and wait", "approval" and "human"', () => {
		const descriptions = Object.values(loader.nodeTypes).map(({ type }) => NodeHelpers.getVersionedNodeType(type).description);
		const offersSendAndWait = (description: (typeof descriptions)[number]) =>
			description.properties.some(
				(property) => property.name === 'operation' && (property.options ?? []).some((option) => 'value' in option && option.value === 'sendAndWait'),
			);
		const humanReview = descriptions.filter(offersSendAndWait);
		expect(humanReview.map((description) => description.name)).toEqual(['timelineNavigation']);
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

	it('loads both credentials, each sending the key as a bearer header', async () => {
		expect(Object.keys(loader.credentialTypes)).toHaveLength(listed.credentials.length);
		for (const { type } of Object.values(loader.credentialTypes)) expectIconsBuilt(type as unknown as IconHolder);
		for (const name of ['timelineNavigationApi', 'chatAppMessagingApi']) {
			const type: ICredentialType | undefined = loader.credentialTypes[name]?.type;
			expect(type?.test).toBeDefined();
			const secret = type!.properties.find((property) => property.typeOptions?.password);
			expect(secret).toBeDefined();
			// A function (no expression for n8n to evaluate per request) that keeps the request's own headers.
			expect(typeof type?.authenticate).toBe('function');
			const authenticate = type!.authenticate as Exclude<ICredentialType['authenticate'], IAuthenticateGeneric | undefined>;
			const request = { url: 'https://api.example/v1/x', headers: { Accept: 'application/json' } };
			await expect(authenticate({ baseUrl: 'https://api.example', [secret!.name]: 'key-123' }, request)).resolves.toEqual({
				...request,
				headers: { Accept: 'application/json', Authorization: 'Bearer key-123' },
			});
		}
	});

	it.each(['index.js', 'dist/index.js'])('exports the built classes from %s for programmatic use', async (entry) => {
		const exported = await import(join(PROJECT_ROOT, entry));
		expect(Object.keys(exported).filter((key) => key !== 'default').sort()).toEqual([
			'ChatAppMessagingApi',
			'ChatAppMessagingTrigger',
			'ChatAppWebhookBasicAuthApi',
			'ChatAppWebhookHeaderAuthApi',
			'TimelineNavigation',
			'TimelineNavigationApi',
		]);
		expect(new exported.TimelineNavigation().description.name).toBe('timelineNavigation');
	});

	it('has no runtime dependencies and n8n-workflow as its only peer', () => {
		const packageJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8'));
		expect(packageJson.dependencies ?? {}).toEqual({});
		expect(packageJson.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		expect(packageJson.files).toEqual(['dist']);
	});
});
