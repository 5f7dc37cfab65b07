/**
 * The combined package and the single-service editions in one n8n (shippedPackages.ts). They
 * define credential types of the same names so that a credential saved with one works with the
 * others. n8n keys node types by package (`<package>.<node>`) but credential types by name alone:
 * the package loaded last defines each shared type. Installed through Settings → Community Nodes
 * (its REST calls, against a local registry, as registry-install.e2e.test.ts does): the combined
 * package first, then each edition, across a restart, the combined package uninstalled and
 * installed again after the editions, then the editions uninstalled. What a user would notice is
 * whether the credentials they saved keep working in every node of every package (each node with
 * each credential type its package defines, against the sandbox, and n8n's HTTP Request node with
 * the credential as its Predefined Credential Type: credentialUse.ts), which credential types the
 * editor is served and offers, and what n8n logs. (The editions' node display names differ from
 * the combined package's: twin-package.e2e.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';

import { fetchOnOpenConnection, type StoredCredential, type WorkflowJson } from '../../tools/n8n/client';
import { sandboxCredentials } from '../../tools/n8n/sandboxCredentials';
import { openBrowser, signIn, type Editor } from './browserSupport';
import { installThroughSettings, registrySetup, servedNodeTypes, uninstallThroughSettings, type InstalledPackage } from './communityNodes';
import { API_CREDENTIALS, actionNodeUsing, tryUses, usesOf, working } from './credentialUse';
import { log } from './environment';
import { COMBINED, EDITIONS, nodeTypesOf, type ShippedPackage } from './shippedPackages';
import { env } from './support';

jest.setTimeout(300_000);

const combined = COMBINED;
/** One user folder across restarts; n8n's log read from the start of the file (the log checks). */
const setup = registrySetup({ logName: 'two-packages', publish: [combined, ...EDITIONS], keepUserFolder: true });
const { runtime } = setup;
/** The sandbox credentials, saved while only the combined package is installed. */
let saved: StoredCredential[] = [];

const credentialOf = (type: string) => {
	const found = saved.find((c) => c.type === type);
	if (!found) throw new Error(`no saved ${type} credential`);
	return found;
};

/** Installs through Settings → Community Nodes; n8n's answer must name the package's nodes. */
async function install(pkg: ShippedPackage): Promise<void> {
	const res = await installThroughSettings(setup.n8n, pkg.name);
	expect({ status: res.status, message: res.body?.message }).toEqual({ status: 200, message: undefined });
	const installed: InstalledPackage = res.body;
	expect(installed.installedNodes.map((n) => n.type).sort()).toEqual(nodeTypesOf([pkg]).sort());
}

/** Tries every use of the saved credentials in `packages`' nodes; each must work. */
async function expectCredentialsWorkIn(packages: readonly ShippedPackage[]): Promise<void> {
	const uses = usesOf(packages, saved);
	expect(await tryUses(setup.n8n, uses, `Saved credentials in ${packages.length} package(s)`)).toEqual(working(uses));
}

/** The saved API credential the package's action node sends with (its first API credential type). */
const apiCredentialOf = (pkg: ShippedPackage) => credentialOf(pkg.credentials.find((type) => API_CREDENTIALS.includes(type)) ?? '');

interface ServedCredentialType {
	name: string;
	displayName: string;
	supportedNodes?: string[];
}

/** The credential types the editor is served (`/types/credentials.json`), those of `types` only. */
async function servedCredentialTypes(types: string[]): Promise<ServedCredentialType[]> {
	const res = await fetchOnOpenConnection(`${setup.n8n.url}/types/credentials.json`, { headers: { cookie: setup.n8n.cookie, 'browser-id': setup.n8n.browserId } });
	expect(res.status).toBe(200);
	return ((await res.json()) as ServedCredentialType[]).filter((t) => types.includes(t.name));
}

