// The trigger's repeat memory as n8n uses it: for every webhook call n8n loads the node's static
// data from its database (a fresh copy), the trigger checks and records the event, and n8n saves
// the whole object back. Copies are simulated here with JSON round trips, restarts by a new
// workflow id for the process memory (what a restarted n8n process starts with: nothing).
import type { IDataObject } from 'n8n-workflow';
import {
	deliveryMemory,
	GENERATION_SIZE,
	MAX_STORED,
	STORED_MEMORY_KEY,
	type StoredMemory,
} from '../../../nodes/ChatAppMessagingTrigger/deliveryMemory';

const HOUR_MS = 60 * 60 * 1000;
/**
 * What the README promises of Ignore Repeated Deliveries, written here rather than read from the
 * code: "the last 5,000 events of the past 48 hours are remembered".
 */
const REMEMBERED = 5000;
const REMEMBERED_FOR_MS = 48 * HOUR_MS;
const copy = (data: IDataObject): IDataObject => JSON.parse(JSON.stringify(data));
const storedCount = (data: IDataObject) =>
	(data[STORED_MEMORY_KEY] as StoredMemory).gens.reduce((sum, gen) => sum + gen.n, 0);

let processes = 0;
/** A trigger node as one n8n process sees it; `database` is the static data n8n last saved. */
function n8nProcess(db: { saved: IDataObject }) {
	const owner = { workflowId: `workflow-${++processes}`, nodeName: 'Chat-App Messaging Trigger' };
	return {
		/** One webhook call: load a copy, check and record, save (unless `save` is false). */
		deliver(key: string, now: number, save = true): boolean {
			const loaded = copy(db.saved);
			const first = deliveryMemory(loaded, owner).firstDelivery(key, now);
			if (save) db.saved = loaded;
			return first;
		},
		/** A copy loaded now and saved later: a call in flight. */
		begin(key: string, now: number) {
			const loaded = copy(db.saved);
			const first = deliveryMemory(loaded, owner).firstDelivery(key, now);
			return { first, save: () => (db.saved = loaded) };
		},
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

	it('across processes, a repeat is caught once the first call has saved static data, also after a restart', () => {
		const db = { saved: {} };
		const now = Date.now();
		expect(n8nProcess(db).deliver('msg_1|message.inbound|', now)).toBe(true);
		expect(n8nProcess(db).deliver('msg_1|message.inbound|', now + 1000)).toBe(false);
		// two calls in flight on two processes, both loaded before either saved: both pass
		const [p, q] = [n8nProcess(db), n8nProcess(db)];
		const a = p.begin('msg_2|message.inbound|', now + 2000);
		const b = q.begin('msg_2|message.inbound|', now + 2000);
		expect([a.first, b.first]).toEqual([true, true]);
	});

	it('a key dropped by a concurrent save is written back by the next call of the process that recorded it', () => {
		const db = { saved: {} };
		const [p, q] = [n8nProcess(db), n8nProcess(db)];
		const now = Date.now();
		const a = p.begin('msg_a|message.inbound|', now);
		const b = q.begin('msg_b|message.inbound|', now); // loaded before a saved
		a.save();
		b.save(); // overwrites a's save: msg_a is gone from static data
		expect(n8nProcess(db).deliver('msg_a|message.inbound|', now + 10, false)).toBe(true);

		p.deliver('msg_c|message.inbound|', now + 20);
		// a restarted process (nothing in memory) knows all three from static data
		const restarted = n8nProcess(db);
		for (const id of ['msg_a', 'msg_b', 'msg_c']) expect(restarted.deliver(`${id}|message.inbound|`, now + 30)).toBe(false);
	});

	it('a call that loaded static data long before it ran still saves every key of its process', () => {
		const db = { saved: {} };
		const p = n8nProcess(db);
		const now = Date.now();
		for (let i = 0; i < 15; i++) p.deliver(`msg_${i}||`, now + i);
		const slow = { loaded: copy(db.saved) }; // loaded now, run after 85 more deliveries
		for (let i = 15; i < 100; i++) p.deliver(`msg_${i}||`, now + i);
		const owner = { workflowId: `workflow-${processes}`, nodeName: 'Chat-App Messaging Trigger' };
		expect(deliveryMemory(slow.loaded, owner).firstDelivery('msg_late||', now + 200)).toBe(true);
		db.saved = slow.loaded; // its save is the last one

		const restarted = deliveryMemory(copy(db.saved), undefined);
		const missing = [...Array.from({ length: 100 }, (_, i) => `msg_${i}||`), 'msg_late||'].filter((key) => restarted.firstDelivery(key, now + 300));
		expect(missing).toEqual([]);
	});

	it('two processes: after each has had one more call, static data holds the keys of both', () => {
		const db = { saved: {} };
		const [p, q] = [n8nProcess(db), n8nProcess(db)];
		const now = Date.now();
		for (let i = 0; i < 30; i++) {
			// 3 calls of each in flight, saved in an order that drops keys every time
			const calls = [p.begin(`msg_p${i}||`, now + i), q.begin(`msg_q${i}||`, now + i), p.begin(`msg_p${i}b||`, now + i)];
			for (const call of calls.reverse()) call.save();
		}
		p.deliver('msg_p_last||', now + 100);
		q.deliver('msg_q_last||', now + 101);
		const restarted = deliveryMemory(copy(db.saved), undefined);
		const keys = Array.from({ length: 30 }, (_, i) => [`msg_p${i}||`, `msg_q${i}||`, `msg_p${i}b||`]).flat();
		expect(keys.filter((key) => restarted.firstDelivery(key, now + 200))).toEqual([]);
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
			const call = webhookProcesses[i % 2].begin(key, now + i);
			if (!call.first) takenForRepeats.push(key);
			inFlight.push(call);
			while (inFlight.length >= 10 || (i === total - 1 && inFlight.length)) inFlight.splice(Math.floor(random() * inFlight.length), 1)[0].save();
		}
		expect(takenForRepeats).toEqual([]);
	});

	it(`after many deliveries: the last ${REMEMBERED} are repeats, at most ${MAX_STORED} are stored, in about 15 bytes each`, () => {
		// one long-lived copy here (a copy per call is n8n's cost, simulated in the tests above)
		const db: { saved: IDataObject } = { saved: {} };
		const memory = deliveryMemory(db.saved, { workflowId: `workflow-${++processes}`, nodeName: 'Trigger' });
		const start = Date.now() - HOUR_MS;
		const total = 4 * MAX_STORED + 123;
		let started = 0;
		for (let i = 0; i < total; i++) if (memory.firstDelivery(`msg_${i}|message.status|read`, start + i)) started++;
		expect(started).toBe(total);

		expect(storedCount(db.saved)).toBeLessThanOrEqual(MAX_STORED);
		expect(storedCount(db.saved)).toBeGreaterThanOrEqual(REMEMBERED);
		expect(JSON.stringify(db.saved).length).toBeLessThan(MAX_STORED * 16);

		// a restarted process: nothing in its own memory, one copy of static data
		const restarted = deliveryMemory(copy(db.saved), undefined);
		const at = start + total;
		let repeats = 0;
		for (let i = total - REMEMBERED; i < total; i++) if (!restarted.firstDelivery(`msg_${i}|message.status|read`, at)) repeats++;
		expect(repeats).toBe(REMEMBERED);
		// long gone
		expect(restarted.firstDelivery('msg_0|message.status|read', at)).toBe(true);
	});

	it('older generations are kept as they are: a delivery adds to the newest only', () => {
		const db: { saved: IDataObject } = { saved: {} };
		const n8n = n8nProcess(db);
		const now = Date.now();
		const memory = deliveryMemory(db.saved, undefined);
		for (let i = 0; i < 3 * GENERATION_SIZE + 7; i++) memory.firstDelivery(`msg_${i}||`, now + i);
		const before = copy(db.saved)[STORED_MEMORY_KEY] as StoredMemory;
		n8n.deliver('msg_new||', now + 10_000);
		const after = db.saved[STORED_MEMORY_KEY] as StoredMemory;
		expect(after.gens.slice(0, -1)).toEqual(before.gens.slice(0, -1));
		expect(after.gens.at(-1)!.n).toBe(before.gens.at(-1)!.n + 1);
	});

	it('forgets an event 48 hours after it was first seen, in the process and in static data', () => {
		const db = { saved: {} };
		const n8n = n8nProcess(db);
		const now = Date.now();
		expect(n8n.deliver('msg_1||', now)).toBe(true);
		expect(n8n.deliver('msg_1||', now + REMEMBERED_FOR_MS - 1000)).toBe(false);
		expect(n8n.deliver('msg_1||', now + REMEMBERED_FOR_MS + 1000)).toBe(true);
		expect(n8nProcess(db).deliver('msg_1||', now + REMEMBERED_FOR_MS + 2000)).toBe(false);
	});

	it('a slow trickle: a key recorded days after the first one of its generation is still remembered for 48 hours', () => {
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
