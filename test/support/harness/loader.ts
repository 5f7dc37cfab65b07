// Loads the built package the way n8n loads an installed community package: through
// PackageDirectoryLoader, which reads the `n8n` attribute of package.json, the codex files
// and the icon paths. Anything n8n could not load fails here, loudly.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PackageDirectoryLoader } from 'n8n-core';
import {
	NodeHelpers,
	type ICredentialType,
	type INodeType,
	type INodeTypes,
	type IVersionedNodeType,
} from 'n8n-workflow';

export const PROJECT_ROOT = resolve(__dirname, '..', '..', '..');

export interface LoadedPackage {
	packageName: string;
	nodeTypes: HarnessNodeTypes;
	credentialTypes: Map<string, ICredentialType>;
	/** Full node type names as n8n names them: `<package>.<node>`. */
	nodeTypeNames: string[];
}

export class HarnessNodeTypes implements INodeTypes {
	private readonly types = new Map<string, INodeType | IVersionedNodeType>();

	register(fullName: string, type: INodeType | IVersionedNodeType): void {
		this.types.set(fullName, type);
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const type = this.types.get(nodeType);
		if (!type) throw new Error(`Unknown node type "${nodeType}" (known: ${[...this.types.keys()].join(', ')})`);
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes() {
		return {};
	}
}

function assertBuilt(root: string, relativePath: string): void {
	if (!existsSync(join(root, relativePath))) {
		throw new Error(`${relativePath} is listed in package.json but missing: run \`npm run build\` first.`);
	}
}

export async function loadPackage(root = PROJECT_ROOT): Promise<LoadedPackage> {
	const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
	const listed: { nodes: string[]; credentials: string[] } = packageJson.n8n;
	[...listed.nodes, ...listed.credentials].forEach((path) => assertBuilt(root, path));

	const loader = new PackageDirectoryLoader(root);
	await loader.loadAll();

	const nodeTypes = new HarnessNodeTypes();
	const nodeTypeNames: string[] = [];
	for (const [name, { type, sourcePath }] of Object.entries(loader.nodeTypes)) {
		const fullName = `${loader.packageName}.${name}`;
		const description = NodeHelpers.getVersionedNodeType(type).description;
		if (!description.codex?.categories?.length) {
			throw new Error(`${fullName}: no codex loaded next to ${sourcePath}`);
		}
		checkIcons(root, fullName, description as unknown as IconHolder);
		nodeTypes.register(fullName, type);
		nodeTypeNames.push(fullName);
	}
	if (nodeTypeNames.length !== listed.nodes.length) {
		throw new Error(`n8n loaded ${nodeTypeNames.length} of the ${listed.nodes.length} nodes in package.json`);
	}

	const credentialTypes = new Map<string, ICredentialType>();
	for (const [name, { type }] of Object.entries(loader.credentialTypes)) {
		checkIcons(root, `credential ${name}`, type as unknown as IconHolder);
		credentialTypes.set(name, type);
	}
	if (credentialTypes.size !== listed.credentials.length) {
		throw new Error(`n8n loaded ${credentialTypes.size} of the ${listed.credentials.length} credentials in package.json`);
	}
	return { packageName: loader.packageName, nodeTypes, credentialTypes, nodeTypeNames };
}

interface IconHolder {
	iconUrl?: string | { light: string; dark: string };
}

/** The loader rewrites `file:` icons to `icons/<package>/<path>`; the file must exist in dist. */
function checkIcons(root: string, owner: string, holder: IconHolder): void {
	const urls = typeof holder.iconUrl === 'string' ? [holder.iconUrl] : Object.values(holder.iconUrl ?? {});
	if (urls.length === 0) throw new Error(`${owner}: no icon`);
	for (const url of urls) {
		const path = url.replace(/^icons\/[^/]+\//, '');
		if (!existsSync(join(root, path))) throw new Error(`${owner}: icon ${path} missing (gulp build:assets copies it)`);
	}
}
