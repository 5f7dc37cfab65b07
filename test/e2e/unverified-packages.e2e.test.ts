/**
 * n8n 3.0's default tried on today's n8n: N8N_UNVERIFIED_PACKAGES_ENABLED=false (n8n 2.x warns
 * that its default "will change to `false`"; 3.0 makes it so). The project's packages are not
 * verified by n8n, so this is what a user of n8n 3.0 meets on each install path, for every
 * package the project ships (shippedPackages.ts), in n8n's own words:
 *
 * - Settings → Community Nodes: the page offers no install, and the install request it makes
 *   when unverified packages are allowed is refused;
 * - npm in the user folder (`~/.n8n/nodes`), then a restart: the packages load and run, and
 *   Settings → Community Nodes does not list them;
 * - N8N_COMMUNITY_PACKAGES (n8n 2.21 and later, with N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV):
 *   a package without a checksum stops n8n from starting; with its version's checksum it passes
 *   the unverified check. n8n 1.123 has neither variable and ignores them.
 *
 * One user folder throughout, as a user's would be: the local registry stands in for npm
 * (Settings → Community Nodes needs n8n's test mode and one licence feature for a registry other
 * than npm's, see communityNodes.ts).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { N8nClient } from '../../tools/n8n/client';
import type { N8nInstance } from '../../tools/n8n/instance';
import { runtimeEnv } from '../../tools/n8n/runtime';
import { sandboxCredentials } from '../../tools/n8n/sandboxCredentials';
import { openBrowser, signIn } from './browserSupport';
import {
	installThroughSettings,
	installedManifest,
	registrySetup,
	servedNodeTypes,
	type InstalledPackage,
} from './communityNodes';
import { API_CREDENTIALS, actionUse, tryUses, working } from './credentialUse';
import { log } from './environment';
import { SHIPPED, nodeTypesOf, type ShippedPackage } from './shippedPackages';
import { env, n8n as suiteN8n } from './support';

jest.setTimeout(300_000);

/** n8n 3.0's default. */
const UNVERIFIED_OFF = { N8N_UNVERIFIED_PACKAGES_ENABLED: 'false' };
/** One user folder throughout, every start with n8n 3.0's default. */
const setup = registrySetup({ logName: 'unverified-packages', publish: SHIPPED, keepUserFolder: true, env: UNVERIFIED_OFF });
const { runtime } = setup;
const N8N_1 = runtime.n8nVersion.startsWith('1.');

/** What n8n logged from `offset` (a size of its log file) on. */
const logSince = (offset: number) => (fs.existsSync(setup.logFile) ? fs.readFileSync(setup.logFile, 'utf8').slice(offset) : '');
const logSize = () => (fs.existsSync(setup.logFile) ? fs.statSync(setup.logFile).size : 0);
const { start, stop } = setup;

/** What Settings → Community Nodes lists. */
async function listed(instance: N8nInstance): Promise<InstalledPackage[]> {
	return (await instance.rest('GET', '/community-packages')).body;
}

/** n8n 2.x's warning, at every start while the variable is unset. */
const DEPRECATION =
	'N8N_UNVERIFIED_PACKAGES_ENABLED -> The default for this variable will change to `false` in a future version. Set it to `true` explicitly to keep installing unverified community packages.';

describe(`the setting on n8n ${runtime.n8nVersion}`, () => {
	test(N8N_1 ? 'n8n 1.123 says nothing of its default, set or unset' : 'unset, n8n warns at start that its default will change; set to false, it does not', () => {
		const unset = fs.readFileSync(env.n8n.logFile, 'utf8'); // the suite's n8n: the variable unset
		const setToFalse = logSince(0);
		expect(setToFalse).toContain('Editor is now accessible via');
		expect({ unset: unset.includes(DEPRECATION), setToFalse: setToFalse.includes(DEPRECATION) }).toEqual({ unset: !N8N_1, setToFalse: false });
		if (N8N_1) expect(`${unset}${setToFalse}`).not.toContain('N8N_UNVERIFIED_PACKAGES_ENABLED');
	});

	if (!N8N_1) {
		test("n8n's own report on n8n 3.0 (Settings → Migration report) says what changes, and names the instance that relies on the old default", async () => {
			// the report for n8n 3.0 lists the rules an instance is affected by
			const rule = async (instance: N8nClient) => {
				const { report } = (await instance.rest('GET', '/breaking-changes/report?version=v3')).body;
				return report.instanceResults.find((r: { ruleId: string }) => r.ruleId === 'unverified-packages-v3');
			};
			const [unset, setToFalse] = [await rule(suiteN8n), await rule(setup.n8n)];
			log(`[unverified-packages] the rule's report, variable unset: ${JSON.stringify(unset)}\nset to false: ${JSON.stringify(setToFalse)}`);
			expect(setToFalse).toBeUndefined();
			expect(unset).toEqual(
				expect.objectContaining({
					ruleTitle: 'Unverified community packages are disabled by default',
					ruleDescription:
						'The default of N8N_UNVERIFIED_PACKAGES_ENABLED changes to false. Installed community packages that are not verified by n8n will stop loading unless the variable is explicitly set to true.',
					instanceIssues: [expect.objectContaining({ title: 'Instance relies on the current default for unverified packages' })],
					recommendations: [
						{
							action: 'Set N8N_UNVERIFIED_PACKAGES_ENABLED explicitly',
							description:
								'Review your installed community packages. If any are unverified and you want to keep using them, set N8N_UNVERIFIED_PACKAGES_ENABLED=true before updating.',
						},
					],
				}),
			);
		});
	}
});

