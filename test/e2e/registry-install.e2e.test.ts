/**
 * Installing the package the way users do: Settings → Community Nodes → Install makes n8n run
 * npm against a registry. Here the registry is a local verdaccio (no uplink) that the packed
 * package is published to, and a fresh n8n (no package copied in) has its registry setting,
 * N8N_COMMUNITY_PACKAGES_REGISTRY, pointed at it. Through the REST calls the Settings page
 * makes: install the built version, the nodes load and a workflow runs against the sandbox; the
 * next patch version is published and the update installs it over the old one; the page lists
 * it (screenshot); uninstall removes the nodes.
 *
 * A registry other than registry.npmjs.org is an n8n Enterprise feature (licence feature
 * `feat:communityNodes:customRegistry`). n8n's own test mode (E2E_TESTS=true) lets its licence
 * features be switched on through /rest/e2e/feature, and that switch is the only thing this
 * test changes: npm, the registry requests, loading, the database records and the node
 * reloads are n8n's own code.
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { e2eRuntime } from '../../tools/n8n/e2e';
import { EXAMPLE_FILES, readExample } from '../../tools/n8n/examples';
import {
	NODE_TYPES,
	PACKAGE_NAME,
	freePort,
	packPackage,
	startN8n,
	type N8nInstance,
	type WorkflowJson,
} from '../../tools/n8n/instance';
import { startRegistry, type LocalRegistry } from '../../tools/n8n/registry';
import { ARTIFACTS_DIR, PROJECT_ROOT } from '../../tools/n8n/runtime';
import { repack, withVersion } from '../../tools/n8n/tarball';
import { SANDBOX_CREDENTIAL_NAMES, sandboxCredentials } from '../../tools/n8n/sandboxCredentials';
import { openBrowser, signIn } from './browserSupport';
import { env, onceRegistered, sandbox } from './support';

jest.setTimeout(300_000);

const runtime = e2eRuntime();
const CUSTOM_REGISTRY_FEATURE = 'feat:communityNodes:customRegistry';
const log = (line: string) => process.stderr.write(line + '\n');
const ARTIFACTS_DIR_E2E = path.join(ARTIFACTS_DIR, 'e2e');
/** The version the project builds, and the next patch release the update test publishes. */
const VERSION: string = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')).version;
const NEXT_VERSION = VERSION.replace(/^(\d+)\.(\d+)\.(\d+).*$/, (_, major, minor, patch) => `${major}.${minor}.${Number(patch) + 1}`);

let scratch: string;
let registry: LocalRegistry;
let n8n: N8nInstance;
let tarballs: { first: string; second: string };

interface InstalledPackage {
	packageName: string;
	installedVersion: string;
	installedNodes: Array<{ name: string; type: string }>;
	failedLoading?: boolean;
}

beforeAll(async () => {
	scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-registry-install-'));
	const first = packPackage(scratch);
	const second = repack(first, path.join(scratch, `${PACKAGE_NAME}-${NEXT_VERSION}.tgz`), withVersion(NEXT_VERSION));
	tarballs = { first, second };
	registry = await startRegistry({ log });
	registry.publish(tarballs.first);
	n8n = await startN8n({
		runtime,
		port: await freePort(),
		withoutPackage: true,
		logFile: path.join(ARTIFACTS_DIR_E2E, `n8n-registry-install-${runtime.id}.log`),
		log,
		publicApiKey: false, // n8n 1.x switches its public API off in test mode; the editor's REST calls are used
		env: {
			E2E_TESTS: 'true',
			N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
			N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
			N8N_COMMUNITY_PACKAGES_REGISTRY: registry.url,
		},
	});
});

afterAll(async () => {
	await n8n?.stop();
	await registry?.stop();
	if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** Sets one of n8n's licence features through its test-mode endpoint. */
async function setLicenceFeature(feature: string, enabled: boolean): Promise<void> {
	const res = await fetch(`${n8n.url}/rest/e2e/feature`, {
		method: 'PATCH',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ feature, enabled }),
	});
	expect(res.status).toBe(200);
}

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
	return (await n8n.rest('GET', '/community-packages')).body;
}

/**
 * Which of the package's node types the editor is served (`/types/nodes.json`). n8n rewrites that
 * file in the background after an install, update or uninstall, so this polls (up to 20 s) until
 * the file is complete and serves `expected`; it returns what was served last.
 */
async function servedNodeTypes(expected: string[]): Promise<string[]> {
	const deadline = Date.now() + 20_000;
	let served: string[] = [];
	for (;;) {
		const res = await fetch(`${n8n.url}/types/nodes.json`, { headers: { cookie: n8n.cookie, 'browser-id': n8n.browserId } });
		expect(res.status).toBe(200);
		try {
			const names = ((await res.json()) as Array<{ name: string }>).map((t) => t.name);
			served = Object.values(NODE_TYPES).filter((type) => names.includes(type));
		} catch {
			// caught while n8n was writing it
		}
		if (served.sort().join() === [...expected].sort().join() || Date.now() > deadline) return served.sort();
		await sleep(250);
	}
}

function installedManifest(): { version: string } | undefined {
	const file = path.join(n8n.userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME, 'package.json');
	return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined;
}

/**
 * A workflow a user could build right after installing: n8n's Webhook node, then the package's
 * Set Anchor (as the timeline session example has it) with the description from the request.
 */
