/**
 * Timeline navigation emulator (Group A action paths and Group B resource paths, as
 * docs/service-assumptions.md says what the package assumes). Each bearer key has its own world: traveller, timelines, anchors,
 * items, events and anomalies.
 */
import { randomUUID } from 'node:crypto';
import type { VirtualClock } from './clock';
import { HttpError, ok, type Reply, type RequestContext, type Router } from './http';
import type { Anomaly, SandboxConfig, SeededEvent, Service, TravellerState } from './types';
import {
	describe,
	invalid,
	isObject,
	isoString,
	objectBody,
	optionalIso,
	optionalString,
	parseIso,
	requiredIso,
	requiredOneOf,
	requiredString,
	type JsonObject,
} from './validate';

/** The document's grammar: a positive integer count and a unit letter. */
export const DURATION_PATTERN = /^[1-9][0-9]*[mhd]$/;
const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };
/** Largest moment a JS Date can represent. */
const MAX_DATE_MS = 8.64e15;

interface Traveller {
	/** Traveller time at `baseClock` (sandbox clock) while running. */
	baseTime: number;
	baseClock: number;
	paused: boolean;
	pausedAt: number;
	location: string;
	/** Timeline the traveller is in (set by POST /travels), if any. */
	timelineId: string | null;
}

interface Timeline {
	timeline_id: string;
	name: string;
	description: string | null;
	created_at: string;
	anomalies: Anomaly[];
}

interface Anchor {
	anchor_id: string;
	timestamp: string;
	description: string;
	timeline_id: string | null;
	created_at: string;
}

interface Item {
	item_id: string;
	timeline_id: string;
	name: string;
	description: string | null;
	/** Traveller time at registration: the moment the item fixes in its timeline. */
	registered_at: string;
	created_at: string;
}

interface TimelineEvent {
	event_id: string;
	timeline_id: string;
	time: string;
	description: string;
	location: string | null;
}

interface Paradox {
	manipulation_id: string;
	action: EventAction;
	event_id: string;
	event_time: string;
	conflicts_with: { type: 'anchor' | 'item'; id: string; time: string };
	reason: string;
}

interface World {
	traveller: Traveller;
	timelines: Map<string, Timeline>;
	anchors: Map<string, Anchor>;
	items: Map<string, Item>;
	events: Map<string, TimelineEvent>;
	/** Paradoxes found when each manipulation happened, by timeline. */
	paradoxes: Map<string, Paradox[]>;
}

const EVENT_ACTIONS = ['add', 'modify', 'remove'] as const;
const ANOMALY_TYPES = ['paradox', 'rewind'] as const;

/** One key's world as the saved state holds it (the key by its place among the accepted keys, never the key). */
interface SavedWorld {
	keyIndex: number;
	traveller: Traveller;
	timelines: Timeline[];
	anchors: Anchor[];
	items: Item[];
	events: TimelineEvent[];
	paradoxes: Array<[timelineId: string, paradoxes: Paradox[]]>;
}

export interface TimelineSnapshot {
	seeded: SeededEvent[];
	worlds: SavedWorld[];
}

/** What the page shows of one key's world. */
export interface WorldView {
	traveller: TravellerState;
	timelines: Array<Omit<Timeline, 'anomalies'> & { anomalies: Anomaly[]; events: TimelineEvent[]; anchors: number; items: number }>;
}

/** An event at a location: seeded (changeable from the control surface), or added to a timeline through POST /v1/events. */
export interface LocatedEvent {
	location: string;
	time: string;
	description: string;
	seed_id?: string;
	timeline_id?: string;
	event_id?: string;
}
type EventAction = (typeof EVENT_ACTIONS)[number];

