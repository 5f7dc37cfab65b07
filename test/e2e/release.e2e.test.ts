/**
 * The release path, end to end, on a clean clone of the committed code: `npm run release -- patch
 * --ci` bumps the version, writes the CHANGELOG.md entry from the commits since the last tag,
 * commits and tags, and publishes nothing (publishing with provenance is publish.yml's job, from
 * the tag). Then what publish.yml does on the tag, its own commands read from the workflow file:
 * a checkout of the tag, its tag check, its install (`npm ci`, into a node_modules of its own),
 * the build `npm test` starts with, and each folder of dist-packages/ published (to the local
 * registry instead of npm, without provenance, which needs GitHub's OIDC token). The three
 * packages are installed through Settings → Community Nodes into one n8n, and each action node
 * run against the sandbox.
 *
 * The clone gets a tag for the version it holds (v<version> at HEAD, the previous release) and
 * two commits after it, so the entry it must write is known. It shares the project's
 * node_modules through a symlink. Runs on n8n 2.41 only.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { e2eRuntime, log } from './environment';
import type { N8nInstance } from '../../tools/n8n/instance';
import { startRegistry, type LocalRegistry } from '../../tools/n8n/registry';
import { ARTIFACTS_DIR, PROJECT_ROOT } from '../../tools/n8n/runtime';
import { sandboxCredentials } from '../../tools/n8n/sandboxCredentials';
import * as community from './communityNodes';
import { API_CREDENTIALS, actionUse, tryUses, working } from './credentialUse';
import { SHIPPED, nodeTypesOf } from './shippedPackages';
import { env } from './support';

jest.setTimeout(300_000);

const runtime = e2eRuntime();

/** The version the committed code holds (the previous release, as far as the clone knows). */
const PREVIOUS: string = JSON.parse(
	spawnSync('git', ['show', 'HEAD:package.json'], { cwd: PROJECT_ROOT, encoding: 'utf8' }).stdout,
).version;
const [major, minor, patch] = PREVIOUS.split(/[.-]/).map(Number);
const NEXT = `${major}.${minor}.${patch + 1}`;
/** The commits the release must list, oldest first (one with characters a shell or Markdown could mangle). */
const SUBJECTS = [`Release test: the first change after v${PREVIOUS}`, 'Release test: a second change, with "quotes" & (parentheses)'];

let scratch: string;
let clone: string;
let changelogBefore: string;
let tagsBefore: string[];
let release: { code: number | null; output: string };
let registry: LocalRegistry;
let n8nStarting: Promise<N8nInstance> | undefined;
let n8n: N8nInstance;

function git(args: string[], cwd = clone): string {
	const res = spawnSync('git', args, { cwd, encoding: 'utf8' });
	if (res.status !== 0) throw new Error(`git ${args.join(' ')} failed:\n${res.stderr}`);
	return res.stdout.trim();
}

/** Clones the committed code, tags its version and adds SUBJECTS as commits. */
function prepareClone(): void {
	git(['clone', '--quiet', '--no-hardlinks', PROJECT_ROOT, clone], scratch);
	git(['config', 'user.name', 'Release Test']);
	git(['config', 'user.email', 'release-test@example.invalid']);
	fs.symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(clone, 'node_modules'));
	// .gitignore's `node_modules/` matches a folder, not the symlink
	fs.appendFileSync(path.join(clone, '.git', 'info', 'exclude'), '/node_modules\n');
	git(['tag', '--force', '--annotate', `v${PREVIOUS}`, '--message', `Release ${PREVIOUS}`]);
	for (const [i, subject] of SUBJECTS.entries()) {
		fs.appendFileSync(path.join(clone, 'README.md'), `\n<!-- release test change ${i + 1} -->\n`);
		git(['commit', '--quiet', '--all', '--message', subject]);
	}
	changelogBefore = fs.readFileSync(path.join(clone, 'CHANGELOG.md'), 'utf8');
	tagsBefore = git(['tag', '--list']).split('\n');
}

/** The environment of npm commands here: without jest's and an outer npm's variables. */
function installEnv(): NodeJS.ProcessEnv {
	const childEnv: NodeJS.ProcessEnv = {};
	for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) childEnv[k] = v;
	// jest's NODE_ENV=test makes n8n's eslint plugin (in the release's lint) check its own test fixtures' names
	delete childEnv.NODE_ENV;
	// E2E_N8N narrows jest.e2e.config.js to one n8n version, and knip (in the lint) would then
	// take the other version's setup files for unused ones
	delete childEnv.E2E_N8N;
	return childEnv;
}

/**
 * The environment of the release in the clone: npm's registry set to a closed local port, so
 * that a release that tried to reach a registry (to publish, or to check an account) would fail.
 */
