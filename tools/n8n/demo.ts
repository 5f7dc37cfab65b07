/**
 * What `npm start` and `npm run start:queue` share: the sandbox (its page at / shows it live, with
 * the tour's "start here", demoTour.ts), an n8n set-up started by the caller, the four credentials
 * pointing at the sandbox, every examples/*.json imported, the reply example, the refund example
 * and the tour's alerts published, the sandbox's webhook pointed at the reply example's production
 * URL, one banner, and Ctrl-C stopping everything that was started. With a state file (npm
 * start's) the sandbox's world lasts across restarts and is seeded once; a reset (the page's
 * Reset) seeds it again and publishes the demo's workflows afresh.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { DemoExamples, STATE_FILE, type ExampleOutcome } from './demoExamples';
import { ALERTS_KEY, alertsWorkflow, ANOMALY_ALERT_TEMPLATE, demoTimeline, demoTour } from './demoTour';
import { EXAMPLE_DATA, EXAMPLE_FILES, seedDemo } from './examples';
import { wireCredentials, type N8nClient, type StoredCredential, type WorkflowJson } from './client';
import { NODE_TYPES } from './communityPackage';
import { portIsFree } from './processes';
import { ensureRuntime, PROJECT_ROOT, type Log } from './runtime';
import { SANDBOX_CREDENTIAL_NAMES, SANDBOX_WEBHOOK_AUTH, sandboxCredentials, webhookHeadersFor } from './sandboxCredentials';
import { webhookUrlsOf } from './webhooks';

type Sandbox = import('../sandbox/server').Sandbox;

/** What the caller started: the main n8n's client, its own banner lines, and how to stop it. */
export interface DemoN8n {
	client: N8nClient;
	/** Lines after the editor/login lines (processes, services, logs). */
	bannerLines: string[];
	/** What Ctrl-C stops, in words ("n8n", "every n8n process, PostgreSQL, Redis"). */
	stopsWhat: string;
	stop(): Promise<void>;
}

export interface DemoOptions {
	/** Preferred sandbox port (a free one if it is busy). */
	sandboxPort: number;
	/** Keep the sandbox's world in this file across restarts; `startFresh` forgets it first. */
	sandboxState?: { file: string; startFresh: boolean };
	/**
	 * Starts n8n once the sandbox is up (ports are the caller's business). Ctrl-C during the start
	 * aborts `signal`: the start must then stop what it started and fail.
	 */
	startN8n(log: Log, signal: AbortSignal): Promise<DemoN8n>;
	log?: Log;
}

export function readExamples(dir = process.env.EXAMPLES_DIR ?? path.join(PROJECT_ROOT, 'examples')): Array<{ file: string; json: WorkflowJson }> {
	if (!fs.existsSync(dir)) return [];
	return fs
		.readdirSync(dir)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((f) => ({ file: f, json: JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as WorkflowJson }));
}

export function isTriggerWorkflow(json: WorkflowJson): boolean {
	return json.nodes.some((n) => n.type === NODE_TYPES.trigger);
}

/** What the log says of an example, after its URL. */
const OUTCOME_WORDS: Record<ExampleOutcome, string> = {
	imported: 'imported',
	updated: 'updated to the current examples/ version (you had not changed it)',
	unchanged: 'as imported before',
	kept: 'kept as you changed it',
};

/**
 * The workflows npm start puts into n8n: every example imported (keeping the user's changes, see
 * demoExamples.ts) and three published: the first example with the inbox trigger (the reply; the
 * sandbox's webhooks go to it), the refund approval (the tour's refund step posts to its webhook)
 * and the tour's alerts (demoTour.ts). A reset forgets the published ones and publishes them afresh.
 */
