// The trigger's memory on its own: bounded, never forgetting what the service may list again, and
// knowing an event by its content however the service writes its time.
import { DIGEST_LENGTH } from '../../../nodes/shared/digest';
import {
	cachedFingerprints,
	compareWithMemory,
	FingerprintCache,
	fingerprinted,
	MAX_CACHED,
	MAX_CACHED_CHARS,
	MAX_LOOK_BACK_MS,
	MAX_UNLISTED,
	readMemory,
	windowFor,
	type Listed,
	type Memory,
} from '../../../nodes/shared/timelineNavigation/trigger/memory';

const HOUR = 60 * 60 * 1000;
const NOW = Date.parse('2030-06-01T12:00:00Z');
const events = (count: number, spanMs: number, end = NOW) =>
	fingerprinted(
		Array.from({ length: count }, (_, index) => ({ time: new Date(end - (index * spanMs) / count).toISOString(), description: `Event ${index}` })),
		(event) => event.time,
	);
const remembered = (memory: Memory) => (Object.values(memory.hours).join('').length + memory.untimed.length) / DIGEST_LENGTH;
const descriptions = (listed: Listed[]) => listed.map((entry) => entry.json.description);
const anomaly = (description: string) => fingerprinted([{ type: 'rewind', description }], () => undefined)[0];

it('holds 10,000 events of a 24-hour window in about 9 characters each, and forgets each hour once it has left the window', () => {
	const listed = events(10_000, 24 * HOUR);
	const window = { start: NOW - 24 * HOUR, end: NOW };
	const { memory, fresh } = compareWithMemory(undefined, 'w', listed, window);
	expect(fresh).toHaveLength(10_000);
	expect(remembered(memory)).toBe(10_000);
	const bytes = JSON.stringify(memory).length;
	expect(bytes).toBeGreaterThan(10_000 * DIGEST_LENGTH);
	expect(bytes).toBeLessThan(10_000 * DIGEST_LENGTH + 2_000);

	// Twelve hours later the service lists only the last twelve hours (and 10 new events).
	const later = NOW + 12 * HOUR;
	const stillListed = listed.filter((entry) => entry.at >= later - 24 * HOUR);
	const added = events(10, HOUR, later);
	const next = compareWithMemory(memory, 'w', [...stillListed, ...added], { start: later - 24 * HOUR, end: later });
	expect(descriptions(next.fresh)).toEqual(descriptions(added).reverse());
	// What is kept: the hours that still reach into the window (at most one hour more than the window).
	expect(remembered(next.memory)).toBeLessThanOrEqual(stillListed.length + added.length + 10_000 / 24 + 1);
	expect(remembered(next.memory)).toBeGreaterThanOrEqual(stillListed.length + added.length);
});

describe('anomalies (and events without a time)', () => {
	it('one short answer does not make the rest new again: what is no longer listed stays remembered', () => {
		let { memory } = compareWithMemory(undefined, 'a', [anomaly('one'), anomaly('two')]);
		({ memory } = compareWithMemory(memory, 'a', []));
		const again = compareWithMemory(memory, 'a', [anomaly('one'), anomaly('two'), anomaly('three')]);
		expect(descriptions(again.fresh)).toEqual(['three']);
		expect(remembered(again.memory)).toBe(3);
	});

	it(`keeps every anomaly listed now and the ${MAX_UNLISTED.toLocaleString('en')} last seen of those no longer listed`, () => {
		const many = Array.from({ length: MAX_UNLISTED + 1 }, (_, index) => anomaly(`old ${index}`));
		let { memory } = compareWithMemory(undefined, 'a', [anomaly('listed all along'), ...many.slice(0, 1)]);
		// One at a time, each listed once and then no longer: the first leaves the memory last.
		for (const next of many.slice(1)) ({ memory } = compareWithMemory(memory, 'a', [anomaly('listed all along'), next]));
		({ memory } = compareWithMemory(memory, 'a', [anomaly('listed all along')]));
		expect(remembered(memory)).toBe(MAX_UNLISTED + 1);
		const back = compareWithMemory(memory, 'a', [anomaly('listed all along'), many[0], many[1], many[MAX_UNLISTED]]);
		expect(descriptions(back.fresh)).toEqual(['old 0']);
	});
});

