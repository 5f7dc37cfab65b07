/**
 * The three npm packages built from this source. The combined package (every operation of both
 * services, the trigger, four credentials) is the root package.json. Each edition holds one
 * service, as n8n's verification asks ("each package should integrate exactly one third-party
 * service; a trigger node for the same service may be included"): its own action node, built
 * from the same operation registry filtered by service, and the same credential types, so a
 * credential saved with one package works with the other.
 *
 * `npm run build` assembles each into dist-packages/<name>/ (tools/packages/assemble.ts), which
 * is what is packed, scanned, tested and published.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
export const PACKAGES_DIR = path.join(PROJECT_ROOT, 'dist-packages');

/** Where a file of the repository is read on GitHub (documents, editions' READMEs). */
export const REPOSITORY_FILES = 'https://github.com/n8n-nodes-timeline-navigation/n8n-nodes-timeline-navigation/blob/main';

export interface PackageDefinition {
	name: string;
	description: string;
	keywords: string[];
	/** As n8n reads them from package.json: built files under dist/. */
	n8n: { n8nNodesApiVersion: number; nodes: string[]; credentials: string[] };
	/** The README that goes with it (what npm shows), from the project root. */
	readme: string;
}

type RootPackageJson = Record<string, unknown> & Pick<PackageDefinition, 'name' | 'description' | 'keywords' | 'n8n'> & { version: string };

export function rootPackageJson(): RootPackageJson {
	return JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as RootPackageJson;
}

const root = rootPackageJson();

/** Where each edition's README lives. */
const editionDocs = (name: string) => ({ readme: `docs/editions/${name}/README.md` });

export const COMBINED: PackageDefinition = {
	name: root.name,
	description: root.description,
	keywords: root.keywords,
	n8n: root.n8n,
	readme: 'README.md',
};

export const CHAT_APP_MESSAGING: PackageDefinition = {
	name: 'n8n-nodes-chat-app-messaging',
	description:
		'n8n nodes for the Chat-App Messaging service: send template, text, media, location and custom messages within the 24-hour window, ask a person and wait for the answer (Send and Wait), look up delivery status, and start workflows from delivery-status and inbound-message webhooks.',
	keywords: ['n8n-community-node-package', 'n8n', 'chat-app', 'chat', 'messaging', 'sms', 'send and wait', 'human in the loop'],
	n8n: {
		n8nNodesApiVersion: 1,
		credentials: [
			'dist/credentials/ChatAppMessagingApi.credentials.js',
			'dist/credentials/ChatAppWebhookBasicAuthApi.credentials.js',
			'dist/credentials/ChatAppWebhookHeaderAuthApi.credentials.js',
		],
		nodes: ['dist/nodes/ChatAppMessaging/ChatAppMessaging.node.js', 'dist/nodes/ChatAppTrigger/ChatAppTrigger.node.js'],
	},
	...editionDocs('n8n-nodes-chat-app-messaging'),
};

export const TIMELINE_NAVIGATION: PackageDefinition = {
	name: 'n8n-nodes-timeline-navigation-service',
	description:
		'n8n node for the Timeline Navigation service: travel to a date-time and place, set temporal anchors and return to them, pause and resume time, fast-forward and rewind, monitor events, manage timelines, register items, check timelines for paradoxes and monitor them for anomalies.',
	keywords: ['n8n-community-node-package', 'n8n', 'timeline', 'timeline navigation', 'time travel'],
	n8n: {
		n8nNodesApiVersion: 1,
		credentials: ['dist/credentials/TimelineNavigationApi.credentials.js'],
		nodes: ['dist/nodes/TimelineNavigationService/TimelineNavigationService.node.js', 'dist/nodes/TimelineEventsTrigger/TimelineEventsTrigger.node.js'],
	},
	...editionDocs('n8n-nodes-timeline-navigation-service'),
};

export const EDITIONS: PackageDefinition[] = [CHAT_APP_MESSAGING, TIMELINE_NAVIGATION];
export const PACKAGES: PackageDefinition[] = [COMBINED, ...EDITIONS];

/** Fields of the root package.json that only the repository needs (building, testing, releasing). */
const REPOSITORY_ONLY = ['scripts', 'devDependencies', 'private'];

/** The package.json a package is published with: the root's, with the package's own name, words and files. */
export function packageJsonOf(definition: PackageDefinition): Record<string, unknown> {
	const published: Record<string, unknown> = Object.fromEntries(Object.entries(rootPackageJson()).filter(([key]) => !REPOSITORY_ONLY.includes(key)));
	return {
		...published,
		name: definition.name,
		description: definition.description,
		keywords: definition.keywords,
		// An edition's page is its README in the repository; the combined package's is the repository's.
		...(definition.readme !== COMBINED.readme && {
			homepage: `${REPOSITORY_FILES}/${definition.readme}`,
		}),
		main: 'dist/index.js',
		files: ['dist'],
		n8n: definition.n8n,
	};
}

/** The folder a package is assembled in. */
export function packageDir(definition: PackageDefinition): string {
	return path.join(PACKAGES_DIR, definition.name);
}
