/**
 * The compatibility smoke on one n8n version (jest.compat.config.js's `E2E_N8N`, a version of
 * tools/n8n/versions.ts; `npm run test:compat` runs it per version). Each package is installed
 * as its README says, `npm install <package> --legacy-peer-deps` in the user folder's nodes/
 * (from a local registry standing in for npm's), then n8n starts on that folder and every check
 * of checks.ts the package has runs: the combined package in one n8n, the two single-service
 * packages together in another.
 *
 * What each version must do: from the package's floor on, every check works, except a feature
 * below its own floor, where the node says which n8n it needs; below the package's floor the
 * nodes are listed (with their notice) and every run is refused in those words. What each check
 * gave is written to .artifacts/compat/<version>.json, from which tools/compat/ writes the table.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { N8N_FLOOR } from '../../nodes/shared/n8nVersion';
import type { StoredCredential } from '../../tools/n8n/client';
import { compatResultFile, WORKS, type VersionResults } from '../../tools/compat/results';
import { startN8n, type N8nInstance } from '../../tools/n8n/instance';
import { freePort } from '../../tools/n8n/processes';
import { startRegistry, type LocalRegistry } from '../../tools/n8n/registry';
import { ARTIFACTS_DIR, runtimeEnv } from '../../tools/n8n/runtime';
import { sandboxCredentials } from '../../tools/n8n/sandboxCredentials';
import { e2eRuntime, log } from '../e2e/environment';
import { COMBINED, EDITIONS, SHIPPED, packAndPublish, type ShippedPackage } from '../e2e/shippedPackages';
import { env, sandbox } from '../e2e/support';
import { CHECKS, type SmokeCheck } from './checks';

jest.setTimeout(600_000);

const runtime = e2eRuntime();
const version = runtime.n8nVersion;

/** The n8n instances of the smoke: each with the packages a user would install together. */
const INSTALLS: Array<{ name: string; packages: readonly ShippedPackage[] }> = [
	{ name: 'combined', packages: [COMBINED] },
	{ name: 'editions', packages: EDITIONS },
];

/** Whether `version` (major.minor.patch) is `floor` (major.minor or major.minor.patch) or newer. */
const versionAtLeast = (version: string, floor: string) => {
	const [a, b] = [version, floor].map((v) => v.split('.').map(Number));
	for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
	return true;
};

/** What `check` must give on this version: WORKS, or the words the node refuses with. */
function expected(check: SmokeCheck): string {
	if (!versionAtLeast(version, N8N_FLOOR)) return check.onlyLooks ? WORKS : (check.belowFloorN8nSays ?? `This node needs n8n ${N8N_FLOOR} or newer`);
	if (check.since && !versionAtLeast(version, check.since)) return `needs n8n ${check.since} or newer`;
	return WORKS;
}

const results: Omit<VersionResults, 'passed'> = {
	n8n: version,
	node: runtime.nodeVersion,
	ranAt: new Date().toISOString(),
	checks: CHECKS.map(({ id, title }) => ({ id, title, outcomes: {} })),
};
let scratch: string;
let registry: LocalRegistry;

beforeAll(async () => {
	scratch = fs.mkdtempSync(path.join(os.tmpdir(), `n8n-compat-${version}-`));
	registry = await startRegistry({ log });
	packAndPublish(SHIPPED, scratch, registry);
	await sandbox.reset();
});

afterAll(async () => {
	await registry?.stop();
	if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
	results.checks = results.checks.filter((check) => Object.keys(check.outcomes).length > 0);
	const file = compatResultFile(version);
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
	log(`[compat] n8n ${version}: results in ${path.relative(process.cwd(), file)}`);
});

/** `npm install <name> --legacy-peer-deps` in the user folder's nodes/, as the package's README says. */
function installAsUsersDo(userFolder: string, pkg: ShippedPackage): void {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(nodesDir, { recursive: true });
	if (!fs.existsSync(path.join(nodesDir, 'package.json'))) {
		fs.writeFileSync(path.join(nodesDir, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2));
	}
	const npm = spawnSync('npm', ['install', pkg.name, '--legacy-peer-deps', `--registry=${registry.url}`, '--no-audit', '--no-fund'], {
		cwd: nodesDir,
		encoding: 'utf8',
		env: runtimeEnv({}, runtime),
	});
	if (npm.status !== 0) throw new Error(`npm install ${pkg.name} failed:\n${npm.stdout}\n${npm.stderr}`);
}

describe.each(INSTALLS)(`n8n ${version} (Node ${runtime.nodeVersion}): %s`, (install) => {
	let n8n: N8nInstance;
	let credentials: StoredCredential[];

	beforeAll(async () => {
		const userFolder = path.join(scratch, install.name);
		for (const pkg of install.packages) installAsUsersDo(userFolder, pkg);
		n8n = await startN8n({
			runtime,
			port: await freePort(),
			userFolder,
			withoutPackage: true,
			logFile: path.join(ARTIFACTS_DIR, 'compat', `n8n-${version}-${install.name}.log`),
			log,
		});
		credentials = await n8n.importCredentials(sandboxCredentials(env.sandbox));
	});

	afterAll(async () => {
		await n8n?.stop();
	});

	const cases = install.packages.flatMap((pkg) => CHECKS.filter((check) => check.appliesTo(pkg)).map((check) => ({ pkg, check })));
	test.each(cases.map((c) => [c.check.title, c.pkg.name, c]))('%s: %s', async (_title, _name, { pkg, check }) => {
		const outcome = await check.run({
			n8n,
			pkg,
			version,
			log,
			credential: (type) => {
				const found = credentials.find((c) => c.type === type);
				if (!found) throw new Error(`no saved ${type} credential`);
				return found;
			},
		}).catch((err: Error) => `the check failed: ${err.message.split('\n')[0]}`);
		log(`[compat] n8n ${version} ${pkg.name} ${check.title}: ${outcome}`);
		results.checks.find((entry) => entry.id === check.id)!.outcomes[pkg.name] = outcome;
		const want = expected(check);
		if (want === WORKS) expect(outcome).toBe(WORKS);
		else expect(outcome).toContain(want);
	});
});