class DemoWorkflows {
	private readonly place: DemoExamples;
	private creds: StoredCredential[] = [];
	/** The examples' files, and those npm start publishes: the reply example first, the alerts last. */
	private readonly examples = readExamples();
	private readonly replyFile = this.examples.find(({ json }) => isTriggerWorkflow(json))?.file;
	private readonly published = [this.replyFile, EXAMPLE_FILES.refundApproval, ALERTS_KEY].filter((f): f is string => f !== undefined);
	/** Where the sandbox's webhooks go, once the reply example is published. */
	webhook?: { url: string; headers: Record<string, string>; workflow: string };
	/** The examples kept as the user changed them (examples/<file>). */
	readonly keptExamples: string[] = [];
	/** The published workflows the last reset left as the user changed them (their names). */
	private keptAtReset: string[] = [];

	constructor(
		private readonly n8n: N8nClient,
		private readonly sandbox: Sandbox,
		private readonly log: Log,
	) {
		this.place = new DemoExamples(n8n.userFolder);
	}

	refundWorkflowId(): string | undefined {
		return this.place.idOf(EXAMPLE_FILES.refundApproval);
	}

	/** The credentials, and every example imported (none published yet). */
	async importAll(): Promise<void> {
		this.creds = await this.n8n.importCredentials(sandboxCredentials(this.sandbox));
		this.log(`[start] credentials: ${this.creds.map((c) => `"${c.name}" (${c.id})`).join(', ')}`);
		if (this.examples.length === 0) this.log('[start] examples/ holds no workflow yet: nothing to import');
		for (const { file, json } of this.examples) {
			const { id, outcome, newerInExamples } = await this.place.provision(this.n8n, file, wireCredentials(json, this.creds));
			let note = `, ${OUTCOME_WORDS[outcome]}`;
			if (outcome === 'kept') {
				this.keptExamples.push(`examples/${file}`);
				if (newerInExamples) note += ` (examples/${file} may differ: delete or rename this workflow and restart to get it)`;
			}
			this.log(`[start] workflow "${json.name}" from examples/${file}: ${this.n8n.url}/workflow/${id}${note}`);
		}
	}

	/**
	 * Publishes the reply example (and points the sandbox's webhooks at it), the refund example and
	 * the alerts; each one deleted by `forget` is imported afresh first.
	 */
	async publish(): Promise<void> {
		const timeline = await demoTimeline(this.sandbox.client);
		for (const file of this.published) {
			const example = this.examples.find((e) => e.file === file)?.json;
			const json = example ?? alertsWorkflow(timeline);
			const { id, outcome } = await this.place.provision(this.n8n, file, wireCredentials(json, this.creds));
			let note = file === ALERTS_KEY ? `, ${OUTCOME_WORDS[outcome]}` : '';
			try {
				await this.n8n.activate(id);
				await this.place.published(this.n8n, file);
				// the alerts poll: no webhook to wait for
				const urls = file === ALERTS_KEY ? [] : await webhookUrlsOf(this.n8n, id);
				if (file === this.replyFile) {
					const url = urls.find((u) => u.nodeType === NODE_TYPES.trigger)?.url;
					if (url) this.webhook = { url, headers: webhookHeadersFor(json), workflow: json.name };
				}
				note += `, active${urls.length ? `, webhook ${urls.map((u) => u.url).join(', ')}` : ''}`;
			} catch (err) {
				note += `, could not activate: ${(err as Error).message.split('\n')[0]}`;
			}
			this.log(`[start] published "${json.name}": ${this.n8n.url}/workflow/${id}${note}`);
		}
		if (this.webhook) {
			await this.sandbox.client.setWebhook(this.webhook.url, this.webhook.headers);
			const h = Object.keys(this.webhook.headers);
			this.log(`[start] the sandbox sends its webhooks to ${this.webhook.url}${h.length ? ` with ${h.join(', ')}` : ''}`);
		}
	}

	/** Before a reset: the published workflows the user has not changed are deleted, with what they remember. */
	async forget(): Promise<void> {
		this.keptAtReset = [];
		for (const file of this.published) {
			const outcome = await this.place.forget(this.n8n, file);
			if (outcome === 'kept') this.keptAtReset.push(this.nameOf(file));
		}
	}

