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
import { MESSAGING_ACTIONS } from '../../nodes/shared/chatAppMessaging/resources';
import { TIMELINE_ACTIONS } from '../../nodes/shared/timelineNavigation/resources';
import { CHAT_APP_MESSAGING, COMBINED, EDITIONS, PROJECT_ROOT, TIMELINE_NAVIGATION, type PackageDefinition } from './packages';

export const EXAMPLES_DIR = path.join(PROJECT_ROOT, 'examples');

const combined = (name: string) => `${COMBINED.name}.${name}`;
const COMBINED_ACTION = combined('timelineNavigation');
/** The action node as an AI Agent's tool: n8n adds the `Tool` type of every node usable as one. */
const COMBINED_TOOL = `${COMBINED_ACTION}Tool`;

/**
 * What each edition takes over from the combined package: the resources its action node offers,
 * and its node type for each combined node type it has (the action node first).
 */
const EDITION_NODES: Record<string, { resources: string[]; types: Record<string, string> }> = {
	[CHAT_APP_MESSAGING.name]: {
		resources: MESSAGING_ACTIONS.resources.map((resource) => resource.value),
		types: {
			[COMBINED_ACTION]: `${CHAT_APP_MESSAGING.name}.chatAppMessaging`,
			[COMBINED_TOOL]: `${CHAT_APP_MESSAGING.name}.chatAppMessagingTool`,
			[combined('chatAppMessagingTrigger')]: `${CHAT_APP_MESSAGING.name}.chatAppTrigger`,
		},
	},
	[TIMELINE_NAVIGATION.name]: {
		resources: TIMELINE_ACTIONS.resources.map((resource) => resource.value),
		types: {
			[COMBINED_ACTION]: `${TIMELINE_NAVIGATION.name}.timelineNavigationService`,
			[COMBINED_TOOL]: `${TIMELINE_NAVIGATION.name}.timelineNavigationServiceTool`,
			[combined('timelineNavigationEventsTrigger')]: `${TIMELINE_NAVIGATION.name}.timelineEventsTrigger`,
		},
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
		if (!node.type.startsWith(`${COMBINED.name}.`)) return node;
		const type = own.types[node.type];
		if ((node.type === COMBINED_ACTION || node.type === COMBINED_TOOL) && !own.resources.includes(String(node.parameters?.resource))) return undefined;
		return type ? { ...node, type } : undefined;
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
