// The trigger's repeat memory as n8n uses it: for every webhook call n8n loads the workflow's
// static data from its database (a fresh copy, made observable by n8n-workflow's ObservableObject
// as n8n's Workflow does), the trigger checks and records the event, and n8n saves the whole
// object back only if the call changed it. Restarts are simulated by a new workflow id for the
// process memory (what a restarted n8n process starts with: nothing).
import { ObservableObject, type IDataObject, type IObservableObject } from 'n8n-workflow';
import {
	deliveryMemory,
	GENERATION_SIZE,
	MAX_STORED,
	STORED_MEMORY_KEY,
	type StoredMemory,
} from '../../../nodes/shared/chatAppMessaging/trigger/deliveryMemory';
import { previousInbound } from '../../../nodes/shared/chatAppMessaging/trigger/senderMemory';
import { DIGEST_LENGTH } from '../../../nodes/shared/digest';

const HOUR_MS = 60 * 60 * 1000;
/**
 * What the README promises of Ignore Repeated Deliveries (docs/trigger.md), written here rather
 * than read from the code: the last 5,000 events of the past 48 hours (up to an hour more) in one
 * process; an event is saved for other processes and restarts by its process's first call a
 * quarter second or more after that process's previous save.
 */
const REMEMBERED = 5000;
const REMEMBERED_FOR_MS = 48 * HOUR_MS;
const REMEMBERED_AT_MOST_MS = 49 * HOUR_MS;
const SAVED_AFTER_MS = 250;

const NODE = 'node:Chat-App Messaging Trigger';
const copy = <T>(data: T): T => JSON.parse(JSON.stringify(data));
const storedOf = (db: { saved: IDataObject }) => (db.saved[NODE] as IDataObject | undefined)?.[STORED_MEMORY_KEY] as StoredMemory;
const storedCount = (db: { saved: IDataObject }) => storedOf(db).gens.reduce((sum, gen) => sum + gen.keys.length / DIGEST_LENGTH, 0);

let processes = 0;
/** A trigger node as one n8n process sees it; `db.saved` is the static data n8n last saved. */
function n8nProcess(db: { saved: IDataObject }) {
	const owner = { workflowId: `workflow-${++processes}`, nodeName: 'Chat-App Messaging Trigger' };
	/** One webhook call up to its check: load an observable copy, check and record. */
	const call = (key: string, now: number) => {
		// as n8n's Workflow builds it, and getStaticData('node', ...) adds the node's part
		const loaded = ObservableObject.create(copy(db.saved), undefined, { ignoreEmptyOnFirstChild: true }) as IDataObject;
		if (!loaded[NODE]) loaded[NODE] = ObservableObject.create({}, loaded as IObservableObject);
		const first = deliveryMemory(loaded[NODE] as IDataObject, owner).firstDelivery(key, now);
		const changed = (loaded as { __dataChanged?: boolean }).__dataChanged === true;
		// n8n's saveStaticData: only a changed copy is written, as a whole
		return { first, changed, save: () => changed && (db.saved = copy(loaded)) };
	};
	return {
		/** A whole call: load, check and record, save if changed. */
		deliver(key: string, now: number): boolean {
			const c = call(key, now);
			c.save();
			return c.first;
		},
		/** A copy loaded now and saved later: a call in flight. */
		begin: call,
	};
}