export function newId(prefix: string): string {
	return `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
}

export class TimelineService {
	private worlds = new Map<string, World>();
	private seeded: SeededEvent[] = [];

	constructor(
		private readonly clock: VirtualClock,
		private readonly settings: () => SandboxConfig,
	) {}

	reset(): void {
		this.worlds.clear();
		this.seeded = [];
	}

	/** Seeded events are visible to every key through GET /monitor-events. */
	seedEvent(input: unknown): SeededEvent {
		const body = objectBody(input);
		const event: SeededEvent = {
			seed_id: newId('seed'),
			location: requiredString(body, 'location'),
			time: isoString(requiredIso(body, 'time')),
			description: optionalString(body, 'description') ?? '',
		};
		this.seeded.push(event);
		return { ...event };
	}

	/** Changes a seeded event while n8n runs: another time (back-dated or later), description or location. */
	modifySeededEvent(seedId: string, input: unknown): SeededEvent {
		const event = this.seededEvent(seedId);
		const body = objectBody(input);
		const time = optionalIso(body, 'time');
		const description = optionalString(body, 'description');
		const location = optionalString(body, 'location');
		if (time === undefined && description === undefined && location === undefined) {
			throw invalid('time', "Nothing to modify: give at least one of 'time', 'description' or 'location'.");
		}
		if (time !== undefined) event.time = isoString(time);
		if (description !== undefined) event.description = description;
		if (location !== undefined) event.location = location;
		return { ...event };
	}

	removeSeededEvent(seedId: string): SeededEvent {
		const event = this.seededEvent(seedId);
		this.seeded = this.seeded.filter((seeded) => seeded !== event);
		return { ...event };
	}

	private seededEvent(seedId: string): SeededEvent {
		const event = this.seeded.find((seeded) => seeded.seed_id === seedId);
		if (!event) throw notFound('seed_id', `No seeded event with seed_id '${seedId}' exists.`);
		return event;
	}

	/**
	 * Adds an anomaly to a timeline, as if the service had detected one: GET /v1/monitor-timeline
	 * lists it (paradox checks do not: no manipulation caused it). Everything is checked first.
	 */
	addAnomaly(input: unknown): Anomaly {
		const body = objectBody(input);
		const timelineId = requiredString(body, 'timelineId', { what: 'the timeline_id of the timeline' });
		const type = body.type === undefined || body.type === '' ? 'paradox' : requiredOneOf(body, 'type', ANOMALY_TYPES);
		const time = optionalIso(body, 'time') ?? this.clock.nowMs();
		const description = requiredString(body, 'description', { what: 'what the anomaly is' });
		const timeline = this.timelineAnywhere(timelineId);
		const anomaly = this.recordAnomaly([timeline], type, time, description)[0];
		return { ...anomaly };
	}

	removeAnomaly(anomalyId: string): Anomaly {
		for (const world of this.worlds.values()) {
			for (const timeline of world.timelines.values()) {
				const found = timeline.anomalies.find((a) => a.anomaly_id === anomalyId);
				if (!found) continue;
				timeline.anomalies = timeline.anomalies.filter((a) => a !== found);
				return { ...found };
			}
		}
		throw notFound('anomaly_id', `No anomaly with anomaly_id '${anomalyId}' exists.`);
	}

	/** Timeline ids are unique across keys, so the control surface finds one without a key. */
	private timelineAnywhere(id: string): Timeline {
		for (const world of this.worlds.values()) {
			const timeline = world.timelines.get(id);
			if (timeline) return timeline;
		}
		throw notFound('timelineId', `No timeline with timeline_id '${id}' exists.`);
	}

	/** Every event with a location (seeded, or in a timeline), by time. */
	locatedEvents(): LocatedEvent[] {
		const inTimelines = [...this.worlds.values()].flatMap((w) =>
			[...w.events.values()]
				.filter((e) => e.location !== null)
				.map((e) => ({ location: e.location as string, time: e.time, description: e.description, timeline_id: e.timeline_id, event_id: e.event_id })),
		);
		return [...this.seeded.map((e) => ({ ...e })), ...inTimelines].sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
	}

	/** Each key's traveller and timelines (with their anomalies and events), for the page. */
	worldViews(keyIndex: (key: string) => number): WorldView[] {
		const travellers = this.travellers(keyIndex);
		return [...this.worlds.values()].map((w, i) => ({
			traveller: travellers[i],
			timelines: [...w.timelines.values()].map((t) => ({
				...publicTimeline(t),
				anomalies: t.anomalies.map((a) => ({ ...a })),
				events: [...w.events.values()].filter((e) => e.timeline_id === t.timeline_id).map((e) => ({ ...e })),
				anchors: [...w.anchors.values()].filter((a) => a.timeline_id === t.timeline_id).length,
				items: [...w.items.values()].filter((item) => item.timeline_id === t.timeline_id).length,
			})),
		}));
	}

	snapshot(keyIndex: (key: string) => number): TimelineSnapshot {
		return structuredClone({
			seeded: this.seeded,
			worlds: [...this.worlds].map(([key, w]) => ({
				keyIndex: keyIndex(key),
				traveller: w.traveller,
				timelines: [...w.timelines.values()],
				anchors: [...w.anchors.values()],
				items: [...w.items.values()],
				events: [...w.events.values()],
				paradoxes: [...w.paradoxes],
			})),
		});
	}

	/** The worlds of keys no longer accepted (`keyAt` gives none) are left out. */
	restore(saved: TimelineSnapshot, keyAt: (index: number) => string | undefined): void {
		const copy = structuredClone(saved);
		this.seeded = copy.seeded;
		this.worlds.clear();
		for (const w of copy.worlds) {
			const key = keyAt(w.keyIndex);
			if (key === undefined) continue;
			const byId = <T>(list: T[], id: (value: T) => string) => new Map(list.map((value) => [id(value), value]));
			this.worlds.set(key, {
				traveller: w.traveller,
				timelines: byId(w.timelines, (t) => t.timeline_id),
				anchors: byId(w.anchors, (a) => a.anchor_id),
				items: byId(w.items, (i) => i.item_id),
				events: byId(w.events, (e) => e.event_id),
				paradoxes: new Map(w.paradoxes),
			});
		}
	}

	routes(router: Router<Service>): void {
		const add = (method: string, path: string, fn: (world: World, ctx: RequestContext) => Reply) =>
			router.add(method, `/v1${path}`, 'timeline', (ctx) => fn(this.world(ctx.key), ctx));
		// Group A
		add('POST', '/travel', (w, c) => this.travel(w, objectBody(c.body)));
		add('POST', '/set-anchor', (w, c) => this.setAnchor(w, objectBody(c.body)));
		add('POST', '/pause-time', (w) => this.pause(w));
		add('POST', '/resume-time', (w) => this.resume(w));
		add('POST', '/fast-forward', (w, c) => this.shift(w, objectBody(c.body), +1));
		add('POST', '/rewind', (w, c) => this.shift(w, objectBody(c.body), -1));
		add('GET', '/monitor-events', (w, c) => this.monitorEvents(w, c));
		// Group B
		add('GET', '/timelines', (w) => this.listTimelines(w));
		add('POST', '/timelines', (w, c) => this.createTimeline(w, objectBody(c.body)));
		add('DELETE', '/timeline/:timeline_id', (w, c) => this.deleteTimeline(w, c.params.timeline_id));
		add('POST', '/travels', (w, c) => this.travels(w, objectBody(c.body)));
		add('POST', '/items', (w, c) => this.registerItem(w, objectBody(c.body)));
		add('POST', '/events', (w, c) => this.manipulateEvent(w, objectBody(c.body)));
		add('POST', '/anchors', (w, c) => this.createAnchor(w, objectBody(c.body)));
		add('POST', '/paradox-checks', (w, c) => this.paradoxCheck(w, objectBody(c.body)));
		add('GET', '/monitor-timeline', (w, c) => this.monitorTimeline(w, c));
	}

	private world(key: string): World {
		let world = this.worlds.get(key);
		if (!world) {
			const now = this.clock.nowMs();
			world = {
				traveller: { baseTime: now, baseClock: now, paused: false, pausedAt: now, location: 'origin', timelineId: null },
				timelines: new Map(),
				anchors: new Map(),
				items: new Map(),
				events: new Map(),
				paradoxes: new Map(),
			};
			this.worlds.set(key, world);
		}
		return world;
	}

	/** Every key's traveller that has made a request, for the control surface (keys named by `keyIndex`). */
	travellers(keyIndex: (key: string) => number): TravellerState[] {
		return [...this.worlds].map(([key, { traveller: t }]) => ({
			keyIndex: keyIndex(key),
			paused: t.paused,
			currentTime: isoString(this.current(t)),
			location: t.location,
			timelineId: t.timelineId,
		}));
	}

	// ---- traveller time -------------------------------------------------------------

	/** While running, traveller time flows with the sandbox clock; while paused it is frozen. */
	private current(t: Traveller): number {
		return t.paused ? t.pausedAt : t.baseTime + (this.clock.nowMs() - t.baseClock);
	}

	/** Moving time while paused moves the frozen moment; time stays paused. */
	private setTime(t: Traveller, ms: number): void {
		if (t.paused) {
			t.pausedAt = ms;
		} else {
			t.baseTime = ms;
			t.baseClock = this.clock.nowMs();
		}
	}

	private pausedNote(t: Traveller): string {
		return t.paused ? ' Time is paused.' : '';
	}

	// ---- Group A --------------------------------------------------------------------

	private travel(w: World, body: JsonObject): Reply {
		const destination = requiredIso(body, 'destination_time');
		const location = requiredString(body, 'location', { what: 'where to arrive' });
		w.traveller.location = location;
		this.setTime(w.traveller, destination);
		const current = isoString(destination);
		return ok({
			status: `Arrived at ${location} on ${current}.${this.pausedNote(w.traveller)}`,
			current_time: current,
			location,
		});
	}

	private setAnchor(w: World, body: JsonObject): Reply {
		const anchor = this.addAnchor(w, body, null);
		return ok({
			anchor_id: anchor.anchor_id,
			status: `Anchor set at ${anchor.timestamp}.`,
			timestamp: anchor.timestamp,
			description: anchor.description,
		});
	}

	private pause(w: World): Reply {
		const t = w.traveller;
		// Idempotent by design: pausing twice keeps the first paused moment.
		if (t.paused) return ok({ status: 'Time is already paused.', paused_at: isoString(t.pausedAt) });
		t.pausedAt = this.current(t);
		t.paused = true;
		return ok({ status: 'Time paused. Actions now run in isolation.', paused_at: isoString(t.pausedAt) });
	}

	private resume(w: World): Reply {
		const t = w.traveller;
		if (!t.paused) return ok({ status: 'Time is already running.', current_time: isoString(this.current(t)) });
		// Resume from the exact paused moment, however long the pause lasted.
		t.paused = false;
		t.baseTime = t.pausedAt;
		t.baseClock = this.clock.nowMs();
		return ok({ status: 'Time resumed from the paused moment.', current_time: isoString(t.pausedAt) });
	}

	private shift(w: World, body: JsonObject, direction: 1 | -1): Reply {
		const duration = body.duration;
		if (duration === undefined || duration === null || duration === '') {
			throw invalid('duration', "The field 'duration' is required: a positive whole number followed by m, h or d, such as 15m, 2h or 3d.");
		}
		if (typeof duration !== 'string' || !DURATION_PATTERN.test(duration)) {
			throw invalid('duration', `The field 'duration' must be a positive whole number followed by m, h or d, such as 15m, 2h or 3d; got ${describe(duration)}.`);
		}
		const ms = Number(duration.slice(0, -1)) * UNIT_MS[duration.slice(-1)];
		const before = this.current(w.traveller);
		const after = before + direction * ms;
		if (!Number.isFinite(after) || Math.abs(after) > MAX_DATE_MS) {
			throw invalid('duration', `The field 'duration' is too large: ${duration} moves time outside the representable range.`);
		}
		this.setTime(w.traveller, after);
		const verb = direction > 0 ? 'Fast-forwarded' : 'Rewound';
		if (direction < 0) {
			this.recordAnomaly(this.rewindTargets(w), 'rewind', after, `Rewind of ${duration} from ${isoString(before)} to ${isoString(after)}.`);
		}
		return ok({ status: `${verb} ${duration}.${this.pausedNote(w.traveller)}`, new_time: isoString(after) });
	}

	/** A rewind disturbs the traveller's current timeline, or every timeline when in none. */
	private rewindTargets(w: World): Timeline[] {
		const current = w.traveller.timelineId ? w.timelines.get(w.traveller.timelineId) : undefined;
		return current ? [current] : [...w.timelines.values()];
	}

	private monitorEvents(w: World, ctx: RequestContext): Reply {
		// Parameters come from a JSON body on the GET (as documented) or from the query; body wins.
		const params = mergeParams(ctx);
		const location = requiredString(params, 'location', { what: 'a physical location or event' });
		const range = params.time_range;
		const hint = 'two ISO 8601 date-times joined by /, start first, such as 2030-01-01T00:00:00Z/2030-01-02T00:00:00Z';
		if (range === undefined || range === null || range === '') throw invalid('time_range', `The field 'time_range' is required: ${hint}.`);
		const parts = typeof range === 'string' ? range.split('/') : [];
		const start = parts.length === 2 ? parseIso(parts[0]) : undefined;
		const end = parts.length === 2 ? parseIso(parts[1]) : undefined;
		if (start === undefined || end === undefined) throw invalid('time_range', `The field 'time_range' must be ${hint}; got ${describe(range)}.`);
		if (start > end) throw invalid('time_range', `The field 'time_range' has its start (${parts[0]}) after its end (${parts[1]}); the start must come first.`);
		const wanted = location.trim().toLowerCase();
		const sources = [
			...this.seeded,
			...[...w.events.values()].filter((e): e is TimelineEvent & { location: string } => e.location !== null),
		];
		const events = sources
			.filter((e) => e.location.trim().toLowerCase() === wanted)
			.filter((e) => {
				const t = Date.parse(e.time);
				return t >= start && t <= end;
			})
			.sort((a, b) => Date.parse(a.time) - Date.parse(b.time))
			.map((e) => ({ time: e.time, description: e.description }));
		return ok({ status: `${events.length} event(s) found at ${location}.`, events });
	}

	// ---- Group B --------------------------------------------------------------------

	private listTimelines(w: World): Reply {
		const list = [...w.timelines.values()].map(publicTimeline);
		return ok(this.settings().timelinesListShape === 'array' ? list : { timelines: list });
	}

	private createTimeline(w: World, body: JsonObject): Reply {
		const timeline: Timeline = {
			timeline_id: newId('tl'),
			name: requiredString(body, 'name', { what: 'the name of the timeline' }),
			description: optionalString(body, 'description') ?? null,
			created_at: this.clock.nowIso(),
			anomalies: [],
		};
		w.timelines.set(timeline.timeline_id, timeline);
		return ok(publicTimeline(timeline), 201);
	}

	private deleteTimeline(w: World, id: string): Reply {
		this.timeline(w, id);
		w.timelines.delete(id);
		for (const [itemId, item] of w.items) if (item.timeline_id === id) w.items.delete(itemId);
		for (const [eventId, event] of w.events) if (event.timeline_id === id) w.events.delete(eventId);
		for (const anchor of w.anchors.values()) if (anchor.timeline_id === id) anchor.timeline_id = null;
		w.paradoxes.delete(id);
		if (w.traveller.timelineId === id) w.traveller.timelineId = null;
		return ok({ timeline_id: id, deleted: true, status: `Timeline ${id} deleted.` });
	}

	private travels(w: World, body: JsonObject): Reply {
		const timelineId = optionalString(body, 'timeline_id');
		const anchorId = optionalString(body, 'anchor_id');
		if (timelineId && anchorId) {
			throw invalid('timeline_id', "Give exactly one of 'timeline_id' or 'anchor_id', not both.");
		}
		if (!timelineId && !anchorId) {
			throw invalid('timeline_id', "One of 'timeline_id' (travel to a timeline) or 'anchor_id' (return to an anchor) is required.");
		}
		const destination = optionalIso(body, 'destination_time');
		const t = w.traveller;
		let status: string;
		if (timelineId) {
			const timeline = this.timeline(w, timelineId);
			t.timelineId = timeline.timeline_id;
			if (destination !== undefined) this.setTime(t, destination);
			status = `Travelled to timeline ${timeline.name}.`;
		} else {
			const anchor = w.anchors.get(anchorId as string);
			if (!anchor) throw notFound('anchor_id', `No anchor with anchor_id '${anchorId}' exists.`);
			if (anchor.timeline_id) t.timelineId = anchor.timeline_id;
			this.setTime(t, destination ?? Date.parse(anchor.timestamp));
			status = `Returned to anchor ${anchor.anchor_id}.`;
		}
		return ok(
			{
				travel_id: newId('trv'),
				status: status + this.pausedNote(t),
				timeline_id: timelineId ?? null,
				anchor_id: anchorId ?? null,
				current_time: isoString(this.current(t)),
				location: t.location,
			},
			201,
		);
	}

	private registerItem(w: World, body: JsonObject): Reply {
		const timeline = this.timeline(w, requiredString(body, 'timeline_id'));
		const item: Item = {
			item_id: newId('itm'),
			timeline_id: timeline.timeline_id,
			name: requiredString(body, 'name', { what: 'the name of the item' }),
			description: optionalString(body, 'description') ?? null,
			registered_at: isoString(this.current(w.traveller)),
			created_at: this.clock.nowIso(),
		};
		w.items.set(item.item_id, item);
		return ok({ ...item, status: `Item ${item.name} registered.` }, 201);
	}

	private createAnchor(w: World, body: JsonObject): Reply {
		const timelineId = optionalString(body, 'timeline_id');
		if (timelineId) this.timeline(w, timelineId);
		const anchor = this.addAnchor(w, body, timelineId ?? null);
		return ok({ ...anchor, status: `Anchor set at ${anchor.timestamp}.` }, 201);
	}

	/** Shared by /set-anchor and /anchors; the anchor belongs to the given or current timeline. */
	private addAnchor(w: World, body: JsonObject, timelineId: string | null): Anchor {
		const timestamp = optionalIso(body, 'timestamp') ?? this.current(w.traveller);
		const description = optionalString(body, 'description') ?? '';
		const anchor: Anchor = {
			anchor_id: newId('anc'),
			timestamp: isoString(timestamp),
			description,
			timeline_id: timelineId ?? w.traveller.timelineId,
			created_at: this.clock.nowIso(),
		};
		w.anchors.set(anchor.anchor_id, anchor);
		return anchor;
	}

	private manipulateEvent(w: World, body: JsonObject): Reply {
		const timeline = this.timeline(w, requiredString(body, 'timeline_id'));
		const action = requiredOneOf(body, 'action', EVENT_ACTIONS);
		const time = optionalIso(body, 'time');
		const description = optionalString(body, 'description');
		const location = optionalString(body, 'location');
		let event: TimelineEvent;
		let touched: number[];
		if (action === 'add') {
			if (time === undefined) throw invalid('time', "The field 'time' is required to add an event: an ISO 8601 date-time.");
			event = { event_id: newId('evt'), timeline_id: timeline.timeline_id, time: isoString(time), description: description ?? '', location: location ?? null };
			w.events.set(event.event_id, event);
			touched = [time];
		} else {
			const eventId = requiredString(body, 'event_id', { what: `the event to ${action}` });
			const found = w.events.get(eventId);
			if (!found || found.timeline_id !== timeline.timeline_id) {
				throw notFound('event_id', `No event with event_id '${eventId}' exists in timeline ${timeline.timeline_id}.`);
			}
			touched = [Date.parse(found.time)];
			if (action === 'remove') {
				w.events.delete(eventId);
				event = found;
			} else {
				if (time === undefined && description === undefined && location === undefined) {
					throw invalid('time', "Nothing to modify: give at least one of 'time', 'description' or 'location'.");
				}
				if (time !== undefined) {
					found.time = isoString(time);
					touched.push(time);
				}
				if (description !== undefined) found.description = description;
				if (location !== undefined) found.location = location;
				event = found;
			}
		}
		const paradoxes = this.findParadoxes(w, timeline, action, event.event_id, touched);
		return ok(
			{
				event_id: event.event_id,
				timeline_id: timeline.timeline_id,
				action,
				status: `Event ${action === 'add' ? 'added' : action === 'modify' ? 'modified' : 'removed'}.${paradoxes.length ? ' This manipulation causes a paradox.' : ''}`,
				event: { ...event },
				paradox: paradoxes.length > 0,
			},
			action === 'add' ? 201 : 200,
		);
	}

	/**
	 * The paradox rule: a manipulation that touches a moment earlier than an anchor or an
	 * item already fixed in the same timeline rewrites history that fixed point depends on.
	 * Touched moments: the new time (add), the old and new time (modify), the old time (remove).
	 */
	private findParadoxes(w: World, timeline: Timeline, action: EventAction, eventId: string, touched: number[]): Paradox[] {
		const fixed = [
			...[...w.anchors.values()]
				.filter((a) => a.timeline_id === timeline.timeline_id)
				.map((a) => ({ type: 'anchor' as const, id: a.anchor_id, time: a.timestamp })),
			...[...w.items.values()]
				.filter((i) => i.timeline_id === timeline.timeline_id)
				.map((i) => ({ type: 'item' as const, id: i.item_id, time: i.registered_at })),
		];
		const earliest = Math.min(...touched);
		const manipulationId = newId('man');
		const found: Paradox[] = fixed
			.filter((f) => earliest < Date.parse(f.time))
			.map((f) => ({
				manipulation_id: manipulationId,
				action,
				event_id: eventId,
				event_time: isoString(earliest),
				conflicts_with: f,
				reason: `The ${action} of event ${eventId} at ${isoString(earliest)} changes history before ${f.type} ${f.id} (${f.time}) in the same timeline.`,
			}));
		if (found.length > 0) {
			const list = w.paradoxes.get(timeline.timeline_id) ?? [];
			list.push(...found);
			w.paradoxes.set(timeline.timeline_id, list);
			for (const p of found) this.recordAnomaly([timeline], 'paradox', earliest, p.reason);
		}
		return found;
	}

	private paradoxCheck(w: World, body: JsonObject): Reply {
		const timeline = this.timeline(w, requiredString(body, 'timeline_id'));
		const paradoxes = w.paradoxes.get(timeline.timeline_id) ?? [];
		return ok({
			check_id: newId('chk'),
			timeline_id: timeline.timeline_id,
			paradox_found: paradoxes.length > 0,
			paradoxes: paradoxes.map((p) => ({ ...p })),
			status: paradoxes.length > 0 ? `${paradoxes.length} paradox(es) found.` : 'No paradox found.',
		});
	}

	private monitorTimeline(w: World, ctx: RequestContext): Reply {
		const timeline = this.timeline(w, requiredString(mergeParams(ctx), 'timeline_id'));
		const anomalies = timeline.anomalies.map((a) => ({ ...a }));
		return ok({
			timeline_id: timeline.timeline_id,
			status: anomalies.length > 0 ? `${anomalies.length} anomaly(ies) detected.` : 'No anomalies detected.',
			anomalies,
		});
	}

	// ---- helpers --------------------------------------------------------------------

	private timeline(w: World, id: string): Timeline {
		const timeline = w.timelines.get(id);
		if (!timeline) throw notFound('timeline_id', `No timeline with timeline_id '${id}' exists.`);
		return timeline;
	}

	private recordAnomaly(timelines: Timeline[], type: Anomaly['type'], at: number, description: string): Anomaly[] {
		return timelines.map((timeline) => {
			const anomaly: Anomaly = { anomaly_id: newId('anm'), type, time: isoString(at), description, detected_at: this.clock.nowIso() };
			timeline.anomalies.push(anomaly);
			return anomaly;
		});
	}
}

function publicTimeline(t: Timeline): Omit<Timeline, 'anomalies'> {
	return { timeline_id: t.timeline_id, name: t.name, description: t.description, created_at: t.created_at };
}

function notFound(field: string, message: string): HttpError {
	return new HttpError(404, 'not_found', message, field);
}

/** Query parameters overlaid by a JSON body's fields (for GETs that document a body). */
function mergeParams(ctx: RequestContext): JsonObject {
	const merged: JsonObject = {};
	for (const [k, v] of Object.entries(ctx.query)) merged[k] = Array.isArray(v) ? v[0] : v;
	if (ctx.body !== undefined && !isObject(ctx.body)) throw invalid('body', 'The request body must be a JSON object.');
	return { ...merged, ...(ctx.body ?? {}) };
}