describe('events the service returns from outside the window asked for', () => {
	const window = { start: NOW - HOUR, end: NOW };
	const at = (ms: number, description: string) => fingerprinted([{ time: new Date(ms).toISOString(), description }], (event) => event.time)[0];

	it('one from before the window never counts, however often the service returns it', () => {
		let memory: Memory | undefined;
		for (let poll = 0; poll < 4; poll++) {
			const comparison = compareWithMemory(memory, 'w', [at(NOW - 3 * HOUR, 'Three hours old')], window);
			expect(comparison.fresh).toEqual([]);
			memory = comparison.memory;
		}
		expect(remembered(memory!)).toBe(0);
	});

	it('one after the window counts once a later window holds it, and only then', () => {
		const ahead = at(NOW + 5 * 60 * 1000, 'Five minutes ahead');
		const first = compareWithMemory(undefined, 'w', [ahead], window);
		expect(first.fresh).toEqual([]);
		const later = compareWithMemory(first.memory, 'w', [ahead], { start: NOW + 10 * 60 * 1000 - HOUR, end: NOW + 10 * 60 * 1000 });
		expect(descriptions(later.fresh)).toEqual(['Five minutes ahead']);
		expect(compareWithMemory(later.memory, 'w', [ahead], { start: NOW + 11 * 60 * 1000 - HOUR, end: NOW + 11 * 60 * 1000 }).fresh).toEqual([]);
	});
});

describe('the window a poll asks about', () => {
	const lookBack = 60 * 1000;
	const answeredUntil = (until: number): Memory => ({ subject: 'w', hours: {}, untimed: '', answeredUntil: until });

	it('is Look Back before now while polls come within Look Back of each other', () => {
		expect(windowFor(undefined, NOW, lookBack)).toEqual({ start: NOW - lookBack, end: NOW });
		expect(windowFor(answeredUntil(NOW - 30_000), NOW, lookBack)).toEqual({ start: NOW - lookBack, end: NOW });
	});

	it('reaches back to where the last answered window ended after a longer gap, at most 7 days', () => {
		expect(windowFor(answeredUntil(NOW - 90_000), NOW, lookBack)).toEqual({ start: NOW - 90_000, end: NOW });
		expect(windowFor(answeredUntil(NOW - 30 * 24 * HOUR), NOW, lookBack)).toEqual({ start: NOW - MAX_LOOK_BACK_MS, end: NOW });
		expect(MAX_LOOK_BACK_MS).toBe(7 * 24 * HOUR);
		expect(windowFor(answeredUntil(NOW - 30 * 24 * HOUR), NOW, MAX_LOOK_BACK_MS)).toEqual({ start: NOW - MAX_LOOK_BACK_MS, end: NOW });
	});
});

it('knows an event by its content, whatever the order of its fields or the way its time is written (no zone is UTC)', () => {
	const [a] = fingerprinted([{ time: '2030-01-01T10:00:00Z', description: 'Bells' }], (event) => event.time);
	const [b] = fingerprinted([{ description: 'Bells', time: '2030-01-01T10:00:00.000Z' }], (event) => event.time);
	const [c] = fingerprinted([{ description: 'Bells, again', time: '2030-01-01T10:00:00.000Z' }], (event) => event.time);
	const [d] = fingerprinted([{ description: 'Bells', time: '2030-01-01T10:00:00' }], (event) => event.time);
	expect(a.digest).toBe(b.digest);
	expect(d.digest).toBe(a.digest);
	expect(d.at).toBe(Date.parse('2030-01-01T10:00:00Z'));
	expect(c.digest).not.toBe(a.digest);
});

it('does not read a memory of another watched thing (another location, timeline or Look Back)', () => {
	const { memory } = compareWithMemory(undefined, 'newEvent|Rome|86400000', events(3, HOUR), { start: NOW - 24 * HOUR, end: NOW });
	expect(readMemory(JSON.parse(JSON.stringify(memory)), 'newEvent|Rome|86400000')).toEqual(memory);
	expect(readMemory(memory, 'newEvent|Athens|86400000')).toBeUndefined();
	expect(readMemory(memory, 'newEvent|Rome|3600000')).toBeUndefined();
});