describe(`Settings → Community Nodes on n8n ${runtime.n8nVersion} with N8N_UNVERIFIED_PACKAGES_ENABLED=false`, () => {
	test.each(SHIPPED.map((pkg) => [pkg.name]))('installing %s is refused in n8n\'s words, and nothing is installed', async (name) => {
		const res = await installThroughSettings(setup.n8n, name);
		expect({ status: res.status, message: res.body?.message }).toEqual({
			status: 500,
			message: `Error loading package "${name}" :Installation of unverified community packages is forbidden!`,
		});
		expect(installedManifest(setup.n8n, name)).toBeUndefined();
		expect(await listed(setup.n8n)).toEqual([]);
	});

	test('the page says only packages verified by n8n install, from the nodes panel, and offers no install (screenshot)', async () => {
		const browser = await openBrowser();
		browser.page.setDefaultTimeout(90_000); // the editor's first load, on a loaded machine
		let shot: string | undefined;
		try {
			await signIn(browser.page, setup.n8n);
			await browser.page.goto(`${setup.n8n.url}/settings/community-nodes`);
			const page = browser.page.locator('#content, main, body').first();
			await page.getByText('Supercharge your workflows with verified community nodes', { exact: true }).waitFor();
			await page
				.getByText(
					'You can install community and partner built node packages that have been verified by n8n directly from the nodes panel. Installed packages will show up here.',
					{ exact: true },
				)
				.waitFor();
			// with unverified packages allowed, the page offers "Install a community node" here
			expect(await browser.page.getByRole('button', { name: /install/i }).count()).toBe(0);
		} finally {
			shot = await browser.shot(`unverified-packages-settings-${runtime.id}.png`).catch(() => undefined);
			await browser.close();
		}
		expect(fs.statSync(shot ?? '').size).toBeGreaterThan(10_000);
	});
});

describe(`npm in the user folder, then a restart, on n8n ${runtime.n8nVersion} with N8N_UNVERIFIED_PACKAGES_ENABLED=false`, () => {
	test('the packages load and their nodes run with a saved credential; Settings → Community Nodes does not list them', async () => {
		await stop();
		// What a user types (n8n's docs: "Install community nodes manually"), the local registry
		// standing in for npm's. --legacy-peer-deps: npm would otherwise add its own copy of
		// n8n-workflow (the packages' peer) next to them, which n8n's own installer leaves out.
		const nodesDir = path.join(setup.userFolder!, '.n8n', 'nodes');
		for (const pkg of SHIPPED) {
			const npm = spawnSync('npm', ['install', pkg.name, '--legacy-peer-deps', `--registry=${setup.registry.url}`], {
				cwd: nodesDir,
				encoding: 'utf8',
				env: runtimeEnv({}, runtime),
			});
			expect({ command: `npm install ${pkg.name}`, status: npm.status, stderr: npm.status ? npm.stderr : '' }).toEqual({
				command: `npm install ${pkg.name}`,
				status: 0,
				stderr: '',
			});
			expect(installedManifest({ userFolder: setup.userFolder! } as N8nInstance, pkg.name)).toBeDefined();
		}

		const instance = await start();
		expect(await servedNodeTypes(instance, nodeTypesOf(SHIPPED), nodeTypesOf(SHIPPED))).toEqual(nodeTypesOf(SHIPPED).sort());
		const saved = await instance.importCredentials(sandboxCredentials(env.sandbox));
		// each package's action node with its first API credential
		const uses = SHIPPED.map((pkg) => {
			const type = pkg.credentials.find((t) => API_CREDENTIALS.includes(t));
			return actionUse(pkg.nodes.action, saved.find((c) => c.type === type)!);
		});
		expect(await tryUses(instance, uses, 'Installed with npm')).toEqual(working(uses));
		expect(await listed(instance)).toEqual([]);
	});
});

