/**
 * Writes each node's codex file (`X.node.json`, what n8n's node panel searches) from the node
 * catalog (nodes/shared/catalog.ts), then assembles each package of packages.ts from the build in
 * dist/ into dist-packages/<name>/, ready to pack and publish: its package.json, README.md and
 * LICENSE, and under dist/ exactly the files its nodes and credentials load (followed through
 * their `require`s), their icons and codex files, and an index.js exporting its classes.
 * `npm run build` runs it after compiling:
 *
 *   npx tsx tools/packages/assemble.ts
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ACTION_NODES, CODEX, type ActionNodeEntry } from '../../nodes/shared/catalog';
import { COMBINED, PACKAGES, PROJECT_ROOT, packageDir, packageJsonOf, REPOSITORY_FILES, type PackageDefinition } from './packages';

const DIST = path.join(PROJECT_ROOT, 'dist');

/** The built files `entries` load, themselves included: every relative `require` followed. */
export function loadedFiles(entries: string[]): string[] {
	const found = new Set<string>();
	const queue = entries.map((entry) => path.join(PROJECT_ROOT, entry));
	while (queue.length > 0) {
		const file = queue.shift()!;
		if (found.has(file)) continue;
		if (!fs.existsSync(file)) throw new Error(`${path.relative(PROJECT_ROOT, file)} is not built: run \`npm run build\``);
		found.add(file);
		const code = fs.readFileSync(file, 'utf8');
		for (const [, specifier] of code.matchAll(/require\("(\.{1,2}\/[^"]+)"\)/g)) {
			const target = path.resolve(path.dirname(file), specifier);
			queue.push(fs.existsSync(`${target}.js`) ? `${target}.js` : target);
		}
	}
	return [...found].sort();
}

/** A built node's type name: `dist/nodes/X/X.node.js` holds the node named x. */
function nodeNameOf(file: string): string | undefined {
	const match = /([A-Za-z]+)\.node\.js$/.exec(file);
	return match ? match[1][0].toLowerCase() + match[1].slice(1) : undefined;
}

/** The nodes whose class takes its icon from the catalog: the action nodes. */
const CATALOGUED: Record<string, ActionNodeEntry> = ACTION_NODES;

/** The icons beside each node and credential: named in the action node's catalog entry, else in the class (`file:x.svg`). */
function iconsOf(entries: string[]): string[] {
	return entries.flatMap((entry) => {
		const file = path.join(PROJECT_ROOT, entry);
		const catalogued = CATALOGUED[nodeNameOf(entry) ?? ''];
		const icons = catalogued
			? [`${catalogued.icon}.svg`, `${catalogued.icon}.dark.svg`]
			: [...fs.readFileSync(file, 'utf8').matchAll(/file:([\w.-]+\.svg)/g)].map(([, icon]) => icon);
		return [...new Set(icons)].map((icon) => path.join(path.dirname(file), icon));
	});
}

/** A node's codex file as n8n reads it, for the node named `name` as `packageName` ships it. */
export function codexJson(packageName: string, name: string): object {
	const codex = CODEX[name];
	if (!codex) throw new Error(`The node ${name} has no codex in nodes/shared/catalog.ts`);
	const { categories, subcategories, alias, documentation } = codex;
	const link = (document: string) => [{ url: `${REPOSITORY_FILES}/docs/${document}` }];
	return {
		node: `${packageName}.${name}`,
		nodeVersion: '1.0',
		codexVersion: '1.0',
		categories,
		...(subcategories && { subcategories }),
		alias,
		resources: {
			...(documentation.credentials && { credentialDocumentation: link(documentation.credentials) }),
			primaryDocumentation: link(documentation.primary),
		},
	};
}

/** Writes the codex file beside each node of the package, under `root`. */
function writeCodexFiles(definition: PackageDefinition, root: string): void {
	for (const file of definition.n8n.nodes) {
		const codexFile = path.join(root, file.replace(/\.node\.js$/, '.node.json'));
		fs.mkdirSync(path.dirname(codexFile), { recursive: true });
		fs.writeFileSync(codexFile, `${JSON.stringify(codexJson(definition.name, nodeNameOf(file)!), null, '\t')}\n`);
	}
}

/** The package's entry point: its node and credential classes, as n8n names them by file. */
function indexJs(definition: PackageDefinition): string {
	const lines = [...definition.n8n.nodes, ...definition.n8n.credentials].map((file) => {
		const className = path.basename(file).split('.')[0];
		return `\t${className}: require('./${path.relative('dist', file)}').${className},`;
	});
	return `'use strict';\n// The node and credential classes; n8n itself loads them through the "n8n" attribute of package.json.\nmodule.exports = {\n${lines.join('\n')}\n};\n`;
}

function copy(from: string, to: string): void {
	fs.mkdirSync(path.dirname(to), { recursive: true });
	fs.copyFileSync(from, to);
}

/** Whether the process runs (a build beside this one is still assembling). */
function processRuns(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (err) {
		return (err as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** Where a package is put together before it is swapped in (a dot folder: `dist-packages/*\/` skips it). */
const stagingDir = (out: string) => path.join(path.dirname(out), `.${path.basename(out)}.assembling-${process.pid}`);

/**
 * Assembles the package in a folder of its own, then swaps it in for the previous one: e2e files
 * run `npm start` (which builds) beside suites that pack the package, and a pack must read the
 * previous folder or the new one, never one half written.
 */
export function assemble(definition: PackageDefinition): string {
	const out = packageDir(definition);
	const staging = stagingDir(out);
	fs.rmSync(staging, { recursive: true, force: true });
	const entries = [...definition.n8n.nodes, ...definition.n8n.credentials];
	for (const file of [...loadedFiles(entries), ...iconsOf(entries)]) {
		if (!fs.existsSync(file)) throw new Error(`${path.relative(PROJECT_ROOT, file)} is missing from the build`);
		copy(file, path.join(staging, path.relative(PROJECT_ROOT, file)));
	}
	writeCodexFiles(definition, staging);
	fs.writeFileSync(path.join(staging, 'dist', 'index.js'), indexJs(definition));
	fs.writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify(packageJsonOf(definition), null, 2)}\n`);
	copy(path.join(PROJECT_ROOT, definition.readme), path.join(staging, 'README.md'));
	copy(path.join(PROJECT_ROOT, 'LICENSE'), path.join(staging, 'LICENSE'));
	const previous = `${staging}-previous`;
	if (fs.existsSync(out)) fs.renameSync(out, previous);
	fs.renameSync(staging, out);
	fs.rmSync(previous, { recursive: true, force: true });
	return out;
}

if (require.main === module) {
	if (!fs.existsSync(DIST)) throw new Error('dist/ is missing: run `npm run build`');
	// dist/ itself is the combined package as the checkout packs it.
	writeCodexFiles(COMBINED, PROJECT_ROOT);
	// Only the packages of packages.ts: not one since removed, nor what an interrupted build left.
	const names = new Set(PACKAGES.map((definition) => path.basename(packageDir(definition))));
	const root = path.dirname(packageDir(COMBINED));
	for (const entry of fs.existsSync(root) ? fs.readdirSync(root) : []) {
		const builder = Number(/\.assembling-(\d+)/.exec(entry)?.[1]);
		if (names.has(entry) || (builder && processRuns(builder))) continue;
		fs.rmSync(path.join(root, entry), { recursive: true, force: true });
	}
	for (const definition of PACKAGES) {
		const out = assemble(definition);
		console.log(`assembled ${definition.name} in ${path.relative(PROJECT_ROOT, out)}`);
	}
}