function anchorWorkflow(credential: { id: string; name: string }): WorkflowJson {
	const setAnchor = readExample(EXAMPLE_FILES.session).nodes.find((n) => n.type === NODE_TYPES.action);
	if (!setAnchor) throw new Error('the session example has no action node');
	const webhookId = randomUUID();
	return {
		name: `Registry install: anchor from a webhook (${runtime.id})`,
		nodes: [
			{
				id: randomUUID(),
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId,
				parameters: { httpMethod: 'POST', path: webhookId, responseMode: 'lastNode', options: {} },
			},
			{
				...setAnchor,
				position: [240, 0],
				parameters: { ...setAnchor.parameters, description: '={{ $json.body.description }}' },
				credentials: { timelineNavigationApi: credential },
			},
		],
		connections: { Webhook: { main: [[{ node: setAnchor.name, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/**
 * Calls the workflow's production webhook; returns the HTTP status and what the sandbox got.
 * Right after an activation n8n may answer 404 for a moment (nothing runs then): with
 * `waitForRegistration` such answers are retried for up to 10 s.
 */
async function anchorThroughWebhook(webhookPath: string, waitForRegistration = false) {
	const description = `registry install check ${randomUUID()}`;
	const call = () =>
		fetch(`${n8n.webhookBaseUrl}/${webhookPath}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ description }),
		});
	const res = waitForRegistration ? await onceRegistered(call) : await call();
	const body = await res.text();
	const received = (await sandbox.requests({ method: 'POST', path: '/v1/set-anchor' })).filter(
		(r) => (r.body as { description?: string } | null)?.description === description,
	);
	return { status: res.status, body, received };
}

describe(`Settings → Community Nodes with a local registry (n8n ${runtime.n8nVersion})`, () => {
	let webhookPath: string;

	test('without the registry licence feature n8n refuses to install from a registry other than npm', async () => {
		expect(await registry.versions(PACKAGE_NAME)).toEqual([VERSION]);
		expect(await listed()).toEqual([]);
		const res = await n8n.rest('POST', '/community-packages', { name: PACKAGE_NAME, verify: false }, { allowError: true });
		expect(res.status).toBeGreaterThanOrEqual(400);
		expect(JSON.stringify(res.body)).toMatch(/licen[cs]e|customRegistry/i);
		expect(installedManifest()).toBeUndefined();
	});

	test(`Install: n8n fetches ${VERSION} from the registry, records it and loads both nodes`, async () => {
		await setLicenceFeature(CUSTOM_REGISTRY_FEATURE, true);
		expect(await servedNodeTypes([])).toEqual([]);

		const res = await n8n.rest('POST', '/community-packages', { name: PACKAGE_NAME, verify: false });
		const installed: InstalledPackage = res.body;
		expect(installed.packageName).toBe(PACKAGE_NAME);
		expect(installed.installedVersion).toBe(VERSION);
		expect(installed.installedNodes.map((n) => n.type).sort()).toEqual(Object.values(NODE_TYPES).sort());
		expect(installedManifest()?.version).toBe(VERSION);
		expect(await servedNodeTypes(Object.values(NODE_TYPES))).toEqual(Object.values(NODE_TYPES).sort());
		// npm really asked the local registry for it
		expect(registry.logs()).toMatch(new RegExp(`GET /${PACKAGE_NAME}\\b`));
	});

	test('a workflow with the installed node runs against the sandbox, without a restart', async () => {
		const [credential] = await n8n.importCredentials(
			sandboxCredentials(env.sandbox).filter((c) => c.name === SANDBOX_CREDENTIAL_NAMES.timeline),
		);
		const workflow = { ...anchorWorkflow(credential), active: false };
		webhookPath = workflow.nodes[0].parameters.path;
		// what the editor does on Save, then Publish (Activate on 1.x)
		const created = (await n8n.rest('POST', '/workflows', workflow)).body;
		await n8n.rest('POST', `/workflows/${created.id}/activate`, { versionId: created.versionId });

		const run = await anchorThroughWebhook(webhookPath, true);
		expect(run.status).toBe(200);
		expect(JSON.parse(run.body).anchor_id).toMatch(/^anc_/);
		expect(run.received).toHaveLength(1);
		expect(run.received[0].responseStatus).toBe(200);
	});

	test(`Update: ${NEXT_VERSION} published to the registry installs over ${VERSION} and the node keeps running`, async () => {
		registry.publish(tarballs.second);
		expect((await registry.versions(PACKAGE_NAME)).sort()).toEqual([VERSION, NEXT_VERSION].sort());

		const res = await n8n.rest('PATCH', '/community-packages', { name: PACKAGE_NAME });
		expect(res.body).toEqual(expect.objectContaining({ packageName: PACKAGE_NAME, installedVersion: NEXT_VERSION }));
		expect(installedManifest()?.version).toBe(NEXT_VERSION);
		expect(await servedNodeTypes(Object.values(NODE_TYPES))).toEqual(Object.values(NODE_TYPES).sort());

		const run = await anchorThroughWebhook(webhookPath);
		expect(run.status).toBe(200);
		expect(run.received).toHaveLength(1);
	});

	test('the Community Nodes settings page lists the package with its version and nodes (screenshot)', async () => {
		const browser = await openBrowser();
		const shotName = `community-nodes-${runtime.id}.png`;
		let shot: string | undefined;
		try {
			await signIn(browser.page, n8n);
			// what the page itself asks n8n for, and what it shows
			const listing = browser.page.waitForResponse(
				(r) => new URL(r.url()).pathname === '/rest/community-packages' && r.request().method() === 'GET',
				{ timeout: LISTING_TIMEOUT_MS },
			);
			await browser.page.goto(`${n8n.url}/settings/community-nodes`);
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
		await n8n.rest('DELETE', `/community-packages?name=${encodeURIComponent(PACKAGE_NAME)}`);
		expect(await listed()).toEqual([]);
		expect(installedManifest()).toBeUndefined();
		expect(await servedNodeTypes([])).toEqual([]);

		const run = await anchorThroughWebhook(webhookPath);
		expect(run.status).not.toBe(200);
		expect(run.received).toHaveLength(0);
	});
});
