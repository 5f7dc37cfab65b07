// The trigger's memory on its own: bounded by what the service can still return, and knowing an
// event by its content however the service writes its time.
import type { IDataObject } from 'n8n-workflow';
import { DIGEST_LENGTH } from '../../../nodes/shared/digest';
import { fingerprinted, MEMORY_KEY, sight } from '../../../nodes/shared/timeline/trigger/memory';

const HOUR = 60 * 60 * 1000;
const NOW = Date.parse('2030-06-01T12:00:00Z');
const events = (count: number, spanMs: number, end = NOW) =>
	fingerprinted(
		Array.from({ length: count }, (_, index) => ({ time: new Date(end - (index * spanMs) / count).toISOString(), description: `Event ${index}` })),
		(event) => event.time,
	);
const remembered = (staticData: IDataObject) =>
	Object.values((staticData[MEMORY_KEY] as { buckets: Record<string, string> }).buckets).join('').length / DIGEST_LENGTH;

it('holds 10,000 events of a 24-hour window in about 9 characters each, and forgets each hour once it has left the window', () => {
	const staticData: IDataObject = {};
	const listed = events(10_000, 24 * HOUR);
	expect(sight(staticData, 'w', listed, NOW - 24 * HOUR)).toMatchObject({ first: true });
	expect(remembered(staticData)).toBe(10_000);
	const bytes = JSON.stringify(staticData).length;
	expect(bytes).toBeGreaterThan(10_000 * DIGEST_LENGTH);
	expect(bytes).toBeLessThan(10_000 * DIGEST_LENGTH + 2_000);

	// Twelve hours later the service lists only the last twelve hours (and 10 new events).
	const later = NOW + 12 * HOUR;
	const stillListed = listed.filter((entry) => entry.at >= later - 24 * HOUR);
	const fresh = events(10, HOUR, later);
	const { first, fresh: found } = sight(staticData, 'w', [...stillListed, ...fresh], later - 24 * HOUR);
	expect(first).toBe(false);
	expect(found.map((entry) => entry.json.description)).toEqual(fresh.map((entry) => entry.json.description).reverse());
	// What is kept: the hours that still reach into the window (at most one hour more than the window).
	expect(remembered(staticData)).toBeLessThanOrEqual(stillListed.length + fresh.length + 10_000 / 24 + 1);
	expect(remembered(staticData)).toBeGreaterThanOrEqual(stillListed.length + fresh.length);
});

it('remembers a timeline’s anomalies as last listed: one no longer listed is forgotten', () => {
	const staticData: IDataObject = {};
	const anomaly = (description: string) => fingerprinted([{ type: 'rewind', description }], () => undefined)[0];
	sight(staticData, 'a', [anomaly('one'), anomaly('two')]);
	expect(sight(staticData, 'a', [anomaly('two'), anomaly('three')]).fresh.map((entry) => entry.json.description)).toEqual(['three']);
	expect(remembered(staticData)).toBe(2);
	expect(sight(staticData, 'a', [anomaly('one')]).fresh.map((entry) => entry.json.description)).toEqual(['one']);
});

it('knows an event by its content, whatever the order of its fields or the way its time is written', () => {
	const [a] = fingerprinted([{ time: '2030-01-01T10:00:00Z', description: 'Bells' }], (event) => event.time);
	const [b] = fingerprinted([{ description: 'Bells', time: '2030-01-01T10:00:00.000Z' }], (event) => event.time);
	const [c] = fingerprinted([{ description: 'Bells, again', time: '2030-01-01T10:00:00.000Z' }], (event) => event.time);
	expect(a.digest).toBe(b.digest);
	expect(c.digest).not.toBe(a.digest);
});

it('starts afresh when what is watched changes', () => {
	const staticData: IDataObject = {};
	sight(staticData, 'event|Rome|86400000', events(3, HOUR), NOW - 24 * HOUR);
	expect(sight(staticData, 'event|Rome|86400000', events(3, HOUR), NOW - 24 * HOUR).first).toBe(false);
	expect(sight(staticData, 'event|Athens|86400000', events(3, HOUR), NOW - 24 * HOUR).first).toBe(true);
});
