// Each package's README (what npm shows) tells the truth about that package: the name to install,
// the credentials, the resources and operations its action node offers, its examples, and links
// that lead to files of this repository. A README left behind by a change of the code fails here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ICredentialType, INodePropertyOptions, INodeType } from 'n8n-workflow';
import { ChatAppMessagingApi } from '../../credentials/ChatAppMessagingApi.credentials';
import { ChatAppWebhookBasicAuthApi } from '../../credentials/ChatAppWebhookBasicAuthApi.credentials';
import { ChatAppWebhookHeaderAuthApi } from '../../credentials/ChatAppWebhookHeaderAuthApi.credentials';
import { TimelineNavigationApi } from '../../credentials/TimelineNavigationApi.credentials';
import { ChatAppMessaging } from '../../nodes/ChatAppMessaging/ChatAppMessaging.node';
import { TimelineNavigationService } from '../../nodes/TimelineNavigationService/TimelineNavigationService.node';
import { TimelineNavigation } from '../../nodes/TimelineNavigation/TimelineNavigation.node';
import { CHAT_APP_MESSAGING, COMBINED, TIMELINE_NAVIGATION, type PackageDefinition } from '../../tools/packages/packages';
import { PROJECT_ROOT } from '../support/harness';

const REPOSITORY = 'https://github.com/n8n-nodes-timeline-navigation/n8n-nodes-timeline-navigation';

const PACKAGE_CONTENTS: Array<[PackageDefinition, INodeType, ICredentialType[], string]> = [
	[COMBINED, new TimelineNavigation(), [new TimelineNavigationApi(), new ChatAppMessagingApi(), new ChatAppWebhookHeaderAuthApi(), new ChatAppWebhookBasicAuthApi()], 'examples'],
	[CHAT_APP_MESSAGING, new ChatAppMessaging(), [new ChatAppMessagingApi(), new ChatAppWebhookHeaderAuthApi(), new ChatAppWebhookBasicAuthApi()], `examples/${CHAT_APP_MESSAGING.name}`],
	[TIMELINE_NAVIGATION, new TimelineNavigationService(), [new TimelineNavigationApi()], `examples/${TIMELINE_NAVIGATION.name}`],
];

/** The rows of the first table whose header row is `header`, as lists of cells. */
function table(markdown: string, header: string): string[][] {
	const lines = markdown.split('\n');
	const start = lines.findIndex((line) => line.trim() === header);
	if (start === -1) throw new Error(`no table with the header ${header}`);
	const rows: string[][] = [];
	for (const line of lines.slice(start + 2)) {
		if (!line.startsWith('|')) break;
		rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim()));
	}
	return rows;
}

/** Each resource the node offers, with its operations as the editor lists them. */
function offered(node: INodeType): Record<string, string[]> {
	const { properties } = node.description;
	const resources = (properties.find((property) => property.name === 'resource')?.options ?? []) as INodePropertyOptions[];
	return Object.fromEntries(
		resources.map((resource) => {
			const operations = properties.find(
				(property) => property.name === 'operation' && (property.displayOptions?.show?.resource as string[]).includes(String(resource.value)),
			);
			return [resource.name, ((operations?.options ?? []) as INodePropertyOptions[]).map((option) => option.name).sort()];
		}),
	);
}

describe.each(PACKAGE_CONTENTS.map(([definition, ...rest]) => [definition.name, definition, ...rest] as const))('the README of %s', (name, definition, node, credentials, examplesDir) => {
	const readme = readFileSync(join(PROJECT_ROOT, definition.readme), 'utf8');

	it('names the package to install, in n8n and with npm', () => {
		expect(readme).toMatch(new RegExp(`^# ${name}$`, 'm'));
		expect(readme).toContain(`enter\n\`${name}\`, confirm`);
		expect(readme).toContain(`npm install ${name} --legacy-peer-deps\n`);
	});

	it('lists exactly the credentials of the package', () => {
		const listed = table(readme, '| Credential | What for |').flatMap(([cell]) => [...cell.matchAll(/\*\*([^*]+)\*\*/g)].map((match) => match[1]));
		expect(listed.sort()).toEqual(credentials.map((credential) => credential.displayName).sort());
	});

	it("lists exactly the resources and operations of the package's action node", () => {
		const listed = Object.fromEntries(table(readme, '| Resource | Operations |').map(([resource, operations]) => [resource, operations.split(', ').sort()]));
		expect(listed).toEqual(offered(node));
	});

	it('lists exactly its examples', () => {
		const files = readdirSync(join(PROJECT_ROOT, examplesDir)).filter((file) => file.endsWith('.json')).sort();
		const linked = table(readme, '| File | What it does |').map(([cell]) => /\(([^)]+)\)/.exec(cell)?.[1].split('/').pop());
		expect(linked.sort()).toEqual(files);
	});

	it('links only to files of this repository that exist', () => {
		const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]);
		const paths = links.flatMap((link) => {
			const own = link.startsWith(`${REPOSITORY}/`) ? link.slice(REPOSITORY.length + 1).replace(/^(blob|tree)\/main\//, '') : link;
			if (/^https?:/.test(own) || own.startsWith('#') || own === REPOSITORY) return [];
			// Relative links resolve against the repository's root (npm and GitHub, for the root README).
			return [own.split('#')[0]];
		});
		expect(paths.length).toBeGreaterThan(3);
		expect(paths.filter((path) => !existsSync(join(PROJECT_ROOT, path)))).toEqual([]);
	});
});

// jest prints how many tests each suite holds; a count copied into a document is wrong after the
// next test is added (the README said 975 long after the suite held more).
describe('the documents', () => {
	const documents = [
		'README.md',
		...readdirSync(join(PROJECT_ROOT, 'docs')).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`),
		...PACKAGE_CONTENTS.map(([definition]) => definition.readme).filter((readme) => readme !== 'README.md'),
	];

	it.each(documents)('%s copies no test count from a run', (document) => {
		const text = readFileSync(join(PROJECT_ROOT, document), 'utf8');
		expect(text.match(/\b\d[\d,]*\s+tests?\b/gi) ?? []).toEqual([]);
	});
});