describe('the repeat memory', () => {
	it('in one process, a call that started from an older copy of static data still sees the repeat', () => {
		const db = { saved: {} };
		const n8n = n8nProcess(db);
		const now = Date.now();
		const a = n8n.begin('msg_1|message.inbound|', now);
		const b = n8n.begin('msg_1|message.inbound|', now + 1); // loaded before a saved
		expect([a.first, b.first]).toEqual([true, false]);
	});

	it("a process's first event is saved by its own call; another process, or a restarted one, knows it", () => {
		const db = { saved: {} };
		const now = Date.now();
		expect(n8nProcess(db).deliver('msg_1|message.inbound|', now)).toBe(true);
		expect(n8nProcess(db).deliver('msg_1|message.inbound|', now + 1)).toBe(false);
		// two calls in flight on two processes, both loaded before either saved: both pass
		const [p, q] = [n8nProcess(db), n8nProcess(db)];
		const a = p.begin('msg_2|message.inbound|', now + 2000);
		const b = q.begin('msg_2|message.inbound|', now + 2000);
		expect([a.first, b.first]).toEqual([true, true]);
	});

	it(`events a quarter second or more apart are each saved by their own call`, () => {
		const db = { saved: {} };
		const p = n8nProcess(db);
		const now = Date.now();
		for (let i = 0; i < 20; i++) expect(p.deliver(`msg_${i}||`, now + i * SAVED_AFTER_MS)).toBe(true);
		const restarted = n8nProcess(db);
		const forgotten = Array.from({ length: 20 }, (_, i) => `msg_${i}||`).filter((key) => restarted.deliver(key, now + 20 * SAVED_AFTER_MS));
		expect(forgotten).toEqual([]);
	});

	it('a burst: every repeat is caught in the process; the events after its last save reach static data with its first call a quarter second later', () => {
		const db = { saved: {} };
		const p = n8nProcess(db);
		const now = Date.now();
		const burst = Array.from({ length: 200 }, (_, i) => `msg_burst_${i}||`);
		const at = (i: number) => now + Math.floor((i * SAVED_AFTER_MS) / 2 / burst.length); // within half the interval
		const saves = burst.map((key, i) => p.begin(key, at(i)));
		for (const c of saves) c.save();
		expect(saves.map((c) => c.first).every(Boolean)).toBe(true);
		expect(saves.filter((c) => c.changed)).toHaveLength(1); // one database write for the burst
		expect(burst.filter((key) => p.deliver(key, now + SAVED_AFTER_MS * 0.75))).toEqual([]); // repeats, in the process

		// a restart now forgets the burst's events after the first: the trade-off for one write
		const before = n8nProcess(db);
		expect(burst.filter((key) => before.deliver(key, now + SAVED_AFTER_MS * 0.9))).toEqual(burst.slice(1));

		// a call a quarter second after the save (any call: here a repeat) saves them
		const db2 = { saved: {} };
		const q = n8nProcess(db2);
		for (const [i, key] of burst.entries()) q.deliver(key, at(i));
		expect(q.deliver(burst[0], now + SAVED_AFTER_MS)).toBe(false);
		const after = n8nProcess(db2);
		expect(burst.filter((key) => after.deliver(key, now + 2 * SAVED_AFTER_MS))).toEqual([]);
	});

	it('a call that records nothing new, or whose process saved less than a quarter second ago, leaves static data unchanged', () => {
		const db = { saved: {} };
		const p = n8nProcess(db);
		const now = Date.now();
		expect(n8nProcess({ saved: {} }).begin('msg_1||', now).changed).toBe(true); // a process's first event
		p.deliver('msg_1||', now);
		expect(p.begin('msg_1||', now + 5000).changed).toBe(false); // a repeat, nothing to save
		expect(p.begin('msg_2||', now + SAVED_AFTER_MS - 1).changed).toBe(false); // saved just under the interval ago
	});

	it('an event dropped by a concurrent save is written back by the next save of the process that recorded it', () => {
		const db = { saved: {} };
		const [p, q] = [n8nProcess(db), n8nProcess(db)];
		const now = Date.now();
		const a = p.begin('msg_a|message.inbound|', now);
		const b = q.begin('msg_b|message.inbound|', now); // loaded before a saved
		a.save();
		b.save(); // overwrites a's save: msg_a is gone from static data
		expect(n8nProcess(db).begin('msg_a|message.inbound|', now + 10).first).toBe(true);

		p.deliver('msg_c|message.inbound|', now + SAVED_AFTER_MS);
		// a restarted process (nothing in memory) knows all three from static data
		const restarted = n8nProcess(db);
		for (const id of ['msg_a', 'msg_b', 'msg_c']) expect(restarted.deliver(`${id}|message.inbound|`, now + 2000)).toBe(false);
	});

	it('a call that loaded static data long before it saved: the next save of its process restores every event', () => {
		const db = { saved: {} };
		const p = n8nProcess(db);
		const now = Date.now();
		for (let i = 0; i < 15; i++) p.deliver(`msg_${i}||`, now + i * SAVED_AFTER_MS);
		const slow = p.begin('msg_late||', now + 15 * SAVED_AFTER_MS); // loaded now, saved after 85 more deliveries
		for (let i = 15; i < 100; i++) p.deliver(`msg_${i}||`, now + (i + 1) * SAVED_AFTER_MS);
		slow.save(); // its save is the last one: events 15..99 are gone from static data
		p.deliver('msg_next||', now + 101 * SAVED_AFTER_MS);

		const restarted = n8nProcess(db);
		const keys = [...Array.from({ length: 100 }, (_, i) => `msg_${i}||`), 'msg_late||', 'msg_next||'];
		expect(keys.filter((key) => restarted.deliver(key, now + 102 * SAVED_AFTER_MS))).toEqual([]);
	});

	it('two processes, saves in an order that drops events: once each has saved again, static data holds the events of both', () => {
		const db = { saved: {} };
		const [p, q] = [n8nProcess(db), n8nProcess(db)];
		const now = Date.now();
		for (let i = 0; i < 30; i++) {
			// 3 calls in flight, a quarter second after the last ones, saved in reverse order
			const at = now + i * SAVED_AFTER_MS;
			const calls = [p.begin(`msg_p${i}||`, at), q.begin(`msg_q${i}||`, at), p.begin(`msg_p${i}b||`, at)];
			for (const c of calls.reverse()) c.save();
		}
		p.deliver('msg_p_last||', now + 40 * SAVED_AFTER_MS);
		q.deliver('msg_q_last||', now + 41 * SAVED_AFTER_MS);
		const restarted = n8nProcess(db);
		const keys = Array.from({ length: 30 }, (_, i) => [`msg_p${i}||`, `msg_q${i}||`, `msg_p${i}b||`]).flat();
		expect(keys.filter((key) => restarted.deliver(key, now + 50 * SAVED_AFTER_MS))).toEqual([]);
	});

	it('distinct events are never taken for repeats: two processes, 10 calls in flight, saves in any order', () => {
		// The queue suite's load (distinct status events, round-robin over two webhook processes),
		// with calls that load, check and save in a shuffled order, over several generations.
		const db = { saved: {} };
		const webhookProcesses = [n8nProcess(db), n8nProcess(db)];
		const now = Date.now();
		let seed = 23;
		const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
		const takenForRepeats: string[] = [];
		const inFlight: Array<{ save(): void }> = [];
		const total = 3 * GENERATION_SIZE + 10;
		for (let i = 0; i < total; i++) {
			const key = `msg_load_${i}|message.status|delivered`;
			const c = webhookProcesses[i % 2].begin(key, now + i * 20);
			if (!c.first) takenForRepeats.push(key);
			inFlight.push(c);
			while (inFlight.length >= 10 || (i === total - 1 && inFlight.length)) inFlight.splice(Math.floor(random() * inFlight.length), 1)[0].save();
		}
		expect(takenForRepeats).toEqual([]);
	});

	it(`after many deliveries: the last ${REMEMBERED} are repeats in the process and after a restart; at most ${MAX_STORED} stored, in about 9 bytes each`, () => {
		const db = { saved: {} };
		const p = n8nProcess(db);
		const start = Date.now() - 3 * HOUR_MS;
		const total = MAX_STORED + 1234;
		const at = (i: number) => start + i * 100; // 10 deliveries a second
		let started = 0;
		for (let i = 0; i < total; i++) if (p.deliver(`msg_${i}|message.status|read`, at(i))) started++;
		expect(started).toBe(total);
		const end = at(total) + SAVED_AFTER_MS;
		p.deliver('msg_last|message.status|read', end); // the call that saves the last events

		expect(storedCount(db)).toBeLessThanOrEqual(MAX_STORED);
		expect(storedCount(db)).toBeGreaterThanOrEqual(REMEMBERED);
		expect(JSON.stringify(db.saved).length).toBeLessThan(MAX_STORED * 10);

		const last = Array.from({ length: REMEMBERED - 1 }, (_, k) => `msg_${total - REMEMBERED + 1 + k}|message.status|read`);
		expect(last.filter((key) => p.deliver(key, end + 1))).toEqual([]);
		const restarted = n8nProcess(db);
		expect(last.filter((key) => restarted.deliver(key, end + 1))).toEqual([]);
		// long gone
		expect(restarted.deliver('msg_0|message.status|read', end + 2)).toBe(true);
	});

	it('older generations are kept as they are: a save adds to the newest only', () => {
		const db = { saved: {} };
		const p = n8nProcess(db);
		const now = Date.now();
		for (let i = 0; i < 3 * GENERATION_SIZE + 7; i++) p.deliver(`msg_${i}||`, now + i * SAVED_AFTER_MS);
		const before = copy(storedOf(db));
		n8nProcess(db).deliver('msg_new||', now + (3 * GENERATION_SIZE + 8) * SAVED_AFTER_MS);
		const after = storedOf(db);
		expect(after.gens.slice(0, -1)).toEqual(before.gens.slice(0, -1));
		expect(after.gens.at(-1)!.keys).toBe(before.gens.at(-1)!.keys + after.gens.at(-1)!.keys.slice(-DIGEST_LENGTH));
	});

	it('forgets an event 48 hours (up to an hour more) after it was first seen, in the process and in static data', () => {
		const db = { saved: {} };
		const n8n = n8nProcess(db);
		const now = Date.now();
		expect(n8n.deliver('msg_1||', now)).toBe(true);
		expect(n8n.deliver('msg_2||', now + HOUR_MS / 2)).toBe(true); // the same generation in static data
		expect(n8n.deliver('msg_1||', now + REMEMBERED_FOR_MS - 1000)).toBe(false);
		expect(n8nProcess(db).deliver('msg_1||', now + REMEMBERED_FOR_MS - 1000)).toBe(false);
		expect(n8nProcess(db).deliver('msg_1||', now + REMEMBERED_AT_MOST_MS + 1000)).toBe(true);
		expect(n8n.deliver('msg_2||', now + REMEMBERED_AT_MOST_MS + 2000)).toBe(true);
	});

	it('a slow trickle: an event recorded days after the one before is still remembered for 48 hours', () => {
		const db = { saved: {} };
		const now = Date.now();
		expect(n8nProcess(db).deliver('msg_1||', now)).toBe(true);
		const later = now + 80 * HOUR_MS;
		expect(n8nProcess(db).deliver('msg_2||', later)).toBe(true);
		// a process that never saw it knows it from static data alone
		expect(n8nProcess(db).deliver('msg_2||', later + REMEMBERED_FOR_MS - 60_000)).toBe(false);
	});

	it('replaces an unreadable memory instead of failing', () => {
		const broken: IDataObject = { [STORED_MEMORY_KEY]: { gens: [{ t: 'yesterday' }] } };
		expect(deliveryMemory(broken, undefined).firstDelivery('msg_1||')).toBe(true);
		expect(deliveryMemory(broken, undefined).firstDelivery('msg_1||')).toBe(false);
	});
});