function cloneEnv(): NodeJS.ProcessEnv {
	return Object.assign(installEnv(), {
		npm_config_registry: 'http://127.0.0.1:9/', // the discard port: nothing listens there
		npm_config_update_notifier: 'false',
		GIT_TERMINAL_PROMPT: '0',
	});
}

/** The `run:` script of publish.yml's step called `name`, as GitHub runs it. */
function publishStep(name: string): string {
	const lines = fs.readFileSync(path.join(PROJECT_ROOT, '.github', 'workflows', 'publish.yml'), 'utf8').split('\n');
	const at = lines.findIndex((line) => line.trim() === `- name: ${name}`);
	if (at === -1) throw new Error(`publish.yml has no step "${name}": update this test`);
	const runAt = lines.findIndex((line, i) => i > at && /^\s+run:/.test(line));
	const run = lines[runAt].replace(/^\s+run:\s*/, '');
	if (run !== '|') return run;
	const indent = lines[runAt + 1].match(/^\s*/)![0];
	const block = [];
	for (const line of lines.slice(runAt + 1)) {
		if (line.trim() !== '' && !line.startsWith(indent)) break;
		block.push(line.slice(indent.length));
	}
	return block.join('\n').trim();
}

/** `npm run release -- patch --ci` in the clone (`--verbose`: the output shows every command it runs). */
function runRelease(): Promise<{ code: number | null; output: string }> {
	const childEnv = cloneEnv();
	const child = spawn('npm', ['run', 'release', '--', 'patch', '--ci', '--verbose'], { cwd: clone, env: childEnv });
	let output = '';
	child.stdout.on('data', (d) => (output += d));
	child.stderr.on('data', (d) => (output += d));
	return new Promise((resolve) =>
		child.on('close', (code) => {
			fs.mkdirSync(path.join(ARTIFACTS_DIR, 'e2e'), { recursive: true });
			fs.writeFileSync(path.join(ARTIFACTS_DIR, 'e2e', 'release.log'), output);
			resolve({ code, output });
		}),
	);
}

/** The CHANGELOG.md section of one version: its heading line and its `- ` lines. */
function changelogEntry(changelog: string, version: string): { heading: string; items: string[] } | undefined {
	const start = changelog.indexOf(`\n## ${version} `);
	if (start === -1) return undefined;
	const end = changelog.indexOf('\n## ', start + 1);
	const lines = changelog.slice(start + 1, end === -1 ? undefined : end).split('\n');
	return { heading: lines[0], items: lines.filter((l) => l.startsWith('- ')).map((l) => l.slice(2)) };
}

beforeAll(async () => {
	scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-release-'));
	clone = path.join(scratch, 'repo');
	prepareClone();
	registry = await startRegistry({ log });
	// n8n starts while the release runs (both take about a minute)
	n8nStarting = community.startN8nWithRegistry({ runtime, registry, logName: 'release', log });
	release = await runRelease();
	n8n = await n8nStarting;
}, 600_000);