/** The lines n8n logged that name one of the packages. */
function logLinesNaming(packages: readonly ShippedPackage[]): string[] {
	const text = fs.existsSync(setup.logFile) ? fs.readFileSync(setup.logFile, 'utf8') : '';
	return text.split('\n').filter((line) => packages.some((p) => line.includes(p.name)));
}

/** The credential types an edition shares with the combined package. */
const sharedTypes = (edition: ShippedPackage) => edition.credentials.filter((type) => combined.credentials.includes(type));

/** Stops n8n and starts it again on the same user folder: it loads the installed packages from there. */
async function restart(): Promise<void> {
	await setup.stop();
	await setup.start();
}

/** The packages whose nodes n8n serves, among `candidates`, once its node list shows `expected`. */
async function servedPackages(expected: readonly ShippedPackage[], candidates: readonly ShippedPackage[]): Promise<string[]> {
	const served = await servedNodeTypes(setup.n8n, nodeTypesOf(expected), nodeTypesOf(candidates));
	return candidates.filter((p) => nodeTypesOf([p]).every((t) => served.includes(t))).map((p) => p.name);
}

describe(`${combined.name} and the single-service editions in one n8n ${runtime.n8nVersion}`, () => {
	const everyPackage = [combined, ...EDITIONS];
	const names = (packages: readonly ShippedPackage[]) => packages.map((p) => p.name);

	test(`${combined.name} alone: the sandbox credentials saved with it work in its nodes`, async () => {
		await install(combined);
		saved = await setup.n8n.importCredentials(sandboxCredentials(env.sandbox));
		expect(await servedPackages([combined], everyPackage)).toEqual(names([combined]));
		await expectCredentialsWorkIn([combined]);
	});

	test.each(EDITIONS.map((edition) => [edition.name, edition]))(
		'%s installed after it: its nodes load beside the combined package\'s, and the saved credentials work in both',
		async (_name, edition) => {
			expect(sharedTypes(edition).length).toBeGreaterThan(0);
			await install(edition);
			const installedSoFar = [combined, ...EDITIONS.slice(0, EDITIONS.indexOf(edition) + 1)];
			expect(await servedPackages(installedSoFar, everyPackage)).toEqual(names(installedSoFar));
			await expectCredentialsWorkIn([combined, edition]);
		},
	);

	test('the editor is served each shared credential type once per package that defines it, in the order they were installed', async () => {
		const served = await servedCredentialTypes(combined.credentials);
		// n8n lists every package's credential types; the editor keeps the last entry of each name
		const packagesOf = (t: ServedCredentialType) => [...new Set((t.supportedNodes ?? []).map((node) => node.split('.')[0]))];
		for (const type of combined.credentials) {
			expect({ type, packages: served.filter((t) => t.name === type).map(packagesOf) }).toEqual({
				type,
				packages: names(everyPackage.filter((p) => p.credentials.includes(type))).map((name) => [name]),
			});
		}
	});

	test("in the editor, each package's action node shows the saved credential and offers it (screenshot)", async () => {
		const created = (await setup.n8n.rest('POST', '/workflows', { ...everyActionNode(everyPackage), active: false })).body;
		const editor = await openBrowser();
		editor.page.setDefaultTimeout(90_000); // the editor's first load, on a loaded machine
		try {
			await signIn(editor.page, setup.n8n);
			for (const pkg of everyPackage) {
				const credential = apiCredentialOf(pkg);
				expect({ node: pkg.name, ...(await credentialPicker(editor, created.id, pkg.name)) }).toEqual({
					node: pkg.name,
					shown: credential.name,
					offered: saved.filter((c) => c.type === credential.type).map((c) => c.name).sort(),
				});
			}
			await editor.shot(`two-packages-credential-${runtime.id}.png`);
		} catch (err) {
			await editor.shot(`two-packages-credential-failure-${runtime.id}.png`).catch(() => undefined);
			throw err;
		} finally {
			await editor.close();
		}
	});

	test('after a restart n8n loads the three packages from the user folder, and the saved credentials work in every node', async () => {
		await restart();
		expect(await servedPackages(everyPackage, everyPackage)).toEqual(names(everyPackage));
		await expectCredentialsWorkIn(everyPackage);
	});

	test(`${combined.name} uninstalled: the editions' nodes and the saved credentials keep working`, async () => {
		await uninstallThroughSettings(setup.n8n, combined.name);
		expect(await servedPackages(EDITIONS, everyPackage)).toEqual(names(EDITIONS));
		const editionTypes = [...new Set(EDITIONS.flatMap((e) => e.credentials))].sort();
		expect(await servedCredentialTypes(editionTypes).then((types) => [...new Set(types.map((t) => t.name))].sort())).toEqual(editionTypes);
		await expectCredentialsWorkIn(EDITIONS);
	});

	test(`${combined.name} installed again, after the editions: the saved credentials work in every node of the three`, async () => {
		await install(combined);
		expect(await servedPackages(everyPackage, everyPackage)).toEqual(names(everyPackage));
		await expectCredentialsWorkIn(everyPackage);
	});

	test(`the editions uninstalled: ${combined.name}'s nodes and the saved credentials keep working`, async () => {
		for (const edition of EDITIONS) await uninstallThroughSettings(setup.n8n, edition.name);
		expect(await servedPackages([combined], everyPackage)).toEqual(names([combined]));
		await expectCredentialsWorkIn([combined]);
	});

	test('n8n logged each install and uninstall, and nothing else about the packages', () => {
		const lines = logLinesNaming(everyPackage);
		log(`[two-packages] log lines naming the packages:\n${lines.join('\n')}`);
		expect(lines.filter((line) => !/^Community package (installed|uninstalled): /.test(line))).toEqual([]);
		expect(lines.length).toBeGreaterThanOrEqual(2 * everyPackage.length);
	});
});

