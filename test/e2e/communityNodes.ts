/**
 * Settings → Community Nodes against a local registry, as the e2e files that install the package
 * the way users do drive it (registry-install.e2e.test.ts, release.e2e.test.ts): a fresh n8n
 * without the package, its registry setting pointed at a local verdaccio, the REST calls the
 * Settings page makes, and a workflow a user could build right after installing.
 *
 * A registry other than registry.npmjs.org is an n8n Enterprise feature (licence feature
 * `feat:communityNodes:customRegistry`). n8n's own test mode (E2E_TESTS=true) lets its licence
 * features be switched on through /rest/e2e/feature, and that switch is the only thing these
 * tests change: npm, the registry requests, loading, the database records and the node reloads
 * are n8n's own code.
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { EXAMPLE_FILES, readExample } from '../../tools/n8n/examples';
import { fetchOnOpenConnection, type N8nClient, type WorkflowJson } from '../../tools/n8n/client';
import { NODE_TYPES, PACKAGE_NAME } from '../../tools/n8n/communityPackage';
import { startN8n, type N8nInstance } from '../../tools/n8n/instance';
import { freePort } from '../../tools/n8n/processes';
import { startRegistry, type LocalRegistry } from '../../tools/n8n/registry';
import { ARTIFACTS_DIR, type Log, type N8nRuntime } from '../../tools/n8n/runtime';
import { e2eRuntime, log } from './environment';
import { packAndPublish, type ShippedPackage } from './shippedPackages';
import { sandbox } from './support';

const CUSTOM_REGISTRY_FEATURE = 'feat:communityNodes:customRegistry';

export interface InstalledPackage {
	packageName: string;
	installedVersion: string;
	installedNodes: Array<{ name: string; type: string }>;
	failedLoading?: boolean;
}

/** The log file of an n8n started by startN8nWithRegistry. */
export function registryN8nLogFile(logName: string, runtime: N8nRuntime): string {
	return path.join(ARTIFACTS_DIR, 'e2e', `n8n-${logName}-${runtime.id}.log`);
}

/**
 * An n8n without this package (unless its user folder holds packages already), installing
 * community packages from `registry`.
 */
export async function startN8nWithRegistry(o: {
	runtime: N8nRuntime;
	registry: LocalRegistry;
	/** Names the log file: .artifacts/e2e/n8n-<logName>-<runtime>.log */
	logName: string;
	log: Log;
	/** A user folder that outlives the instance (to start n8n again on it); default a fresh temp one. */
	userFolder?: string;
	/** Settings on top of (or, set to undefined, instead of) the ones below. */
	env?: Record<string, string | undefined>;
}): Promise<N8nInstance> {
	return startN8n({
		runtime: o.runtime,
		port: await freePort(),
		withoutPackage: true,
		userFolder: o.userFolder,
		logFile: registryN8nLogFile(o.logName, o.runtime),
		log: o.log,
		publicApiKey: false, // n8n 1.x switches its public API off in test mode; the editor's REST calls are used
		env: {
			E2E_TESTS: 'true',
			N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
			N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
			N8N_COMMUNITY_PACKAGES_REGISTRY: o.registry.url,
			...o.env,
		},
	});
}

/** What an e2e file that installs through Settings → Community Nodes works with (see registrySetup). */
export interface RegistrySetup {
	readonly runtime: N8nRuntime;
	/** A temporary folder of the file's own, removed after it. */
	readonly scratch: string;
	/** `<scratch>/user` with `keepUserFolder` (one user folder across every start), else undefined. */
	readonly userFolder: string | undefined;
	readonly registry: LocalRegistry;
	/** The tarball of each package published before the first start, by package name. */
	readonly tarballs: Map<string, string>;
	/** n8n's log for this file (.artifacts/e2e/n8n-<logName>-<runtime>.log), emptied before the file. */
	readonly logFile: string;
	/** The n8n started last (throws when none runs). */
	readonly n8n: N8nInstance;
	/** Starts n8n on the registry with the set-up's `env` and this `env` on top, the registry feature switched on. */
	start(env?: Record<string, string | undefined>): Promise<N8nInstance>;
	/** Stops the n8n started last, if it runs. */
	stop(): Promise<void>;
}

/**
 * The set-up of every e2e file that installs through Settings → Community Nodes: registers the
 * file's beforeAll (a scratch folder, a local registry, `publish` packed from the build and
 * published to it, n8n started on it) and afterAll (n8n, the registry and the folder gone).
 */
export function registrySetup(o: {
	/** Names the scratch folder and n8n's log. */
	logName: string;
	/** The packages published before n8n starts (default none). */
	publish?: readonly ShippedPackage[];
	/** One user folder for every start of n8n, as a user's would be (default: a fresh one each start). */
	keepUserFolder?: boolean;
	/** Settings for every start. */
	env?: Record<string, string | undefined>;
	/** Whether the first start switches the registry feature on (default true). */
	registryFeature?: boolean;
}): RegistrySetup {
	const runtime = e2eRuntime();
	const logFile = registryN8nLogFile(o.logName, runtime);
	let scratch = '';
	let registry: LocalRegistry | undefined;
	let tarballs = new Map<string, string>();
	let n8n: N8nInstance | undefined;
	const userFolder = () => (o.keepUserFolder && scratch ? path.join(scratch, 'user') : undefined);
	const launch = async (env: Record<string, string | undefined>, registryFeature: boolean) => {
		n8n = await startN8nWithRegistry({ runtime, registry: setup.registry, logName: o.logName, log, userFolder: userFolder(), env: { ...o.env, ...env } });
		if (registryFeature) await setCustomRegistryFeature(n8n, true);
		return n8n;
	};
	const setup: RegistrySetup = {
		runtime,
		logFile,
		get scratch() {
			return scratch;
		},
		get userFolder() {
			return userFolder();
		},
		get registry() {
			if (!registry) throw new Error('the local registry is not running (it starts in beforeAll)');
			return registry;
		},
		get tarballs() {
			return tarballs;
		},
		get n8n() {
			if (!n8n) throw new Error(`no n8n of ${o.logName} is running`);
			return n8n;
		},
		start: (env = {}) => launch(env, true),
		stop: async () => {
			await n8n?.stop();
			n8n = undefined;
		},
	};
	beforeAll(async () => {
		scratch = fs.mkdtempSync(path.join(os.tmpdir(), `n8n-e2e-${o.logName}-`));
		registry = await startRegistry({ log });
		tarballs = packAndPublish(o.publish ?? [], scratch, registry);
		fs.rmSync(logFile, { force: true });
		await launch({}, o.registryFeature ?? true);
	});
	afterAll(async () => {
		await setup.stop();
		await registry?.stop();
		if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
	});
	return setup;
}