it('fingerprints the last listing of a watched thing from the process’s cache: the same digests as afresh, and a changed event gets its own', () => {
	const cache = new FingerprintCache('workflow|trigger|newEvent|Rome|86400000');
	const listing = Array.from({ length: 5 }, (_, index) => ({ time: new Date(NOW - index * HOUR).toISOString(), description: `Event ${index}` }));
	const digests = (listed: Listed[]) => listed.map((entry) => entry.digest);
	expect(digests(fingerprinted(listing, (event) => event.time, cache))).toEqual(digests(fingerprinted(listing, (event) => event.time)));
	const next = [...listing.slice(1), { ...listing[0], description: 'Event 0, changed' }, { description: 'Event 5', time: listing[0].time }];
	expect(digests(fingerprinted(next, (event) => event.time, cache))).toEqual(digests(fingerprinted(next, (event) => event.time)));
	// Another field order is the same event.
	expect(fingerprinted(next, (event) => event.time, cache)[5].digest).toBe(fingerprinted([{ time: listing[0].time, description: 'Event 5' }], (event) => event.time)[0].digest);
});

describe("the window's edges: both belong to it, as the time range asked for includes both", () => {
	const window = { start: NOW - HOUR, end: NOW };
	const at = (ms: number, description: string) => fingerprinted([{ time: new Date(ms).toISOString(), description }], (event) => event.time)[0];

	it('an event at the very start or the very end counts; a millisecond outside either does not', () => {
		const listed = [at(window.start - 1, 'Just before'), at(window.start, 'At the start'), at(window.end, 'At the end'), at(window.end + 1, 'Just after')];
		const { fresh, memory } = compareWithMemory(undefined, 'w', listed, window);
		expect(descriptions(fresh)).toEqual(['At the start', 'At the end']);
		expect(remembered(memory)).toBe(2);
	});

	it('a poll after an outage starts exactly at the end of the last answered window, so no instant is asked twice or never', () => {
		const memory = compareWithMemory(undefined, 'w', [], window).memory;
		const next = windowFor(memory, NOW + 10 * 60 * 1000, 60 * 1000);
		expect(next.start).toBe(window.end);
	});
});

describe('the process’s fingerprint cache stays within its bounds', () => {
	const listingOf = (count: number, descriptionChars: number, tag: string) =>
		Array.from({ length: count }, (_, index) => ({ time: new Date(NOW - index * 1000).toISOString(), description: `${tag} ${index} ${'x'.repeat(descriptionChars)}` }));

	it(`holds at most ${MAX_CACHED_CHARS.toLocaleString('en')} characters of listed events, dropping the least recently polled watched things first`, () => {
		// Ten watched things listing 1 MB each: far beyond the bound.
		for (let thing = 0; thing < 10; thing++) fingerprinted(listingOf(100, 10_000, `thing ${thing}`), (event) => event.time, new FingerprintCache(`bound test ${thing}`));
		const held = cachedFingerprints();
		expect(held.chars).toBeLessThanOrEqual(MAX_CACHED_CHARS);
		expect(held.chars).toBeGreaterThan(MAX_CACHED_CHARS - 1_100_000);
		// The most recent is kept and answers from the cache: its digests are those fingerprinted afresh.
		const last = listingOf(100, 10_000, 'thing 9');
		expect(fingerprinted(last, (event) => event.time, new FingerprintCache('bound test 9')).map((entry) => entry.digest)).toEqual(
			fingerprinted(last, (event) => event.time).map((entry) => entry.digest),
		);
		expect(cachedFingerprints().chars).toBe(held.chars);
	});

	it(`holds at most ${MAX_CACHED.toLocaleString('en')} fingerprints however small the events`, () => {
		for (let thing = 0; thing < 8; thing++) fingerprinted(listingOf(10_000, 0, `small ${thing}`), (event) => event.time, new FingerprintCache(`count test ${thing}`));
		expect(cachedFingerprints().entries).toBeLessThanOrEqual(MAX_CACHED);
		expect(cachedFingerprints().entries).toBeGreaterThan(MAX_CACHED - 10_001);
	});
});
