// The documentation links of the built package, as n8n's editor opens them. The node's "Docs"
// link is its codex `primaryDocumentation` URL with `?utm_source=…` appended as text (n8n's
// useNodeDocsUrl: `${url}?${utmParams}`), so a `#section` in it would swallow n8n's query and
// the jump would miss; a credential's `documentationUrl` outside docs.n8n.io is opened as it is.
// So every link is a page of its own, without a fragment or a query: the repository itself or
// a file of it, which must exist. Checked in each of the three built packages.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PackageDirectoryLoader } from 'n8n-core';
import { NodeHelpers, type INodeTypeDescription } from 'n8n-workflow';
import { PACKAGES, packageDir } from '../../tools/packages/packages';
import { PROJECT_ROOT } from '../support/harness';

const repository = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { repository: { url: string } })
	.repository.url.replace(/^git\+/, '')
	.replace(/\.git$/, '');
/** The branch GitHub shows a file of the repository on. */
const PAGE_PREFIX = `${repository}/blob/main/`;

describe.each(PACKAGES.map((definition) => definition.name))('documentation links of %s', (name) => {
let loader: PackageDirectoryLoader;

beforeAll(async () => {
	const dir = packageDir(PACKAGES.find((definition) => definition.name === name)!);
	if (!existsSync(join(dir, 'package.json'))) throw new Error(`${dir} is missing: run \`npm run build\` first.`);
	loader = new PackageDirectoryLoader(dir);
	await loader.loadAll();
});

function nodeDescriptions(): INodeTypeDescription[] {
	return Object.values(loader.nodeTypes).map(({ type }) => NodeHelpers.getVersionedNodeType(type).description);
}

/** Every link to this repository in a value (descriptions, hints, notices), recursively. */
function repositoryLinks(value: unknown): string[] {
	if (typeof value === 'string') return value.match(new RegExp(`${repository.replace(/[.]/g, '\\.')}[^\\s"'<>)]*`, 'g')) ?? [];
	if (Array.isArray(value)) return value.flatMap(repositoryLinks);
	if (value && typeof value === 'object') return Object.values(value).flatMap(repositoryLinks);
	return [];
}

/** Each documentation link n8n opens, named by where it comes from. */
function documentationLinks(): Array<[string, string]> {
	const links: Array<[string, string]> = [];
	for (const description of nodeDescriptions()) {
		for (const [kind, entries] of Object.entries(description.codex?.resources ?? {})) {
			for (const { url } of (entries ?? []) as Array<{ url: string }>) links.push([`${description.name} codex ${kind}`, url]);
		}
	}
	for (const [name, { type }] of Object.entries(loader.credentialTypes)) {
		if (type.documentationUrl) links.push([`${name} documentationUrl`, type.documentationUrl]);
	}
	return links;
}

/** What n8n 2.41 and 1.123 open for a node's primary documentation URL. */
function asTheEditorOpensIt(url: string, nodeName: string): URL {
	const utm = new URLSearchParams({ utm_source: 'n8n_app', utm_medium: 'node_settings_modal-credential_link', utm_campaign: nodeName });
	return new URL(`${url}?${utm.toString()}`);
}

	it('every node has its Docs link and every credential its documentation URL', () => {
		const sources = documentationLinks().map(([source]) => source);
		for (const description of nodeDescriptions()) expect(sources).toContain(`${description.name} codex primaryDocumentation`);
		for (const name of Object.keys(loader.credentialTypes)) expect(sources).toContain(`${name} documentationUrl`);
	});

	it('has no fragment or query, and is a file of this repository that exists', () => {
		// Links in the descriptions themselves (hints, notices); the codex was listed above.
		const inDescriptions = nodeDescriptions().flatMap((d) =>
			repositoryLinks({ ...d, codex: undefined }).map((url): [string, string] => [`${d.name} description`, url]),
		);
		const links = [...documentationLinks(), ...inDescriptions];
		const wrong = links.filter(([, url]) => {
			if (url.includes('#') || url.includes('?')) return true;
			if (url === repository) return false;
			return !url.startsWith(PAGE_PREFIX) || !existsSync(join(PROJECT_ROOT, url.slice(PAGE_PREFIX.length)));
		});
		expect(wrong).toEqual([]);
	});

	it("keeps its page when the editor appends n8n's tracking query", () => {
		for (const description of nodeDescriptions()) {
			const url = description.codex!.resources!.primaryDocumentation![0].url;
			const opened = asTheEditorOpensIt(url, description.name);
			expect(opened.hash).toBe('');
			expect(`${opened.origin}${opened.pathname}`).toBe(url);
		}
	});
});
