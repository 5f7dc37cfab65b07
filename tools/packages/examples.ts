/**
 * The example workflows of each single-service package: every example of examples/ whose
 * package nodes all belong to that package's service, with that package's node types. They are
 * written to examples/<package>/ and committed, so users can import them from the repository;
 * test/package/examples.test.ts fails when a committed copy differs from what this writes.
 *
 *   npx tsx tools/packages/examples.ts
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MESSAGING_ACTIONS } from '../../nodes/shared/messaging/resources';
import { TIMELINE_ACTIONS } from '../../nodes/shared/timeline/resources';
import { CHAT_APP_MESSAGING, COMBINED, EDITIONS, PROJECT_ROOT, TIMELINE_NAVIGATION, type PackageDefinition } from './packages';

export const EXAMPLES_DIR = path.join(PROJECT_ROOT, 'examples');

const COMBINED_ACTION = `${COMBINED.name}.timelineNavigation`;
const COMBINED_TRIGGER = `${COMBINED.name}.chatAppMessagingTrigger`;

/** What each edition takes over from the combined package: the resources its action node offers, its node types. */
const EDITION_NODES: Record<string, { resources: string[]; action: string; trigger?: string }> = {
	[CHAT_APP_MESSAGING.name]: {
		resources: MESSAGING_ACTIONS.resources.map((resource) => resource.value),
		action: `${CHAT_APP_MESSAGING.name}.chatAppMessaging`,
		trigger: `${CHAT_APP_MESSAGING.name}.chatAppTrigger`,
	},
	[TIMELINE_NAVIGATION.name]: {
		resources: TIMELINE_ACTIONS.resources.map((resource) => resource.value),
		action: `${TIMELINE_NAVIGATION.name}.timelineNavigationService`,
	},
};

interface WorkflowNode {
	type: string;
	parameters?: { resource?: unknown };
}

/** The example as the edition's users import it, or undefined when it uses a node the edition lacks. */
export function editionExample(workflow: { nodes: WorkflowNode[] }, edition: PackageDefinition): object | undefined {
	const own = EDITION_NODES[edition.name];
	const nodes = workflow.nodes.map((node) => {
		if (node.type === COMBINED_ACTION) {
			return own.resources.includes(String(node.parameters?.resource)) ? { ...node, type: own.action } : undefined;
		}
		if (node.type === COMBINED_TRIGGER) return own.trigger ? { ...node, type: own.trigger } : undefined;
		return node;
	});
	if (nodes.some((node) => node === undefined)) return undefined;
	if (!nodes.some((node, index) => node !== workflow.nodes[index])) return undefined;
	return { ...workflow, nodes };
}

/** File name → the JSON an edition's folder should hold. */
export function editionExampleFiles(edition: PackageDefinition): Map<string, string> {
	const files = new Map<string, string>();
	for (const file of fs.readdirSync(EXAMPLES_DIR).filter((name) => name.endsWith('.json')).sort()) {
		const example = editionExample(JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')), edition);
		if (example) files.set(file, `${JSON.stringify(example, null, 2)}\n`);
	}
	return files;
}

if (require.main === module) {
	for (const edition of EDITIONS) {
		const dir = path.join(EXAMPLES_DIR, edition.name);
		fs.rmSync(dir, { recursive: true, force: true });
		fs.mkdirSync(dir, { recursive: true });
		for (const [file, json] of editionExampleFiles(edition)) fs.writeFileSync(path.join(dir, file), json);
		console.log(`examples/${edition.name}: ${[...editionExampleFiles(edition).keys()].join(', ')}`);
	}
}