describe('the sender memory (previous_inbound_at)', () => {
	const at = (minutes: number) => new Date(Date.UTC(2030, 0, 1) + minutes * 60_000).toISOString();
	const T0 = Date.UTC(2030, 0, 1);

	/** One trigger node of one n8n process, on a workflow whose static data n8n last saved in `db`. */
	function senderProcess(db: { saved: IDataObject }, saved = true) {
		const owner = { workflowId: saved ? `workflow-${++processes}` : undefined, nodeName: 'Chat-App Messaging Trigger' };
		return (from: string, timestamp: string, now: number): string | null => {
			const loaded = ObservableObject.create(copy(db.saved), undefined, { ignoreEmptyOnFirstChild: true }) as IDataObject;
			if (!loaded[NODE]) loaded[NODE] = ObservableObject.create({}, loaded as IObservableObject);
			const previous = previousInbound(loaded[NODE] as IDataObject, owner, from, timestamp, now);
			if ((loaded as { __dataChanged?: boolean }).__dataChanged) db.saved = copy(loaded);
			return previous;
		};
	}

	it('answers the latest earlier message of the number, per workflow and node', () => {
		const w1 = senderProcess({ saved: {} });
		const w2 = senderProcess({ saved: {} });
		expect(w1('+14155550123', at(0), T0)).toBeNull();
		expect(w1('+14155550123', at(5), T0 + 1)).toBe(at(0));
		expect(w2('+14155550123', at(6), T0 + 2)).toBeNull();
		// a late delivery of an older message neither goes back in time nor is the latest
		expect(w1('+14155550123', at(1), T0 + 3)).toBe(at(5));
		expect(w1('+14155550123', at(7), T0 + 4)).toBe(at(5));
	});

	it('an unsaved workflow remembers nothing', () => {
		const unsaved = senderProcess({ saved: {} }, false);
		expect(unsaved('+14155550123', at(0), T0)).toBeNull();
		expect(unsaved('+14155550123', at(1), T0 + 1)).toBeNull();
	});

	it('survives a restart: a new process knows the number from static data, saved at most every quarter second', () => {
		const db = { saved: {} };
		const before = senderProcess(db);
		// A burst of five: the first call saves, the next ones within a quarter second do not.
		for (let i = 0; i < 5; i++) before('+14155550123', at(i / 60), T0 + i * 50);
		const after = senderProcess(db);
		expect(after('+14155550123', at(30), T0 + 30 * 60_000)).toBe(at(0));
		// the process that saved nothing of the burst's end wrote it back with its next call
		before('+14155550999', at(31), T0 + 31 * 60_000);
		expect(senderProcess(db)('+14155550123', at(32), T0 + 32 * 60_000)).toBe(at(30));
		expect(((db.saved as IDataObject)[NODE] as IDataObject).conversations).toEqual({
			'+14155550123': Date.parse(at(32)),
			'+14155550999': Date.parse(at(31)),
		});
	});

	it('two processes writing in turn keep both numbers (the later message wins)', () => {
		const db = { saved: {} };
		const a = senderProcess(db);
		const b = senderProcess(db);
		a('+1000', at(0), T0);
		b('+2000', at(1), T0 + 1000);
		a('+1000', at(2), T0 + 2000);
		expect(senderProcess(db)('+2000', at(3), T0 + 3000)).toBe(at(1));
		expect(senderProcess(db)('+1000', at(4), T0 + 4000)).toBe(at(2));
	});

	it('forgets a sender after 48 hours, and the least recent beyond 5,000 senders', () => {
		const db = { saved: {} };
		const w3 = senderProcess(db);
		expect(w3('+1000', at(0), T0)).toBeNull();
		const day2 = T0 + REMEMBERED_FOR_MS;
		expect(w3('+1000', new Date(day2).toISOString(), day2)).toBeNull();
		const day4 = T0 + 2 * REMEMBERED_FOR_MS;
		expect(senderProcess(db)('+1000', new Date(day4).toISOString(), day4)).toBeNull();
		// 5,001 senders, a millisecond apart, in one process; then a restarted one reads what was saved.
		// (Static data held as one object: the memory only ever replaces its part, as n8n's save would.)
		const start = T0 + 3 * REMEMBERED_FOR_MS;
		const moment = (i: number) => new Date(start + i).toISOString();
		const staticData: IDataObject = {};
		const owner = (id: string) => ({ workflowId: id, nodeName: 'Chat-App Messaging Trigger' });
		for (let i = 0; i <= REMEMBERED; i++) previousInbound(staticData, owner('w4'), `+2${i}`, moment(i), start + i);
		expect(Object.keys(staticData.conversations as object)).toHaveLength(REMEMBERED);
		const later = start + REMEMBERED + 1;
		const restarted = (from: string, i: number) => previousInbound(staticData, owner('w4, restarted'), from, moment(i), later + i);
		expect(restarted('+20', REMEMBERED + 1)).toBeNull();
		expect(restarted('+22', REMEMBERED + 2)).toBe(moment(2));
	});
});