afterAll(async () => {
	await (await n8nStarting?.catch(() => undefined))?.stop();
	await registry?.stop();
	if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe(`npm run release on a clean clone, then install through Community Nodes (n8n ${runtime.n8nVersion})`, () => {
	test(`npm run release -- patch --ci bumps ${PREVIOUS} to ${NEXT}, commits and tags v${NEXT}, and publishes nothing`, () => {
		if (release.code !== 0) throw new Error(`npm run release exited with ${release.code}:\n${release.output.slice(-4000)}`);
		const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(clone, file), 'utf8'));
		expect(readJson('package.json').version).toBe(NEXT);
		expect(readJson('package-lock.json').version).toBe(NEXT);

		expect(git(['log', '-1', '--format=%s'])).toBe(`Release ${NEXT}`);
		expect(git(['log', '-1', '--skip=1', '--format=%s'])).toBe(SUBJECTS[SUBJECTS.length - 1]);
		expect(git(['show', '--name-only', '--format=', 'HEAD']).split('\n').sort()).toEqual(['CHANGELOG.md', 'package-lock.json', 'package.json']);
		expect(git(['status', '--porcelain'])).toBe('');
		// an annotated tag on the release commit
		expect(git(['cat-file', '-t', `v${NEXT}`])).toBe('tag');
		expect(git(['rev-parse', `v${NEXT}^{commit}`])).toBe(git(['rev-parse', 'HEAD']));
		expect(git(['tag', '--list']).split('\n').sort()).toEqual([...tagsBefore, `v${NEXT}`].sort());

		// the release ran the build and lint first, and did not publish
		expect(release.output).toMatch(/npm run build && npm run lint/);
		expect(release.output).not.toMatch(/npm publish/);
	});

	test(`CHANGELOG.md gets an entry for ${NEXT} listing the commits since v${PREVIOUS}, and keeps the earlier entries`, () => {
		const changelog = fs.readFileSync(path.join(clone, 'CHANGELOG.md'), 'utf8');
		const entry = changelogEntry(changelog, NEXT);
		expect(entry?.heading).toMatch(new RegExp(`^## ${NEXT.replace(/\./g, '\\.')} \\(\\d{4}-\\d{2}-\\d{2}\\)$`));
		expect(entry?.items).toEqual(SUBJECTS);
		// newest first: the new entry above the earlier ones, which are kept as they were
		const earlier = changelogBefore.slice(changelogBefore.indexOf('\n## ') + 1);
		expect(changelog.indexOf(`## ${NEXT} `)).toBeLessThan(changelog.indexOf(earlier));
		expect(changelog.endsWith(earlier)).toBe(true);
		expect(changelog.match(/^# Changelog$/gm)).toHaveLength(1);
	});

	test(`publish.yml on the tag v${NEXT}: its tag check, its install (npm ci) and the build pass, and the three packages it publishes install through Community Nodes`, async () => {
		const checkout = path.join(scratch, 'checkout');
		git(['clone', '--quiet', '--no-hardlinks', '--branch', `v${NEXT}`, clone, checkout], scratch);
		const step = (name: string, run = publishStep(name)) => {
			const res = spawnSync('bash', ['-eo', 'pipefail', '-c', run], { cwd: checkout, env: { ...installEnv(), GITHUB_REF_NAME: `v${NEXT}` }, encoding: 'utf8' });
			log(`[release] publish.yml step "${name}": exit ${res.status}`);
			return { step: name, status: res.status, output: res.status ? `${res.stdout}${res.stderr}`.slice(-3000) : '' };
		};
		const pass = (name: string) => ({ step: name, status: 0, output: '' });
		const tagCheck = 'The tag names the version in package.json, and CHANGELOG.md has its entry';
		expect(step(tagCheck)).toEqual(pass(tagCheck));
		expect(publishStep('Install')).toMatch(/^npm ci\b/);
		expect(step('Install')).toEqual(pass('Install'));
		expect(fs.lstatSync(path.join(checkout, 'node_modules')).isSymbolicLink()).toBe(false);
		// `npm test` (publish.yml's next step) starts with the build; its lint and jest run in `npm test` here
		const { scripts } = JSON.parse(fs.readFileSync(path.join(checkout, 'package.json'), 'utf8'));
		const build = scripts.test.split(' && ')[0];
		expect(build).toBe('npm run build');
		expect(step(build, build)).toEqual(pass(build));

		// its publish loop: each folder of dist-packages/, at the tag's version
		expect(publishStep('Publish the three packages with provenance')).toContain('npm publish --provenance --access public "$folder"');
		const folders = fs.readdirSync(path.join(checkout, 'dist-packages')).sort();
		expect(folders).toEqual(SHIPPED.map((pkg) => pkg.name).sort());
		for (const folder of folders) {
			const manifest = JSON.parse(fs.readFileSync(path.join(checkout, 'dist-packages', folder, 'package.json'), 'utf8'));
			expect({ folder, version: manifest.version }).toEqual({ folder, version: NEXT });
			registry.publish(path.join(checkout, 'dist-packages', folder));
		}
		for (const pkg of SHIPPED) expect({ name: pkg.name, versions: await registry.versions(pkg.name) }).toEqual({ name: pkg.name, versions: [NEXT] });

		await community.setCustomRegistryFeature(n8n, true);
		for (const pkg of SHIPPED) {
			const install = await community.installThroughSettings(n8n, pkg.name);
			expect({ status: install.status, message: install.body?.message }).toEqual({ status: 200, message: undefined });
			expect(install.body).toEqual(expect.objectContaining({ packageName: pkg.name, installedVersion: NEXT }));
			expect((install.body as community.InstalledPackage).installedNodes.map((node) => node.type).sort()).toEqual(nodeTypesOf([pkg]).sort());
			expect(community.installedManifest(n8n, pkg.name)?.version).toBe(NEXT);
		}
		expect(await community.servedNodeTypes(n8n, nodeTypesOf(SHIPPED), nodeTypesOf(SHIPPED))).toEqual(nodeTypesOf(SHIPPED).sort());
	});

	test(`each installed ${NEXT} action node reaches the sandbox with its saved credential`, async () => {
		const saved = await n8n.importCredentials(sandboxCredentials(env.sandbox));
		const uses = SHIPPED.map((pkg) => {
			const type = pkg.credentials.find((t) => API_CREDENTIALS.includes(t));
			return actionUse(pkg.nodes.action, saved.find((c) => c.type === type)!);
		});
		expect(await tryUses(n8n, uses, `Release ${NEXT}`)).toEqual(working(uses));
	});
});
