// The action node's modules form layers, and no module imports from a layer above its own:
// errors and the services' definitions at the bottom, then the transport, the field helpers,
// what the message sends share, the operations, and what assembles the node. A module that
// reaches upward (say, the transport reading an editor field) fails here, naming the import.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..', '..');
const NODE_DIR = join(ROOT, 'nodes', 'TimelineNavigation');

/** Layer of a module, by its path inside nodes/TimelineNavigation (the first rule that matches). */
const LAYERS: Array<[RegExp, number, string]> = [
	[/^errors\.ts$|^transport\/services\.ts$/, 0, 'errors and service definitions'],
	[/^transport\//, 1, 'transport'],
	[/^helpers\//, 2, 'field helpers'],
	[/^messaging\//, 3, 'messaging'],
	[/^sendAndWait\//, 3, 'send and wait'],
	[/^actions\/(registry|router|node\.description)\.ts$/, 5, 'node assembly'],
	[/^actions\//, 4, 'operations'],
	[/^methods\//, 5, 'node assembly'],
	[/^TimelineNavigation\.node\.ts$|^editions\//, 6, 'node class'],
];

function layerOf(file: string): { level: number; name: string } {
	const path = relative(NODE_DIR, file).split('\\').join('/');
	const found = LAYERS.find(([pattern]) => pattern.test(path));
	if (!found) throw new Error(`${path} belongs to no layer: add it to LAYERS`);
	return { level: found[1], name: found[2] };
}

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

function relativeImports(file: string): string[] {
	const text = readFileSync(file, 'utf8');
	return [...text.matchAll(/from\s+'(\.[^']+)'/g)].map((match) => resolve(dirname(file), `${match[1]}.ts`));
}

describe('the action node’s layers', () => {
	const files = sourceFiles(NODE_DIR);

	it('puts every module in a layer', () => {
		expect(files.length).toBeGreaterThan(30);
		for (const file of files) expect(() => layerOf(file)).not.toThrow();
	});

	it('has no module importing from a layer above its own', () => {
		const upward: string[] = [];
		for (const file of files) {
			const own = layerOf(file);
			for (const target of relativeImports(file).filter((path) => path.startsWith(NODE_DIR))) {
				const imported = layerOf(target);
				if (imported.level > own.level) {
					upward.push(`${relative(NODE_DIR, file)} (${own.name}) imports ${relative(NODE_DIR, target)} (${imported.name})`);
				}
			}
		}
		expect(upward).toEqual([]);
	});

	it('keeps the credentials and the trigger off the action node, but for the services’ definitions', () => {
		const outside = [...sourceFiles(join(ROOT, 'credentials')), ...sourceFiles(join(ROOT, 'nodes', 'ChatAppMessagingTrigger'))];
		const reached = outside.flatMap((file) =>
			relativeImports(file)
				.filter((path) => path.startsWith(NODE_DIR) && layerOf(path).level > 0)
				.map((path) => `${relative(ROOT, file)} imports ${relative(ROOT, path)}`),
		);
		expect(reached).toEqual([]);
	});
});
