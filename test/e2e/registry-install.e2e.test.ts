/**
 * Installing the package the way users do: Settings → Community Nodes → Install makes n8n run
 * npm against a registry. Here the registry is a local verdaccio (no uplink) that the packed
 * package is published to, and a fresh n8n (no package copied in) has its registry setting,
 * N8N_COMMUNITY_PACKAGES_REGISTRY, pointed at it. Through the REST calls the Settings page
 * makes: install the built version, the nodes load and a workflow runs against the sandbox; the
 * next patch version is published and the update installs it over the old one; the page lists
 * it (screenshot); uninstall removes the nodes. Saved-workflow fixtures (Send Template, a
 * timeline chain, the trigger and its reply) run before and after the update with the requests
 * they recorded (savedWorkflows.ts). How that n8n is set up: communityNodes.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { NODE_TYPES, PACKAGE_NAME } from '../../tools/n8n/communityPackage';
import { PROJECT_ROOT } from '../../tools/n8n/runtime';
import { repack, withVersion } from '../../tools/n8n/tarball';
import { SANDBOX_CREDENTIAL_NAMES, sandboxCredentials } from '../../tools/n8n/sandboxCredentials';
import { openBrowser, signIn } from './browserSupport';
import {
	anchorThroughWebhook,
	anchorWorkflow,
	installedManifest,
	registrySetup,
	saveAndActivate,
	servedNodeTypes,
	setCustomRegistryFeature,
	type InstalledPackage,
} from './communityNodes';
import { COMBINED } from './shippedPackages';
import { env } from './support';
import { activateFixture, newestFixtures, UPDATE_FIXTURES, type ActiveFixture, type RealRun } from './savedWorkflows';

jest.setTimeout(300_000);

const setup = registrySetup({ logName: 'registry-install', publish: [COMBINED], registryFeature: false });
const { runtime } = setup;
/** The version the project builds, and the next patch release the update test publishes. */
const VERSION: string = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')).version;
const NEXT_VERSION = VERSION.replace(/^(\d+)\.(\d+)\.(\d+).*$/, (_, major, minor, patch) => `${major}.${minor}.${Number(patch) + 1}`);

/** The tarballs of the built version (published before n8n starts) and of the next patch release. */
let tarballs: { first: string; second: string };

beforeAll(() => {
	const first = setup.tarballs.get(PACKAGE_NAME)!;
	tarballs = { first, second: repack(first, path.join(setup.scratch, `${PACKAGE_NAME}-${NEXT_VERSION}.tgz`), withVersion(NEXT_VERSION)) };
});

/**
 * How long the Community Nodes page may take to list the package. To show "update available",
 * n8n runs `npm outdated` against registry.npmjs.org whatever the registry setting; n8n 1.x
 * runs it with an environment of PATH only, which on these machines (where npm reaches the
 * registry through a proxy whose CA only the environment names) fails after about 70 s of
 * retries. 2.x keeps the environment and answers at once.
 */
const LISTING_TIMEOUT_MS = 150_000;

/** What Settings → Community Nodes lists. */
async function listed(): Promise<InstalledPackage[]> {
	return (await setup.n8n.rest('GET', '/community-packages')).body;
}

