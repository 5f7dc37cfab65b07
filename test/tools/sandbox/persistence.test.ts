// A sandbox with a state file (npm start's) keeps its world across restarts, with the same ids;
// its seed runs on a fresh world only (the first start, a fresh start asked for, a reset); a
// sandbox without one (every test's) starts empty and writes nothing.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { startSandbox, type Sandbox } from '../../../tools/sandbox/server';
import { HOUR, api } from '../../../tools/sandbox/testkit';

const ADA = '+14155550123';
let dir: string;
let file: string;
let seeds: number;
const open: Sandbox[] = [];

/** A world like npm start's: a contact who wrote in, an event at a place, a timeline. */
async function seed(sandbox: Sandbox): Promise<void> {
	seeds++;
	await sandbox.client.seedContact(ADA, { first_name: 'Ada' });
	await sandbox.client.seedEvent({ location: 'Alexandria, Egypt', time: new Date(Date.now() - 2 * HOUR).toISOString(), description: 'A ship arrives' });
	await sandbox.client.inbound(ADA, 'Is my refund on its way?');
	await api(sandbox.url, sandbox.timelineKey).post('/timelines', { name: 'Library of Alexandria' });
}

async function start(options: { startFresh?: boolean } = {}): Promise<Sandbox> {
	const sandbox = await startSandbox({ stateFile: file, seed, ...options });
	open.push(sandbox);
	return sandbox;
}

async function restart(sandbox: Sandbox): Promise<Sandbox> {
	await sandbox.close();
	return start();
}

beforeEach(() => {
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-state-'));
	file = path.join(dir, 'sandbox-state.json');
	seeds = 0;
});
afterEach(async () => {
	for (const sandbox of open.splice(0)) await sandbox.close();
	fs.rmSync(dir, { recursive: true, force: true });
});

test('the world outlasts a restart with the same ids: timelines, anomalies, anchors, travellers, events, contacts, windows, messages, deliveries, the request log, the clock', async () => {
	let sandbox = await start();
	expect(sandbox.state).toEqual({ file, restoredFrom: null });
	const timeline = api(sandbox.url, sandbox.timelineKey);
	const [demo] = (await timeline.get('/timelines')).data.timelines;
	await timeline.post('/travels', { timeline_id: demo.timeline_id });
	await timeline.post('/anchors', { timeline_id: demo.timeline_id, description: 'Before the fire' });
	await timeline.post('/rewind', { duration: '2h' });
	await timeline.post('/pause-time');
	const sent = (await api(sandbox.url, sandbox.messagingKey).post('/messages', { channel: 'chatapp', to: ADA, message_type: 'text', text: 'Hi {first_name}' })).data;
	await sandbox.client.flushWebhooks();
	await sandbox.client.read(sent.message_id);
	await sandbox.client.advanceClock(3 * HOUR);
	await sandbox.client.configure({ repeatDeliveries: 1 });
	const before = await sandbox.client.view();
	const requestsBefore = await sandbox.client.requests();
	const deliveriesBefore = await sandbox.client.webhookDeliveries();

	sandbox = await restart(sandbox);
	expect(seeds).toBe(1);
	expect(sandbox.state?.restoredFrom).toEqual(expect.any(String));
	const after = await sandbox.client.view();
	// the same conversations, messages (ids, statuses, texts), window, events (not re-timed), timelines, anomalies and travellers
	expect(after.conversations).toEqual(before.conversations);
	expect(after.conversations[0].messages.map((m) => [m.direction, m.status, m.text])).toEqual([
		['inbound', 'received', 'Is my refund on its way?'],
		['outbound', 'read', 'Hi Ada'],
	]);
	expect(after.locations).toEqual(before.locations);
	expect(after.worlds.map((w) => w.timelines)).toEqual(before.worlds.map((w) => w.timelines));
	expect(after.worlds[0].timelines[0]).toEqual(expect.objectContaining({ timeline_id: demo.timeline_id, anchors: 1, anomalies: [expect.objectContaining({ type: 'rewind' })] }));
	expect(after.worlds[0].traveller).toEqual(before.worlds[0].traveller);
	expect(after.worlds[0].traveller).toEqual(expect.objectContaining({ paused: true, timelineId: demo.timeline_id }));
	// the service answers as before, with the same ids
	expect((await api(sandbox.url, sandbox.timelineKey).get('/timelines')).data.timelines).toEqual([demo]);
	expect((await api(sandbox.url, sandbox.messagingKey).get(`/messages/${sent.message_id}`)).data.status).toBe('read');
	// the log and the deliveries go on where they were; the clock keeps its offset; the settings stay
	const requestsAfter = await sandbox.client.requests();
	expect(requestsAfter.slice(0, requestsBefore.length)).toEqual(requestsBefore);
	expect(requestsAfter.at(-1)!.id).toBeGreaterThan(requestsBefore.at(-1)!.id);
	expect(await sandbox.client.webhookDeliveries()).toEqual(deliveriesBefore);
	expect(Date.parse(await sandbox.client.now()) - Date.now()).toBeGreaterThan(3 * HOUR - 60_000);
	expect((await sandbox.client.config()).repeatDeliveries).toBe(1);
	expect((await sandbox.client.window(ADA)).closesAt).toBe(before.conversations[0].window.closesAt);
});

