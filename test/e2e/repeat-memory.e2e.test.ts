/**
 * The promises of Ignore Repeated Deliveries across a restart and a crash of n8n, in a real n8n
 * of this project's own (single mode, SQLite, its user folder kept across restarts), and what a
 * saved execution holds because of the memory. The oracle is docs/trigger.md, written here:
 * - an event is saved for a restarted (or another) process by its process's first call a quarter
 *   second or more after that process's previous save, so events a quarter second or more apart
 *   are each saved by their own call;
 * - after a restart or a crash, every saved event is caught; the events after the process's last
 *   save (the last quarter second's before a pause) start the workflow again;
 * - n8n 2.x stores no static data with a saved execution; n8n 1.x stores the workflow's static
 *   data, the memory included, with every saved execution;
 * - the conversation memory (`previous_inbound_at`) is saved the same way: example 02 answers a
 *   conversation once, also when n8n restarts in the middle of it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { digestOf } from '../../nodes/shared/digest';
import { NODE_TYPES } from '../../tools/n8n/communityPackage';
import { wireCredentials } from '../../tools/n8n/client';
import { queryN8nDatabase, settledExecutions } from '../../tools/n8n/database';
import { EXAMPLE_FILES, inboundReplyText, readExample, seedExampleData } from '../../tools/n8n/examples';
import { startN8n, type N8nInstance } from '../../tools/n8n/instance';
import { freePort } from '../../tools/n8n/processes';
import { ARTIFACTS_DIR, N8N_2 } from '../../tools/n8n/runtime';
import { sandboxCredentials, webhookHeadersFor } from '../../tools/n8n/sandboxCredentials';
import { webhookUrlsOf } from '../../tools/n8n/webhooks';
import { waitFor } from '../../tools/shared/wait';
import { inboundEvent, pool, post, publish, storedDigests, triggerOnlyWorkflow } from '../e2e-queue/support';
import { e2eRuntime, log } from './environment';
import { env, sandbox } from './support';

/** docs/trigger.md: a process saves its new events with its first call this long after its previous save. */
const SAVED_AFTER_MS = 250;

jest.setTimeout(600_000);

const runtime = e2eRuntime();
let n8n: N8nInstance;
let userFolder: string;
let port: number;
const start = async () => {
	n8n = await startN8n({ port, userFolder, runtime, log, logFile: path.join(ARTIFACTS_DIR, 'e2e', `repeat-memory-${runtime.id}.log`) });
};
/** n8n's own shutdown (SIGTERM), then a new start on the same database. */
const restart = async () => {
	await n8n.stop();
	await start();
};
/** A crash: SIGKILL to n8n and its task runner, nothing saved on the way out; then a new start. */
const crash = async () => {
	process.kill(-n8n.pid, 'SIGKILL');
	await n8n.stop(); // waits for the exit; the user folder stays
	await start();
};

