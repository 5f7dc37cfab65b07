/**
 * This package as n8n knows it (its npm name, node and credential types), packed from the build
 * and installed into an n8n user folder the way n8n's community-package installer leaves it.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { PROJECT_ROOT } from './runtime';

export const PACKAGE_NAME: string = JSON.parse(
	fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8'),
).name;
export const NODE_TYPES = {
	action: `${PACKAGE_NAME}.timelineNavigation`,
	trigger: `${PACKAGE_NAME}.chatAppMessagingTrigger`,
	pollingTrigger: `${PACKAGE_NAME}.timelineNavigationEventsTrigger`,
} as const;
export const CREDENTIAL_TYPES = {
	timeline: 'timelineNavigationApi',
	messaging: 'chatAppMessagingApi',
	webhookHeader: 'chatAppWebhookHeaderAuthApi',
	webhookBasic: 'chatAppWebhookBasicAuthApi',
} as const;

/**
 * Packs one of the packages the build assembled (the combined one by default) of this project, or
 * of another checkout of it (`root`), into `destDir`; returns the tarball path.
 */
export function packPackage(destDir: string, root = PROJECT_ROOT, name = PACKAGE_NAME): string {
	// A build beside us swaps the package's folder for a new one (tools/packages/assemble.ts): a
	// pack that met the moment of the swap is tried again.
	for (let attempt = 1; ; attempt++) {
		try {
			return packOnce(destDir, root, name);
		} catch (err) {
			if (attempt === 3) throw err;
			spawnSync('sleep', ['0.5']);
		}
	}
}

function packOnce(destDir: string, root: string, name: string): string {
	const folder = path.join(root, 'dist-packages', name);
	if (!fs.existsSync(path.join(folder, 'package.json'))) {
		throw new Error(`${path.relative(root, folder)} is missing: run \`npm run build\` first`);
	}
	// Packed in a folder of its own, then renamed into place: suites running side by side pack
	// into the same folder, and none may read a tarball another is still writing.
	fs.mkdirSync(destDir, { recursive: true });
	const own = fs.mkdtempSync(path.join(destDir, '.packing-'));
	try {
		const res = spawnSync('npm', ['pack', '--json', '--pack-destination', own, '--loglevel=error'], {
			cwd: folder,
			encoding: 'utf8',
			env: runtimeEnvForProjectNpm(),
		});
		if (res.status !== 0) throw new Error(`npm pack failed: ${res.stderr || res.stdout}`);
		const { filename } = JSON.parse(res.stdout.slice(res.stdout.indexOf('[')))[0];
		fs.renameSync(path.join(own, filename), path.join(destDir, filename));
		return path.join(destDir, filename);
	} finally {
		fs.rmSync(own, { recursive: true, force: true });
	}
}

/** The project's own npm (Node 20 is fine for packing), without an outer npm run's variables. */
function runtimeEnvForProjectNpm(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
	return env;
}

/**
 * Installs the packed package into `<userFolder>/.n8n/nodes/node_modules/<name>` as n8n's
 * community-package installer leaves it (replacing any previous copy).
 */
export function installPackage(tarball: string, userFolder: string, name = PACKAGE_NAME): string {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const target = path.join(nodesDir, 'node_modules', name);
	fs.rmSync(target, { recursive: true, force: true });
	fs.mkdirSync(target, { recursive: true });
	const res = spawnSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1'], {
		encoding: 'utf8',
	});
	if (res.status !== 0) throw new Error(`extracting ${tarball} failed: ${res.stderr}`);
	const manifest = JSON.parse(fs.readFileSync(path.join(target, 'package.json'), 'utf8'));
	const version = manifest.version;
	const listed: string[] = [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])];
	const missing = listed.filter((f) => !fs.existsSync(path.join(target, f)));
	if (missing.length) {
		throw new Error(
			`the packed package lacks files its package.json lists (dist built incompletely, or a ` +
				`concurrent \`npm run build\` emptied it): ${missing.join(', ')}. Run \`npm run build\` and retry.`,
		);
	}
	const nodesPkg = path.join(nodesDir, 'package.json');
	const pkg = fs.existsSync(nodesPkg)
		? JSON.parse(fs.readFileSync(nodesPkg, 'utf8'))
		: { name: 'installed-nodes', private: true, dependencies: {} };
	pkg.dependencies = { ...(pkg.dependencies ?? {}), [name]: version };
	fs.writeFileSync(nodesPkg, JSON.stringify(pkg, null, 2) + '\n');
	return target;
}