	/** The names of the workflows npm start publishes, quoted. */
	publishedNames(): string[] {
		return this.published.map((file) => `"${this.nameOf(file)}"`);
	}

	private nameOf(file: string): string {
		return this.examples.find((e) => e.file === file)?.json.name ?? alertsWorkflow(undefined).name;
	}

	/** What Reset does in n8n, and what it keeps. */
	resetNote(): string {
		return (
			`Reset also imports n8n's demo workflows afresh (${this.publishedNames().join(', ')}): what they remember and their executions are forgotten, so they behave as on a first start.` +
			(this.keptAtReset.length ? ` Kept as you changed them, with what they remember: ${this.keptAtReset.map((n) => `"${n}"`).join(', ')}.` : ' One you changed in the editor is kept as it is, with what it remembers.')
		);
	}
}

/** Who the refund example asks: a contact, so the page's phone lists the manager from the start. */
const MANAGER_CONTACT = { name: 'Manager' };

/** The world npm start's demo needs: the examples' data, the manager, the anomaly alert's template. */
async function seedWorld(sandbox: Sandbox): Promise<void> {
	await seedDemo(sandbox);
	await sandbox.client.seedContact(EXAMPLE_DATA.managerPhone, { ...MANAGER_CONTACT });
	await sandbox.client.seedTemplate({ ...ANOMALY_ALERT_TEMPLATE, parameters: ANOMALY_ALERT_TEMPLATE.parameters.map((p) => ({ ...p })) });
}

/** What the banner says of the sandbox's world, read from the sandbox (seeded now or kept from before). */
async function describeWorld(sandbox: Sandbox): Promise<string> {
	const view = await sandbox.client.view();
	const demo = view.worlds.flatMap((w) => w.timelines).find((t) => t.name === EXAMPLE_DATA.timeline.name);
	const events = view.locations.find((l) => l.location === EXAMPLE_DATA.location)?.events.length ?? 0;
	const contacts = EXAMPLE_DATA.contacts.map((c) => {
		const window = view.conversations.find((conversation) => conversation.phone === c.phone)?.window;
		return `${c.phone} (${c.fields.first_name}, ${window?.open ? `window open until ${window.closesAt}` : 'window closed'})`;
	});
	return (
		`timeline "${EXAMPLE_DATA.timeline.name}" (${demo ? `${demo.timeline_id}, ${demo.anchors} anchor(s), ${demo.items} item(s)` : 'deleted: Reset on the page seeds it again'}); ` +
		`${events} events at ${EXAMPLE_DATA.location}; contacts ${contacts.join(', ')}, the manager ${EXAMPLE_DATA.managerPhone}`
	);
}