test('a message still "sent" when the sandbox stopped is delivered after the start', async () => {
	let sandbox = await start();
	await sandbox.client.configure({ deliveryDelayMs: 1000 });
	const sent = (await api(sandbox.url, sandbox.messagingKey).post('/messages', { channel: 'chatapp', to: ADA, message_type: 'text', text: 'Hello' })).data;
	expect((await sandbox.client.message(sent.message_id)).status).toBe('sent');
	sandbox = await restart(sandbox);
	await sandbox.client.flushWebhooks();
	expect((await sandbox.client.message(sent.message_id)).status).toBe('delivered');
});

test('no key is written to the file, not even one pasted into a refused request: worlds are saved by the key\'s place, the log masked', async () => {
	const sandbox = await start();
	expect((await api(sandbox.url, sandbox.timelineKey).post('/travel', { location: `Pasted ${sandbox.messagingKey} by mistake` })).status).toBe(400);
	await sandbox.close();
	const saved = fs.readFileSync(file, 'utf8');
	expect(saved).not.toContain(sandbox.timelineKey);
	expect(saved).not.toContain(sandbox.messagingKey);
	expect(saved).toContain('Bearer ****');
});

test('a fresh start forgets the saved world and seeds a new one; so does a reset, and the file then holds the new world', async () => {
	let sandbox = await start();
	const first = (await sandbox.client.view()).worlds[0].timelines[0].timeline_id;
	await sandbox.close();

	sandbox = await start({ startFresh: true });
	expect(sandbox.state?.restoredFrom).toBeNull();
	expect(seeds).toBe(2);
	const second = (await sandbox.client.view()).worlds[0].timelines.map((t) => t.timeline_id);
	expect(second).toHaveLength(1);
	expect(second).not.toContain(first);

	await sandbox.client.injectFault({ kind: 'status', status: 503 });
	await sandbox.client.reset();
	expect(seeds).toBe(3);
	const reset = await sandbox.client.view();
	expect(reset.faults).toEqual([]);
	expect(reset.conversations.map((c) => c.messages.length)).toEqual([1]);
	const third = reset.worlds[0].timelines[0].timeline_id;
	expect(third).not.toBe(second[0]);

	sandbox = await restart(sandbox);
	expect(seeds).toBe(3);
	expect((await sandbox.client.view()).worlds[0].timelines.map((t) => t.timeline_id)).toEqual([third]);
});

test('a file that is not a saved state is moved aside, and the sandbox says so and starts afresh', async () => {
	fs.writeFileSync(file, '{"version": 1, "clockOff');
	const sandbox = await start();
	expect(sandbox.state?.problem).toMatch(/could not be read .* moved to .*sandbox-state\.json\.unreadable and the sandbox starts afresh/);
	expect(fs.readFileSync(`${file}.unreadable`, 'utf8')).toBe('{"version": 1, "clockOff');
	expect(seeds).toBe(1);
	expect(JSON.parse(fs.readFileSync(file, 'utf8')).version).toBe(1);
});

test('a sandbox without a state file (every test\'s) starts empty, keeps nothing and runs no seed', async () => {
	const sandbox = await startSandbox();
	open.push(sandbox);
	expect(sandbox.state).toBeNull();
	const view = await sandbox.client.view();
	expect(view).toEqual(expect.objectContaining({ stateFile: null, conversations: [], locations: [], worlds: [], requests: [], deliveries: [] }));
	expect(fs.readdirSync(dir)).toEqual([]);
});
