// The modules under nodes/ form layers, and no module imports from a layer above its own: the
// catalog, errors and the services' definitions at the bottom, then the run's state, the
// transport, the field helpers, the action node framework (its router and description builder)
// beside what each service's operations share, the operations, each service's actions and
// triggers, the registry of both services, and the node classes n8n loads on top. A
// module that reaches upward (say, the transport reading an editor field) fails here, naming the
// import, and so does an import cycle, named module by module. A node of one service reaches no
// module of the other service, so its package ships none. Imports are read with the TypeScript
// parser, so every way of writing one counts: either quote, `import type`, `export … from`,
// `import x = require()` and dynamic `import()`. Beyond nodes/, no TypeScript module of the
// repository (credentials, tools, tests) is part of an import cycle either.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '..', '..');
const NODE_DIR = join(ROOT, 'nodes');

/**
 * Layer of a module, by its path inside nodes/ (the first rule that matches). A new module or
 * layer is one row; a module no row matches fails the first test below.
 */
const LAYERS: Array<[RegExp, number, string]> = [
	[/^shared\/(catalog|digest|errors|n8nVersion|services|serviceTime)\.ts$/, 0, 'definitions'],
	[/^shared\/execution\.ts$/, 1, 'the run'],
	[/^shared\/transport\.ts$/, 2, 'transport'],
	[/^shared\/fields\/|^shared\/actionNode\/operation\.ts$/, 3, 'fields and operation types'],
	[/^shared\/actionNode\/(description|router|actionNode)\.ts$/, 4, 'the action node framework'],
	[/^shared\/(timelineNavigation|chatAppMessaging)\/(\w+\/)?\w+\.operation\.ts$|^shared\/\w+\/\w+\/\w+\.resource\.ts$|^shared\/timelineNavigation\/trigger\/poll\.ts$/, 5, 'operations and the poll'],
	[/^shared\/(timelineNavigation\/(resources|listSearch|trigger\/trigger)|chatAppMessaging\/(resources|trigger\/trigger))\.ts$/, 6, 'each service\'s actions and triggers'],
	[/^shared\/(timelineNavigation|chatAppMessaging)\//, 4, 'what the operations of a service share'],
	[/^shared\/registry\.ts$/, 7, 'every service\'s actions together'],
	// One folder per node that n8n loads, holding its class (and its icons).
	[/^\w+\/\w+\.node\.ts$/, 8, 'node class'],
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

/** Every module specifier a file names, however the import is written. */
function moduleSpecifiers(fileName: string, text: string): string[] {
	const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
	const found: string[] = [];
	const visit = (node: ts.Node): void => {
		if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
			found.push(node.moduleSpecifier.text);
		} else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
			found.push(node.moduleReference.expression.text);
		} else if (
			ts.isCallExpression(node) &&
			(node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
			node.arguments.length > 0 &&
			ts.isStringLiteralLike(node.arguments[0])
		) {
			found.push(node.arguments[0].text);
		} else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
			found.push(node.argument.literal.text); // `typeof import('./x')` in a type
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

const RESOLUTION: ts.CompilerOptions = { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10, resolveJsonModule: true };

/** The files a module imports by a relative path, resolved as tsc resolves them. */
function relativeImports(file: string): string[] {
	return moduleSpecifiers(file, readFileSync(file, 'utf8'))
		.filter((specifier) => specifier.startsWith('.'))
		.map((specifier) => {
			const resolved = ts.resolveModuleName(specifier, file, RESOLUTION, ts.sys).resolvedModule?.resolvedFileName;
			if (!resolved) throw new Error(`${relative(ROOT, file)} imports "${specifier}", which resolves to no file`);
			return resolve(resolved);
		});
}

/** One cycle through each group of modules that import one another, as `a → b → a`. */
function importCycles(graph: Map<string, string[]>): string[][] {
	// Tarjan's strongly connected components; a component of two or more, or a module importing
	// itself, holds a cycle, named by walking from its first module back to it inside it.
	let index = 0;
	const order = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const components: string[][] = [];
	const connect = (module: string): void => {
		order.set(module, index);
		low.set(module, index++);
		stack.push(module);
		for (const next of graph.get(module) ?? []) {
			if (!order.has(next)) {
				connect(next);
				low.set(module, Math.min(low.get(module)!, low.get(next)!));
			} else if (stack.includes(next)) {
				low.set(module, Math.min(low.get(module)!, order.get(next)!));
			}
		}
		if (low.get(module) === order.get(module)) {
			const component: string[] = [];
			let member: string;
			do {
				member = stack.pop()!;
				component.push(member);
			} while (member !== module);
			components.push(component);
		}
	};
	for (const module of [...graph.keys()].sort()) if (!order.has(module)) connect(module);

	return components
		.filter((component) => component.length > 1 || (graph.get(component[0]) ?? []).includes(component[0]))
		.map((component) => {
			const members = new Set(component);
			const start = [...component].sort()[0];
			const path = [start];
			const seen = new Set([start]);
			const walk = (from: string): boolean => {
				for (const next of graph.get(from) ?? []) {
					if (next === start) return true;
					if (members.has(next) && !seen.has(next)) {
						seen.add(next);
						path.push(next);
						if (walk(next)) return true;
						path.pop();
					}
				}
				return false;
			};
			walk(start);
			return [...path, start];
		});
}

describe('the layers of nodes/', () => {
	const files = sourceFiles(NODE_DIR);
	const imports = new Map(files.map((file) => [file, relativeImports(file)]));
	const name = (file: string) => relative(NODE_DIR, file).split('\\').join('/');

	it('puts every module in a layer', () => {
		expect(files.length).toBeGreaterThan(60);
		for (const file of files) expect(() => layerOf(file)).not.toThrow();
	});

	it('reads the imports that tie the modules together: each one but the node classes is imported', () => {
		const imported = new Set([...imports.values()].flat());
		// A single-service package's trigger is the combined package's under other names: it imports that class.
		expect(files.filter((file) => !imported.has(file)).map(name)).toEqual([
			'ChatAppMessaging/ChatAppMessaging.node.ts',
			'ChatAppTrigger/ChatAppTrigger.node.ts',
			'TimelineEventsTrigger/TimelineEventsTrigger.node.ts',
			'TimelineNavigation/TimelineNavigation.node.ts',
			'TimelineNavigationService/TimelineNavigationService.node.ts',
		]);
	});

	it('keeps every node class to what n8n and its scanner read: data and references, no code of its own', () => {
		// A constructor that only hands the node's entry to its class is allowed; any other function is logic.
		const logic: string[] = [];
		for (const file of files.filter((path) => path.endsWith('.node.ts'))) {
			const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
			const visit = (node: ts.Node): void => {
				const onlySuper =
					ts.isConstructorDeclaration(node) &&
					node.body?.statements.length === 1 &&
					ts.isExpressionStatement(node.body.statements[0]) &&
					ts.isCallExpression(node.body.statements[0].expression) &&
					node.body.statements[0].expression.expression.kind === ts.SyntaxKind.SuperKeyword;
				if (ts.isFunctionLike(node) && !onlySuper) logic.push(`${name(file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
				ts.forEachChild(node, visit);
			};
			visit(source);
		}
		expect(logic).toEqual([]);
	});

	it('names no folder as its parent folder is named', () => {
		const folders = (dir: string): string[] =>
			readdirSync(dir, { withFileTypes: true })
				.filter((entry) => entry.isDirectory())
				.flatMap((entry) => [join(dir, entry.name), ...folders(join(dir, entry.name))]);
		const twins = folders(NODE_DIR).filter((folder) => folder.split('/').at(-1) === folder.split('/').at(-2));
		expect(twins.map((folder) => relative(NODE_DIR, folder))).toEqual([]);
	});

	it('gives each node class a folder of its own, named as its file, and puts everything else in shared/', () => {
		const outsideShared = files.map(name).filter((path) => !path.startsWith('shared/'));
		expect(outsideShared.filter((path) => !/^(\w+)\/\1\.node\.ts$/.test(path))).toEqual([]);
	});

	it('has no module importing from a layer above its own', () => {
		const upward: string[] = [];
		for (const file of files) {
			const own = layerOf(file);
			for (const target of imports.get(file)!.filter((path) => path.startsWith(NODE_DIR))) {
				const imported = layerOf(target);
				if (imported.level > own.level) {
					upward.push(`${name(file)} (${own.name}) imports ${name(target)} (${imported.name})`);
				}
			}
		}
		expect(upward).toEqual([]);
	});

	it('has no import cycle among its modules', () => {
		const graph = new Map(files.map((file) => [file, imports.get(file)!.filter((path) => path.startsWith(NODE_DIR))]));
		expect(importCycles(graph).map((cycle) => cycle.map(name).join(' → '))).toEqual([]);
	});

	it('keeps the credentials and the messaging trigger off the action nodes, but for the definitions', () => {
		const trigger = ['ChatAppMessagingTrigger', 'ChatAppTrigger', 'shared/chatAppMessaging/trigger'].map((folder) => join(NODE_DIR, folder));
		const outside = [...sourceFiles(join(ROOT, 'credentials')), ...trigger.flatMap(sourceFiles)];
		const reached = outside.flatMap((file) =>
			relativeImports(file)
				.filter((path) => path.startsWith(NODE_DIR) && !trigger.some((folder) => path.startsWith(folder)) && layerOf(path).level > 0)
				.map((path) => `${relative(ROOT, file)} imports ${relative(ROOT, path)}`),
		);
		expect(reached).toEqual([]);
	});

	/** Every module a node class loads, itself included. */
	const reachedFrom = (start: string): string[] => {
		const seen = new Set<string>();
		const queue = [join(NODE_DIR, start)];
		while (queue.length > 0) {
			const file = queue.shift()!;
			if (seen.has(file)) continue;
			seen.add(file);
			queue.push(...(imports.get(file) ?? []).filter((path) => path.startsWith(NODE_DIR)));
		}
		return [...seen].map(name).sort();
	};

	it.each([
		['ChatAppMessaging/ChatAppMessaging.node.ts', 'shared/timelineNavigation/'],
		['ChatAppTrigger/ChatAppTrigger.node.ts', 'shared/timelineNavigation/'],
		['TimelineNavigationService/TimelineNavigationService.node.ts', 'shared/chatAppMessaging/'],
		['TimelineEventsTrigger/TimelineEventsTrigger.node.ts', 'shared/chatAppMessaging/'],
	])('%s, a node of one service, loads no module of %s', (node, otherService) => {
		const reached = reachedFrom(node);
		expect(reached.length).toBeGreaterThan(2);
		expect(reached.filter((path) => path.startsWith(otherService))).toEqual([]);
	});
});

describe('the repository\'s TypeScript', () => {
	it('has no import cycle anywhere: the nodes, the credentials, the tools and the tests', () => {
		const files = ['nodes', 'credentials', 'tools', 'test'].flatMap((dir) => sourceFiles(join(ROOT, dir)));
		const graph = new Map(files.map((file) => [file, relativeImports(file)]));
		expect(files.length).toBeGreaterThan(250);
		expect(importCycles(graph).map((cycle) => cycle.map((file) => relative(ROOT, file).split('\\').join('/')).join(' → '))).toEqual([]);
	});
});

describe('how imports are read (the checks above rely on it)', () => {
	it('finds an import however it is written', () => {
		const text = [
			`import { a } from "./double";`,
			`import type { B } from './typeOnly';`,
			`import './sideEffect';`,
			`export { c } from "../reExported";`,
			`export * from './star';`,
			`import d = require('./required');`,
			`const e = require("./commonjs");`,
			`async function f() { return import('./dynamic'); }`,
			`type G = typeof import('./inType');`,
			`const notAnImport = "from './nothing'";`,
		].join('\n');
		expect(moduleSpecifiers('sample.ts', text)).toEqual([
			'./double', './typeOnly', './sideEffect', '../reExported', './star', './required', './commonjs', './dynamic', './inType',
		]);
	});

	it('names each cycle once, from its first module back to it, and leaves a chain alone', () => {
		const graph = new Map([
			['a', ['b']],
			['b', ['c']],
			['c', ['a', 'd']],
			['d', []],
			['e', ['e']],
			['f', ['d']],
		]);
		expect(importCycles(graph)).toEqual([['a', 'b', 'c', 'a'], ['e', 'e']]);
	});
});