/** A manual trigger and each package's action node (named after its package) with its saved API credential. */
function everyActionNode(packages: readonly ShippedPackage[]): WorkflowJson {
	const trigger = { id: randomUUID(), name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
	return {
		name: `Packages: ${packages.map((p) => p.name).join(', ')}`,
		nodes: [
			trigger,
			...packages.map((pkg, i) => ({ ...actionNodeUsing(pkg.nodes.action, apiCredentialOf(pkg)), name: pkg.name, position: [240 * (i + 1), 0] })),
		],
		connections: { Start: { main: [packages.map((pkg) => ({ node: pkg.name, type: 'main', index: 0 }))] } },
		settings: { executionOrder: 'v1' },
	};
}

/** The credential the panel of node `nodeName` shows, and the existing credentials its list offers (sorted). */
async function credentialPicker(editor: Editor, workflowId: string, nodeName: string): Promise<{ shown: string; offered: string[] }> {
	const { page } = editor;
	await page.goto(`${setup.n8n.url}/workflow/${workflowId}`);
	await page.locator('[data-test-id=canvas-node]', { hasText: nodeName }).first().dblclick();
	const ndv = page.locator('[data-test-id=ndv]');
	await ndv.waitFor();
	const field = ndv.locator('[data-test-id=node-credentials-select] input').first();
	await field.waitFor();
	const shown = await field.inputValue();
	// the first click may only focus the field
	for (let attempt = 1; (await field.getAttribute('aria-expanded')) !== 'true'; attempt++) {
		if (attempt > 5) throw new Error('the credential list did not open after 5 clicks');
		await field.click();
		await page.waitForTimeout(300);
	}
	const items = page.locator('[data-test-id^=node-credentials-select-item-]:visible:not([data-test-id$="-new"])');
	await items.first().waitFor();
	const offered = (await items.allInnerTexts()).map((text) => text.split('\n')[0].trim()).sort();
	await page.keyboard.press('Escape');
	return { shown, offered };
}