const key = (messageId: string) => digestOf(`${messageId}|message.inbound|`);
const url = (webhookPath: string) => `${n8n.webhookBaseUrl}/${webhookPath}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Delivers each event once; every one must start the workflow. */
async function deliverAll(webhookPath: string, messageIds: string[], concurrency: number): Promise<void> {
	const answers = await pool(messageIds, concurrency, (id) => post(url(webhookPath), inboundEvent(id)));
	expect(answers.map((a) => [a.status, a.body?.started])).toEqual(messageIds.map(() => [200, true]));
}
/** Delivers each event again, one at a time: the ids whose repeat started the workflow. */
async function startedAgain(webhookPath: string, messageIds: string[]): Promise<string[]> {
	const started: string[] = [];
	for (const id of messageIds) {
		const answer = await post(url(webhookPath), inboundEvent(id, 'again'));
		expect(answer.status).toBe(200);
		if (answer.body?.started) started.push(id);
	}
	return started;
}

beforeAll(async () => {
	userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-repeat-memory-'));
	port = await freePort();
	await start();
}, 300_000);

afterAll(async () => {
	await n8n?.stop();
	fs.rmSync(userFolder, { recursive: true, force: true });
}, 120_000);

test('a restart between two copies of an event: events a quarter second apart, each saved by its own call, are all caught after n8n restarts', async () => {
	const { id, path: webhookPath } = await publish(n8n, triggerOnlyWorkflow('Repeat memory: restart between two copies'));
	const ids = Array.from({ length: 5 }, (_, i) => `msg_restart_${Date.now()}_${i}`);
	for (const messageId of ids) {
		await deliverAll(webhookPath, [messageId], 1);
		await sleep(SAVED_AFTER_MS);
	}
	expect(await settledExecutions(n8n, id)).toHaveLength(ids.length);
	await restart();
	expect(await startedAgain(webhookPath, ids)).toEqual([]);
	expect(await settledExecutions(n8n, id)).toHaveLength(ids.length);
});

test('a crash right after a burst: every saved event is caught, the events after the last save start again; a call a quarter second later had saved them', async () => {
	const burst = (tag: string) => Array.from({ length: 30 }, (_, i) => `msg_crash_${tag}_${Date.now()}_${i}`);
	// A: the crash comes right after the burst; B: one more call a quarter second after it, then the crash.
	const a = { ...(await publish(n8n, triggerOnlyWorkflow('Repeat memory: crash right after a burst'))), ids: burst('a') };
	const b = { ...(await publish(n8n, triggerOnlyWorkflow('Repeat memory: crash after one more call'))), ids: burst('b') };
	await deliverAll(a.path, a.ids, 10);
	await deliverAll(b.path, b.ids, 10);
	await sleep(SAVED_AFTER_MS);
	const later = `msg_crash_b_later_${Date.now()}`;
	await deliverAll(b.path, [later], 1);
	b.ids.push(later);
	// n8n saves a call's static data as it answers it: wait for that save, then see what is stored.
	await waitFor(`${later} in static data`, async () => (await storedDigests(n8n, b.id)).has(key(later)), { timeoutMs: 30000 });
	expect(await settledExecutions(n8n, a.id)).toHaveLength(a.ids.length);
	expect(await settledExecutions(n8n, b.id)).toHaveLength(b.ids.length);
	const storedA = await storedDigests(n8n, a.id);
	const storedB = await storedDigests(n8n, b.id);
	const unsavedA = a.ids.filter((messageId) => !storedA.has(key(messageId)));

	await crash();

	const againA = await startedAgain(a.path, a.ids);
	const againB = await startedAgain(b.path, b.ids);
	log(
		`[repeat-memory] n8n ${runtime.n8nVersion}: crash right after a burst of ${a.ids.length}: ${a.ids.length - unsavedA.length} saved, ` +
			`${againA.length} started again; with one more call a quarter second later: ${b.ids.filter((m) => storedB.has(key(m))).length} saved, ${againB.length} started again`,
	);
	expect(againA).toEqual(unsavedA);
	expect(againA).not.toContain(a.ids[0]); // the burst's first call saved its event at once
	expect(b.ids.filter((messageId) => !storedB.has(key(messageId)))).toEqual([]);
	expect(againB).toEqual([]);
});

test('what a saved execution holds because of the memory, in bytes in n8n\'s database', async () => {
	const workflow = (name: string, ignoreRepeatedDeliveries: boolean) => {
		const json = triggerOnlyWorkflow(name);
		json.nodes[0].parameters = { ignoreRepeatedDeliveries };
		return json;
	};
	// The stored workflows then differ only by the memory: "true" is one character shorter than
	// "false", the name one longer.
	const on = await publish(n8n, workflow('Repeat memory bytes: on..', true));
	const off = await publish(n8n, workflow('Repeat memory bytes: off', false));
	const ids = Array.from({ length: 40 }, (_, i) => `msg_bytes_${Date.now()}_${i}`);
	await deliverAll(on.path, ids, 1);
	await deliverAll(off.path, ids, 1);
	await settledExecutions(n8n, on.id);
	await settledExecutions(n8n, off.id);
	const bytes = async (workflowId: string) =>
		(
			await queryN8nDatabase<{ workflowData: number; withMemory: number }>(
				n8n,
				`SELECT length(CAST(d."workflowData" AS BLOB)) AS "workflowData", instr(d."workflowData", '"repeatMemory"') > 0 AS "withMemory"
				   FROM execution_entity e JOIN execution_data d ON d."executionId" = e.id WHERE e."workflowId" = $1 ORDER BY e.id`,
				[workflowId],
			)
		).map((r) => ({ workflowData: Number(r.workflowData), withMemory: Boolean(r.withMemory) }));
	const withOn = await bytes(on.id);
	const withOff = await bytes(off.id);
	expect(withOn).toHaveLength(ids.length);
	const [{ staticData }] = await queryN8nDatabase<{ staticData: string }>(n8n, 'SELECT "staticData" FROM workflow_entity WHERE id = $1', [on.id]);
	const extra = withOn.map((r, i) => r.workflowData - withOff[i].workflowData);
	log(
		`[repeat-memory] n8n ${runtime.n8nVersion}: bytes of the stored workflow per saved execution, option on − off: ` +
			`first ${extra[0]}, last ${extra.at(-1)}; static data now ${Buffer.byteLength(staticData)} bytes; ` +
			`${withOn.filter((r) => r.withMemory).length} of ${withOn.length} executions hold the memory`,
	);
	if (runtime === N8N_2) {
		expect(withOn.filter((r) => r.withMemory)).toEqual([]);
		expect(new Set(extra)).toEqual(new Set([0]));
	} else {
		// n8n 1.x: each execution carries the static data as the call loaded or saved it
		expect(withOn.every((r) => r.withMemory)).toBe(true);
		expect(Math.max(...extra)).toBeGreaterThan(0);
		expect(Math.max(...extra)).toBeLessThanOrEqual(Buffer.byteLength(staticData) + 64);
	}
});

test('example 02 across a restart: a conversation that goes on after n8n restarts gets no second reply', async () => {
	await sandbox.reset();
	await seedExampleData(sandbox);
	const creds = await n8n.importCredentials(sandboxCredentials(env.sandbox));
	const example = readExample(EXAMPLE_FILES.inboundReply);
	const id = await n8n.importWorkflow(wireCredentials({ ...example, name: `${example.name} (across a restart)` }, creds));
	await n8n.activate(id);
	const webhook = (await webhookUrlsOf(n8n, id)).find((u) => u.nodeType === NODE_TYPES.trigger)!.url;
	await sandbox.setWebhook(webhook, webhookHeadersFor(example));
	const timeZone = (await n8n.rest('GET', '/settings')).body.timezone;
	const stranger = '+15550002222';
	const replies = async () => (await sandbox.messages({ phone: stranger })).filter((m) => m.direction === 'outbound').map((m) => m.text);
	const writes = async (texts: string[]) => {
		const sent = [];
		for (const text of texts) sent.push(await sandbox.inbound(stranger, text));
		expect((await sandbox.flushWebhooks()).every((delivery) => delivery.status === 200)).toBe(true);
		// The example gathers the customer's quick messages: one run once they are quiet for 5 s.
		await new Promise((resolve) => setTimeout(resolve, 5500));
		await settledExecutions(n8n, id);
		return sent;
	};
	try {
		const first = await writes(['Hi', 'is anyone there?', 'my parcel', 'never came', 'please']);
		expect(await replies()).toEqual([inboundReplyText(undefined, first[4].timestamp, timeZone)]);
		await restart();
		// Minutes later (the sandbox's clock), the same conversation: no second reply.
		await sandbox.advanceClock(10 * 60_000);
		await writes(['Hello? Still waiting']);
		expect(await replies()).toHaveLength(1);
		// An hour after the last message: a new conversation, one reply.
		await sandbox.advanceClock(61 * 60_000);
		const later = await writes(['New question: do you ship abroad?']);
		expect(await replies()).toEqual([inboundReplyText(undefined, first[4].timestamp, timeZone), inboundReplyText(undefined, later[0].timestamp, timeZone)]);
		log(`[repeat-memory] n8n ${runtime.n8nVersion}: example 02, 5 messages, a restart, 1 more 10 min later, 1 more 61 min after: ${(await replies()).length} replies`);
	} finally {
		await sandbox.setWebhook(null);
		await n8n.deactivate(id);
	}
});