describe(`Settings → Community Nodes with a local registry (n8n ${runtime.n8nVersion})`, () => {
	let webhookPath: string;
	let savedWorkflows: ActiveFixture[] = [];
	const beforeUpdate = new Map<string, RealRun>();

	test('without the registry licence feature n8n refuses to install from a registry other than npm', async () => {
		expect(await setup.registry.versions(PACKAGE_NAME)).toEqual([VERSION]);
		expect(await listed()).toEqual([]);
		const res = await setup.n8n.rest('POST', '/community-packages', { name: PACKAGE_NAME, verify: false }, { allowError: true });
		expect(res.status).toBeGreaterThanOrEqual(400);
		expect(JSON.stringify(res.body)).toMatch(/licen[cs]e|customRegistry/i);
		expect(installedManifest(setup.n8n)).toBeUndefined();
	});

	test(`Install: n8n fetches ${VERSION} from the registry, records it and loads both nodes`, async () => {
		await setCustomRegistryFeature(setup.n8n, true);
		expect(await servedNodeTypes(setup.n8n, [])).toEqual([]);

		const res = await setup.n8n.rest('POST', '/community-packages', { name: PACKAGE_NAME, verify: false });
		const installed: InstalledPackage = res.body;
		expect(installed.packageName).toBe(PACKAGE_NAME);
		expect(installed.installedVersion).toBe(VERSION);
		expect(installed.installedNodes.map((n) => n.type).sort()).toEqual(Object.values(NODE_TYPES).sort());
		expect(installedManifest(setup.n8n)?.version).toBe(VERSION);
		expect(await servedNodeTypes(setup.n8n, Object.values(NODE_TYPES))).toEqual(Object.values(NODE_TYPES).sort());
		// npm really asked the local registry for it
		expect(setup.registry.logs()).toMatch(new RegExp(`GET /${PACKAGE_NAME}\\b`));
	});

	test('a workflow with the installed node runs against the sandbox, without a restart', async () => {
		const [credential] = await setup.n8n.importCredentials(
			sandboxCredentials(env.sandbox).filter((c) => c.name === SANDBOX_CREDENTIAL_NAMES.timeline),
		);
		webhookPath = await saveAndActivate(setup.n8n, anchorWorkflow(`Registry install: anchor from a webhook (${runtime.id})`, credential));

		const run = await anchorThroughWebhook(setup.n8n, webhookPath, true);
		expect(run.status).toBe(200);
		expect(JSON.parse(run.body).anchor_id).toMatch(/^anc_/);
		expect(run.received).toHaveLength(1);
		expect(run.received[0].responseStatus).toBe(200);
	});

	test(`saved workflows (${UPDATE_FIXTURES.join(', ')}) send the requests their fixtures recorded`, async () => {
		const credentials = await setup.n8n.importCredentials(sandboxCredentials(env.sandbox));
		savedWorkflows = [];
		for (const file of newestFixtures(UPDATE_FIXTURES)) savedWorkflows.push(await activateFixture(setup.n8n, file, credentials));

		for (const saved of savedWorkflows) {
			const run = await saved.run(1);
			expect({ fixture: saved.id, ...run }).toEqual({ fixture: saved.id, ...saved.expected });
			beforeUpdate.set(saved.id, run);
		}
	});

	test(`Update: ${NEXT_VERSION} published to the registry installs over ${VERSION} and the node keeps running`, async () => {
		setup.registry.publish(tarballs.second);
		expect((await setup.registry.versions(PACKAGE_NAME)).sort()).toEqual([VERSION, NEXT_VERSION].sort());

		const res = await setup.n8n.rest('PATCH', '/community-packages', { name: PACKAGE_NAME });
		expect(res.body).toEqual(expect.objectContaining({ packageName: PACKAGE_NAME, installedVersion: NEXT_VERSION }));
		expect(installedManifest(setup.n8n)?.version).toBe(NEXT_VERSION);
		expect(await servedNodeTypes(setup.n8n, Object.values(NODE_TYPES))).toEqual(Object.values(NODE_TYPES).sort());

		const run = await anchorThroughWebhook(setup.n8n, webhookPath);
		expect(run.status).toBe(200);
		expect(run.received).toHaveLength(1);
	});

	test(`after the update the same saved workflows send the same requests as before it`, async () => {
		expect(savedWorkflows.map((saved) => saved.id)).toHaveLength(UPDATE_FIXTURES.length);
		for (const saved of savedWorkflows) {
			const run = await saved.run(2);
			expect({ fixture: saved.id, ...run }).toEqual({ fixture: saved.id, ...beforeUpdate.get(saved.id) });
			expect({ fixture: saved.id, ...run }).toEqual({ fixture: saved.id, ...saved.expected });
		}
	});

	test('the Community Nodes settings page lists the package with its version and nodes (screenshot)', async () => {
		const browser = await openBrowser();
		const shotName = `community-nodes-${runtime.id}.png`;
		let shot: string | undefined;
		try {
			await signIn(browser.page, setup.n8n);
			// what the page itself asks n8n for, and what it shows
			const listing = browser.page.waitForResponse(
				(r) => new URL(r.url()).pathname === '/rest/community-packages' && r.request().method() === 'GET',
				{ timeout: LISTING_TIMEOUT_MS },
			);
			await browser.page.goto(`${setup.n8n.url}/settings/community-nodes`);
			const { data: packages } = (await (await listing).json()) as { data: InstalledPackage[] };
			expect(packages).toHaveLength(1);
			expect(packages[0]).toEqual(expect.objectContaining({ packageName: PACKAGE_NAME, installedVersion: NEXT_VERSION }));
			expect(packages[0].installedNodes.map((n) => n.type).sort()).toEqual(Object.values(NODE_TYPES).sort());
			expect(packages[0].failedLoading).not.toBe(true); // 2.x reports it; 1.x leaves it out

			const card = browser.page.locator('[data-test-id=community-package-card]', { hasText: PACKAGE_NAME });
			await card.waitFor();
			const text = await card.innerText();
			expect(text).toContain(NEXT_VERSION);
			for (const node of packages[0].installedNodes) expect(text).toContain(node.name);
		} finally {
			shot = await browser.shot(shotName).catch(() => undefined);
			await browser.close();
		}
		expect(fs.statSync(shot ?? '').size).toBeGreaterThan(10_000);
	});

	test('Uninstall: the package, its files and its nodes are gone, and the workflow no longer reaches the service', async () => {
		await setup.n8n.rest('DELETE', `/community-packages?name=${encodeURIComponent(PACKAGE_NAME)}`);
		expect(await listed()).toEqual([]);
		expect(installedManifest(setup.n8n)).toBeUndefined();
		expect(await servedNodeTypes(setup.n8n, [])).toEqual([]);

		const run = await anchorThroughWebhook(setup.n8n, webhookPath);
		expect(run.status).not.toBe(200);
		expect(run.received).toHaveLength(0);
	});
});
