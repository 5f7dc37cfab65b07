// The built package as n8n loads it: node types, credentials, codex and icons.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeHelpers, type IAuthenticateGeneric, type ICredentialType } from 'n8n-workflow';
import { getPackage, PROJECT_ROOT } from '../support/harness';

describe('the built package, loaded the way n8n loads a community package', () => {
	it('loads both nodes under the package name, with codex and icons', async () => {
		const pkg = await getPackage();
		expect(pkg.packageName).toBe('n8n-nodes-timeline-navigation');
		expect(pkg.nodeTypeNames.sort()).toEqual([
			'n8n-nodes-timeline-navigation.chatAppMessagingTrigger',
			'n8n-nodes-timeline-navigation.timelineNavigation',
		]);
		const action = NodeHelpers.getVersionedNodeType(
			pkg.nodeTypes.getByName('n8n-nodes-timeline-navigation.timelineNavigation'),
		).description;
		expect(action.usableAsTool).toBe(true);
		expect(action.codex?.alias).toEqual(expect.arrayContaining(['time travel', 'chat']));
		const trigger = NodeHelpers.getVersionedNodeType(
			pkg.nodeTypes.getByName('n8n-nodes-timeline-navigation.chatAppMessagingTrigger'),
		).description;
		expect(trigger.usableAsTool).toBeFalsy();
		expect(trigger.inputs).toEqual([]);
	});

	it('loads both credentials, each sending the key as a bearer header', async () => {
		const pkg = await getPackage();
		for (const name of ['timelineNavigationApi', 'chatAppMessagingApi']) {
			const type = pkg.credentialTypes.get(name);
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