export async function runDemo(opts: DemoOptions): Promise<void> {
	const log = opts.log ?? ((line: string) => console.log(line));
	const t0 = Date.now();
	let sandbox: Sandbox | undefined;
	/** The workflows npm start publishes, once n8n is up. */
	let demo: DemoWorkflows | undefined;
	/** A fresh world (or one reset before n8n was up) waits for n8n to be seeded. */
	let unseeded = false;
	let n8n: DemoN8n | undefined;
	let starting: Promise<DemoN8n> | undefined;
	const cancelStart = new AbortController();
	let stopping: Promise<void> | undefined;

	const shutdown = (why: string) => {
		if (!stopping) {
			stopping = (async () => {
				log(`\n[start] ${why}: stopping ${n8n?.stopsWhat ?? 'what was started'} and the sandbox ...`);
				// A start still under way stops what it started, then fails.
				cancelStart.abort();
				await starting?.catch(() => undefined);
				try {
					await n8n?.stop();
				} catch (err) {
					console.error('[start] stopping n8n:', err);
				}
				try {
					await sandbox?.close();
				} catch (err) {
					console.error('[start] stopping the sandbox:', err);
				}
				log('[start] stopped.');
			})();
		}
		return stopping;
	};
	// `npm start` runs this script as npm's own child (`exec node --import tsx ...`, no shell and
	// no tsx wrapper in between), so the SIGINT or SIGTERM a process manager sends npm reaches us.
	for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.on(sig, () => {
			void shutdown(sig).then(() => process.exit(0));
		});
	}
	// npm killed outright (SIGKILL) forwards nothing: we are re-parented, and stop as well.
	const parentPid = process.ppid;
	setInterval(() => {
		if (process.ppid !== parentPid) void shutdown(`the parent process (${parentPid}) exited`).then(() => process.exit(0));
	}, 1000).unref();

	try {
		await ensureRuntime({ log });

		// 1. The sandbox, with its world as the last run left it (npm start), or empty until n8n is
		// up: a fresh world is seeded by a reset then (below), which first deletes the demo's
		// published workflows that n8n kept from an earlier world (npm start -- --reset-sandbox):
		// otherwise they would take the newly seeded events for new ones, and remember Ada.
		const { startSandbox } = await import('../sandbox/server');
		const port = (await portIsFree(opts.sandboxPort)) ? opts.sandboxPort : 0;
		if (port === 0) log(`[start] port ${opts.sandboxPort} is busy; the sandbox takes a free port`);
		sandbox = await startSandbox({
			port,
			stateFile: opts.sandboxState?.file,
			startFresh: opts.sandboxState?.startFresh,
			// The page's "see its log" for a call the sandbox could not answer (a reset n8n refused) is ours.
			log: (line) => {
				if (line.startsWith('internal error')) log(`[sandbox] ${line}`);
			},
			beforeReset: async () => demo?.forget(),
			async seed(fresh) {
				unseeded = !demo;
				if (!demo) return;
				await seedWorld(fresh);
				await demo.publish();
			},
			tour: demoTour({
				sandbox: () => sandbox!.client,
				n8n: () => (demo ? n8n?.client : undefined),
				refundWorkflowId: () => demo?.refundWorkflowId(),
				resetNote: () => demo?.resetNote() ?? 'Reset also imports the demo workflows in n8n afresh, once npm start is ready.',
			}),
		});
		log(`[start] sandbox on ${sandbox.url}; its page: ${sandbox.url}/`);
		const kept = sandbox.state;
		if (kept?.problem) log(`[start] ${kept.problem}`);

		// 2. n8n, started by the caller; 3. credentials and examples, the world, the published workflows.
		starting = opts.startN8n(log, cancelStart.signal);
		n8n = await starting;
		const client = n8n.client;
		const workflows = new DemoWorkflows(client, sandbox, log);
		await workflows.importAll();
		demo = workflows;
		const seededNow = unseeded;
		if (seededNow) await sandbox.client.reset();
		else await workflows.publish();
		const sandboxData = await describeWorld(sandbox);
		log(`[start] sandbox ${seededNow ? 'seeded' : `as saved at ${kept?.restoredFrom} in ${kept?.file}`}: ${sandboxData}`);
		const webhookTarget = workflows.webhook?.url;
		const webhookHeaders = workflows.webhook?.headers ?? {};
		const replyWorkflow = workflows.webhook?.workflow;
		const keptExamples = workflows.keptExamples;

		const inboundCurl =
			`curl -s -X POST ${sandbox.url}/_sandbox/inbound -H 'content-type: application/json' ` +
			`-d '{"from":"${EXAMPLE_DATA.demoPhone}","text":"Hello from the sandbox"}'`;
		const repliesCurl = `curl -s '${sandbox.url}/_sandbox/requests?method=POST&path=/v1/messages'`;
		const sandboxUrl = sandbox.url;
		// Each line carries the headers the trigger there checks, or the sandbox's deliveries get 401.
		const pointSandboxAt = (url: string, headers: Record<string, string>) =>
			`curl -s -X POST ${sandboxUrl}/_sandbox/webhook -H 'content-type: application/json' -d '${JSON.stringify({ url, headers })}'`;
		// A trigger of your own: the header of the sandbox's Header Auth credential (ignored by a trigger without authentication).
		const sandboxSecret = { [SANDBOX_WEBHOOK_AUTH.headerName]: SANDBOX_WEBHOOK_AUTH.secret };
		const webhookCurl = pointSandboxAt(`${client.webhookBaseUrl}/<path of your trigger>`, sandboxSecret);
		// "Execute workflow" listens on the Test URL only (n8n's /webhook-test/ twin of /webhook/).
		const testUrl = `${client.webhookBaseUrl.replace(/\/webhook$/, '/webhook-test')}/<path of your trigger>`;
		const worldLine = kept
			? `${kept.restoredFrom ? 'as the last run left it' : 'new'}, kept across restarts in ${kept.file}; to start it afresh: Reset on the page, or npm start -- --reset-sandbox`
			: 'new on every start';
		const lines = [
			'',
			'==================================================================================',
			` sandbox page: ${sandbox.url}/   (start here: four things to try, each answered on a customer's phone; the timeline; faults and the request log; live)`,
			` n8n editor:   ${client.url}/`,
			` login:        ${client.owner.email}  /  ${client.owner.password}`,
			` sandbox:      ${sandbox.url}   (timeline key ${sandbox.timelineKey}, messaging key ${sandbox.messagingKey})`,
			` sandbox data: ${sandboxData}`,
			` sandbox world: ${worldLine}`,
			` credentials:  ${Object.values(SANDBOX_CREDENTIAL_NAMES).map((n) => `"${n}"`).join(', ')}`,
			` node types:   ${Object.values(NODE_TYPES).join(', ')}`,
			` package:      built from this checkout and installed into the user folder (${path.join(client.userFolder, '.n8n', 'nodes')}), as`,
			'               npm install there does: n8n loads its nodes, but Settings > Community Nodes lists only the',
			'               packages n8n installed itself, so it is not listed there (docs/packages.md: both ways)',
			' examples:     imported; npm start never overwrites one you changed in the editor (it remembers them',
			`               in ${path.join(client.userFolder, STATE_FILE)}): to get one back as shipped, delete or`,
			'               rename it in n8n and restart',
			...(keptExamples.length ? [`               kept as you changed them: ${keptExamples.join(', ')}`] : []),
			` published:    ${workflows.publishedNames().join(', ')} (the page's start here goes through them)`,
			` public API:   ${client.url}/api/v1  (X-N8N-API-KEY: ${client.apiKey})`,
			...n8n.bannerLines,
			'',
			webhookTarget
				? ` webhooks:     the sandbox posts to ${webhookTarget}`
				: ' webhooks:     no active trigger workflow yet. Activate one, then point the sandbox at\n' +
					`               its production URL:\n   ${webhookCurl}`,
			' test your own trigger workflow: click "Execute workflow" on it, point the sandbox at the',
			'   Test URL shown in the trigger (Webhook URLs > Test URL), then simulate an inbound message:',
			`   ${pointSandboxAt(testUrl, sandboxSecret)}`,
			...(webhookTarget ? ['   and back to the published example afterwards:', `   ${pointSandboxAt(webhookTarget, webhookHeaders)}`] : []),
			' simulate an inbound message:',
			`   ${inboundCurl}`,
			...(webhookTarget
				? [
						` see the reply: the executions of "${replyWorkflow}" at ${client.url}/home/executions,`,
						'   and the messages the sandbox received (its request log):',
						`   ${repliesCurl}`,
					]
				: []),
			'',
			` ready in ${((Date.now() - t0) / 1000).toFixed(1)} s. Ctrl-C stops ${n8n.stopsWhat} and the sandbox.`,
			'==================================================================================',
		];
		log(lines.join('\n'));
	} catch (err) {
		if (cancelStart.signal.aborted) return; // Ctrl-C: the signal handler stops and exits
		console.error('[start] failed:', err instanceof Error ? err.message : err);
		await shutdown('error');
		process.exit(1);
	}
}