/** Switches the custom-registry licence feature through n8n's test-mode endpoint. */
export async function setCustomRegistryFeature(n8n: N8nInstance, enabled: boolean): Promise<void> {
	const res = await fetchOnOpenConnection(`${n8n.url}/rest/e2e/feature`, {
		method: 'PATCH',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ feature: CUSTOM_REGISTRY_FEATURE, enabled }),
	});
	if (res.status !== 200) throw new Error(`switching ${CUSTOM_REGISTRY_FEATURE} answered HTTP ${res.status}`);
}

/**
 * Which of the node types `among` (default: this package's) the editor is served
 * (`/types/nodes.json`). n8n rewrites that file in the background after an install, update or
 * uninstall, so this polls (up to 20 s) until the file is complete and serves `expected`; it
 * returns what was served last.
 */
export async function servedNodeTypes(
	n8n: N8nClient,
	expected: string[],
	among: string[] = Object.values(NODE_TYPES),
): Promise<string[]> {
	const deadline = Date.now() + 20_000;
	let served: string[] = [];
	for (;;) {
		const res = await fetchOnOpenConnection(`${n8n.url}/types/nodes.json`, { headers: { cookie: n8n.cookie, 'browser-id': n8n.browserId } });
		if (res.status !== 200) throw new Error(`/types/nodes.json answered HTTP ${res.status}`);
		try {
			const names = ((await res.json()) as Array<{ name: string }>).map((t) => t.name);
			served = among.filter((type) => names.includes(type));
		} catch {
			// caught while n8n was writing it
		}
		if (served.sort().join() === [...expected].sort().join() || Date.now() > deadline) return served.sort();
		await new Promise((r) => setTimeout(r, 250));
	}
}

/** The package.json of the copy n8n installed of this package (or another), if any. */
export function installedManifest(n8n: N8nClient, name = PACKAGE_NAME): { version: string } | undefined {
	const file = path.join(n8n.userFolder, '.n8n', 'nodes', 'node_modules', name, 'package.json');
	return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined;
}

/**
 * A workflow a user could build right after installing: n8n's Webhook node, then the package's
 * Set Anchor (as the timeline session example has it) with the description from the request.
 */
export function anchorWorkflow(name: string, credential: { id: string; name: string }): WorkflowJson {
	const setAnchor = readExample(EXAMPLE_FILES.session).nodes.find((n) => n.type === NODE_TYPES.action);
	if (!setAnchor) throw new Error('the session example has no action node');
	const webhookId = randomUUID();
	return {
		name,
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
 * Calls the anchor workflow's production webhook; returns the HTTP status and what the sandbox
 * got. Right after an activation n8n may answer 404 for a moment (nothing runs then): with
 * `waitForRegistration` such answers are retried for up to 10 s.
 */
export async function anchorThroughWebhook(n8n: N8nInstance, webhookPath: string, waitForRegistration = false) {
	const description = `registry install check ${randomUUID()}`;
	const deadline = Date.now() + 10_000;
	let res: Response;
	for (;;) {
		res = await fetchOnOpenConnection(`${n8n.webhookBaseUrl}/${webhookPath}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ description }),
		});
		if (!waitForRegistration || res.status !== 404 || Date.now() > deadline) break;
		await new Promise((r) => setTimeout(r, 250));
	}
	const body = await res.text();
	const received = (await sandbox.requests({ method: 'POST', path: '/v1/set-anchor' })).filter(
		(r) => (r.body as { description?: string } | null)?.description === description,
	);
	return { status: res.status, body, received };
}

/** What the editor does on Save, then Publish (Activate on 1.x); returns the workflow's id. */
export async function publishWorkflow(n8n: N8nClient, workflow: WorkflowJson): Promise<string> {
	const created = (await n8n.rest('POST', '/workflows', { ...workflow, active: false })).body;
	await n8n.rest('POST', `/workflows/${created.id}/activate`, { versionId: created.versionId });
	return String(created.id);
}

/** publishWorkflow for a workflow that starts at a Webhook node; returns the webhook's path. */
export async function saveAndActivate(n8n: N8nClient, workflow: WorkflowJson): Promise<string> {
	await publishWorkflow(n8n, workflow);
	return workflow.nodes[0].parameters.path;
}

/** Settings → Community Nodes → Install, as the page asks n8n; an error answer is returned, not thrown. */
export async function installThroughSettings(n8n: N8nClient, name: string) {
	return n8n.rest('POST', '/community-packages', { name, verify: false }, { allowError: true });
}

/** Settings → Community Nodes → Uninstall, as the page asks n8n. */
export async function uninstallThroughSettings(n8n: N8nClient, name: string): Promise<void> {
	await n8n.rest('DELETE', `/community-packages?name=${encodeURIComponent(name)}`);
}