/**
 * The checksum N8N_COMMUNITY_PACKAGES takes: the version's `dist.integrity` in the registry, as
 * `npm view` shows it (the sha512 of the tarball).
 */
function checksumOf(pkg: ShippedPackage): string {
	const tarball = setup.tarballs.get(pkg.name)!;
	const view = spawnSync('npm', ['view', `${pkg.name}@${versionOf(tarball)}`, 'dist.integrity', `--registry=${setup.registry.url}`], {
		encoding: 'utf8',
		env: runtimeEnv({}, runtime),
	});
	const integrity = view.stdout.trim();
	expect(integrity).toBe(`sha512-${createHash('sha512').update(fs.readFileSync(tarball)).digest('base64')}`);
	return integrity;
}
const versionOf = (tarball: string) => JSON.parse(spawnSync('tar', ['-xOzf', tarball, 'package/package.json'], { encoding: 'utf8' }).stdout).version as string;

describe(`N8N_COMMUNITY_PACKAGES on n8n ${runtime.n8nVersion} with N8N_UNVERIFIED_PACKAGES_ENABLED=false`, () => {
	const managedByEnv = (entries: object[]) => ({
		N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true',
		N8N_COMMUNITY_PACKAGES: JSON.stringify(entries),
	});

	if (N8N_1) {
		test('n8n 1.123 has no such variable: it starts, installs nothing from it and keeps Settings → Community Nodes as it was', async () => {
			await stop();
			const from = logSize();
			const instance = await start(managedByEnv(SHIPPED.map((pkg) => ({ name: pkg.name, version: versionOf(setup.tarballs.get(pkg.name)!) }))));
			expect(logSince(from)).not.toMatch(/N8N_COMMUNITY_PACKAGES|from env/);
			expect(await listed(instance)).toEqual([]);
			const res = await installThroughSettings(instance, SHIPPED[0].name);
			expect(res.body?.message).toBe(`Error loading package "${SHIPPED[0].name}" :Installation of unverified community packages is forbidden!`);
		});
		return;
	}

	test('listed by name and version, without a checksum: n8n does not start, and says why', async () => {
		await stop();
		const from = logSize();
		const first = SHIPPED[0];
		const ref = `'${first.name}@${versionOf(setup.tarballs.get(first.name)!)}'`;
		await expect(start(managedByEnv(SHIPPED.map((pkg) => ({ name: pkg.name, version: versionOf(setup.tarballs.get(pkg.name)!) }))))).rejects.toThrow(
			/exited during start/,
		);
		const logged = logSince(from);
		expect(logged).toContain(`N8N_COMMUNITY_PACKAGES: no checksum available for ${ref} and unverified packages are disabled`);
		expect(logged).toContain('Exiting due to an error.');
	});

	test("with each version's checksum (npm's dist.integrity) the packages pass the unverified check, and Settings → Community Nodes leaves them to the variable", async () => {
		const from = logSize();
		const entries = SHIPPED.map((pkg) => ({ name: pkg.name, version: versionOf(setup.tarballs.get(pkg.name)!), checksum: checksumOf(pkg) }));
		const instance = await start(managedByEnv(entries));
		const logged = logSince(from);
		expect(logged).not.toContain('no checksum available');
		// n8n went on to the registry. Here that is the local one standing in for npm's, and a
		// registry other than npm's needs an n8n Enterprise licence feature, which n8n's test mode
		// switches on only once n8n has started: the install from npm is not measured here.
		for (const { name, version } of entries) {
			expect(logged).toContain(
				`Failed to install community package '${name}@${version}' from env: Your license does not allow for feat:communityNodes:customRegistry.`,
			);
		}
		const res = await installThroughSettings(instance, SHIPPED[0].name);
		expect({ status: res.status, message: res.body?.message }).toEqual({
			status: 400,
			message: 'Community packages are managed via environment variables on this instance and cannot be modified through the API.',
		});
	});
});
