// The package as the in-process tests run it: the TypeScript node and credential classes of
// nodes/ and credentials/ (compiled by ts-jest as they are required), registered under the names
// n8n gives them. A test run right after an edit of a source file runs the edit, without a build.
// Which classes there are, and the package name, come from package.json as n8n reads them.
// test/package/package.test.ts loads the built dist/ through n8n's own loader instead.
import { existsSync, readFileSync } from 'node:fs';
import { join, parse, relative, resolve } from 'node:path';
import { NodeHelpers, type ICredentialType, type INodeType, type IVersionedNodeType } from 'n8n-workflow';
import { HarnessNodeTypes } from '../../../tools/shared/nodeTypes';

export const PROJECT_ROOT = resolve(__dirname, '..', '..', '..');

export interface PackageJson {
	name: string;
	/** The built files n8n loads: `dist/nodes/.../X.node.js`, `dist/credentials/X.credentials.js`. */
	n8n: { nodes: string[]; credentials: string[] };
}

export function readPackageJson(root = PROJECT_ROOT): PackageJson {
	return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson;
}

export interface LoadedPackage {
	packageName: string;
	nodeTypes: HarnessNodeTypes;
	credentialTypes: Map<string, ICredentialType>;
}

/**
 * A new instance of the class behind a built path listed in package.json, taken from its source
 * (`dist/nodes/X/X.node.js` → `nodes/X/X.node.ts`). As n8n does, the class is the export named
 * like the file up to its first dot.
 */
async function instantiateSource<T>(root: string, builtPath: string): Promise<T> {
	const source = join(root, builtPath.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
	if (!existsSync(source)) {
		throw new Error(`package.json lists ${builtPath}, but its source ${relative(root, source)} does not exist`);
	}
	const className = parse(source).name.split('.')[0];
	const exported = (await import(source)) as Record<string, new () => T>;
	if (typeof exported[className] !== 'function') {
		throw new Error(`${relative(root, source)} does not export the class ${className}`);
	}
	return new exported[className]();
}

/**
 * The combined package (package.json), and beside it `more` packages built from the same source
 * (the editions), their node types registered under their own package names as n8n would; the
 * credential types are shared by name, as n8n shares them.
 */
export async function loadSourcePackage(root = PROJECT_ROOT, more: PackageJson[] = []): Promise<LoadedPackage> {
	const packageJson = readPackageJson(root);
	const nodeTypes = new HarnessNodeTypes();
	const credentialTypes = new Map<string, ICredentialType>();
	for (const listed of [packageJson, ...more]) {
		for (const builtPath of listed.n8n.nodes) {
			const type = await instantiateSource<INodeType | IVersionedNodeType>(root, builtPath);
			const fullName = `${listed.name}.${NodeHelpers.getVersionedNodeType(type).description.name}`;
			nodeTypes.register(fullName, type);
		}
		for (const builtPath of listed.n8n.credentials) {
			const type = await instantiateSource<ICredentialType>(root, builtPath);
			credentialTypes.set(type.name, type);
		}
	}
	return { packageName: packageJson.name, nodeTypes, credentialTypes };
}
