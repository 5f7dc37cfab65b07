// The single-service packages' examples (examples/<package>/) are the combined examples whose
// nodes all belong to that service, with the package's node types: what
// tools/packages/examples.ts writes. A committed copy that drifted from its example fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLES_DIR, editionExampleFiles } from '../../tools/packages/examples';
import { CHAT_APP_MESSAGING, EDITIONS, TIMELINE_NAVIGATION } from '../../tools/packages/packages';

describe.each(EDITIONS.map((edition) => [edition.name, edition] as const))('the examples of %s', (name, edition) => {
	it('are the committed files, each as tools/packages/examples.ts writes it (run it after changing an example)', () => {
		const expected = editionExampleFiles(edition);
		const committed = readdirSync(join(EXAMPLES_DIR, name)).sort();
		expect(committed).toEqual([...expected.keys()]);
		for (const [file, json] of expected) expect({ file, json: readFileSync(join(EXAMPLES_DIR, name, file), 'utf8') }).toEqual({ file, json });
	});

	it("use only n8n's own nodes and the package's", () => {
		for (const json of editionExampleFiles(edition).values()) {
			const types = (JSON.parse(json) as { nodes: Array<{ type: string }> }).nodes.map((node) => node.type);
			const nodesOfN8n = (type: string) => type.startsWith('n8n-nodes-base.') || type.startsWith('@n8n/n8n-nodes-langchain.');
			expect(types.filter((type) => !nodesOfN8n(type) && !type.startsWith(`${name}.`))).toEqual([]);
		}
	});
});

it('gives each service its examples: the messaging ones to Chat-App Messaging, the timeline session to Timeline Navigation', () => {
	expect([...editionExampleFiles(CHAT_APP_MESSAGING).keys()]).toEqual([
		'02-inbound-message-reply.json',
		'03-delivery-tracking.json',
		'04-delivery-status-webhook.json',
		'06-refund-approval.json',
		'07-ai-agent-burst-reply.json',
	]);
	expect([...editionExampleFiles(TIMELINE_NAVIGATION).keys()]).toEqual(['05-timeline-session.json']);
});
