// Writes the action node's description views (see views.ts) from the node's source to
// approved.json, each field shown the same way by several operations once (shareFields). Run it
// (`npx tsx test/nodes/TimelineNavigation/description/approve.ts`) only after a deliberate
// change to what the editor shows; description.test.ts fails on any other difference.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeHelpers } from 'n8n-workflow';
import { loadSourcePackage } from '../../../support/harness/sourcePackage';
import { descriptionViews, shareFields, type ApprovedDescription } from './views';

async function approve(): Promise<void> {
	// Through the harness's loader: tsx would resolve an import of `TimelineNavigation.node` to
	// the codex file TimelineNavigation.node.json.
	const pkg = await loadSourcePackage();
	const node = NodeHelpers.getVersionedNodeType(pkg.nodeTypes.getByName(`${pkg.packageName}.timelineNavigation`));
	const file = join(__dirname, 'approved.json');
	const previous = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ApprovedDescription) : undefined;
	const approved = shareFields(descriptionViews(node.description), previous);
	writeFileSync(file, JSON.stringify(approved, null, '\t') + '\n');
	console.log(
		`approved.json: ${Object.keys(approved.operations).length} operations, ${Object.keys(approved.sharedFields).length} shared fields`,
	);
}

void approve();
