// One poll of the Timeline Navigation Events Trigger: ask the service what is there now, compare it
// with what the trigger has seen (./memory.ts, kept by ./store.ts), and start the workflow once for
// each new event or anomaly.
//
// What keeps every new thing to one execution, where n8n's own pollers have slipped:
// - the memory changes only after the service answered, so a failed poll (the service down, an
//   error status, a timeout) changes nothing; n8n records it as an error execution, and the next
//   good poll asks from where the last answered window ended (up to 7 days back), so the events
//   of an outage longer than Look Back are caught up too;
// - a poll that finds nothing new changes the memory only by forgetting what left the window and
//   by noting how far it asked, so nothing is lost whether n8n keeps that (its durable scheduler
//   commits the cursor) or not (the classic scheduler saves static data only when a poll starts
//   the workflow, and a restart then asks from an earlier point);
// - the first poll after publication only remembers, and that memory outlives the publication on
//   both of n8n's schedulers (./store.ts); Fetch Test Event remembers nothing;
// - a poll that starts while the same trigger's previous poll is still running (a slow service
//   and short Poll Times, on the classic scheduler, which does not wait) does nothing: two polls
//   of one memory could start the same event twice;
// - the poll, its 429 waits included, ends within the time n8n gives it (`getPollBudgetMs`: about
//   36 s on the durable scheduler, 5 minutes otherwise in n8n 2.41; older n8n gives none).
import { NodeOperationError, type IDataObject, type INodeExecutionData, type IPollFunctions } from 'n8n-workflow';
import { invalidSetting } from '../../errors';
import { Execution } from '../../execution';
import { checkUnitMilliseconds } from '../../fields/duration';
import { listEntries } from '../../fields/output';
import { DEFAULT_REQUEST_SETTINGS } from '../../fields/requestOptions';
import { checkWholeNumber } from '../../fields/validation';
import { request, type RequestScope, type RequestSettings } from '../../transport';
import { eventField, location, lookBackAmount, lookBackUnit, NEW_ANOMALY, NEW_EVENT, startWithExisting, timeline } from './description';
import { compareWithMemory, FingerprintCache, fingerprinted, MAX_LOOK_BACK_MS, newest, windowFor, type Listed, type Window } from './memory';
import { keptMemory } from './store';

/** What a poll watches, read and checked from the node's fields. */
interface Watch {
	/** What the memory is about: it changes with what is watched, so that the memory starts afresh. */
	subject: string;
	/** Events: how far back a poll looks. Anomalies have no window. */
	lookBackMs?: number;
	/** Asks the service; returns what it lists (with `cache`, fingerprinting only what changed since the last poll). */
	list(window?: Window, cache?: FingerprintCache): Promise<Listed[]>;
	/** An output item: what was listed, with where it came from. */
	item(json: IDataObject): IDataObject;
	/** Fetch Test Event's words when there is nothing to show. */
	nothing: string;
}

/** A poll has no Request Options: the node's defaults, within the time n8n gives a poll where it gives one. */
function pollSettings(n8n: IPollFunctions): RequestSettings {
	// n8n-workflow 2.41 added it; an older n8n's poll context lacks it.
	const budgetMs = typeof n8n.getPollBudgetMs === 'function' ? n8n.getPollBudgetMs() : undefined;
	if (budgetMs === undefined || !Number.isFinite(budgetMs)) return DEFAULT_REQUEST_SETTINGS;
	return { ...DEFAULT_REQUEST_SETTINGS, deadline: { at: Date.now() + budgetMs, what: `the ${Math.round(budgetMs / 1000)} s n8n gives a poll` } };
}

function scopeOf(n8n: IPollFunctions, label: string): RequestScope {
	return { execution: new Execution(n8n), index: 0, label, service: 'timeline', settings: pollSettings(n8n) };
}

function requiredText(n8n: IPollFunctions, field: { name: string; displayName: string }, value: unknown): string {
	if ((typeof value !== 'string' && typeof value !== 'number') || String(value).trim() === '') {
		throw invalidSetting(n8n, field.displayName, value, 'expected a value: this field is required');
	}
	return String(value).trim();
}

function eventsAt(n8n: IPollFunctions): Watch {
	const place = requiredText(n8n, location, n8n.getNodeParameter(location.name, ''));
	const amount = n8n.getNodeParameter(lookBackAmount.name, lookBackAmount.default);
	const count = checkWholeNumber(amount, 1);
	if (!count.ok) throw invalidSetting(n8n, lookBackAmount.displayName, amount, count.problem);
	const unit = n8n.getNodeParameter(lookBackUnit.name, lookBackUnit.default);
	const unitMs = checkUnitMilliseconds(unit);
	if (!unitMs.ok) throw invalidSetting(n8n, lookBackUnit.displayName, unit, unitMs.problem);
	const lookBackMs = count.value * unitMs.value;
	if (lookBackMs > MAX_LOOK_BACK_MS) {
		throw invalidSetting(n8n, lookBackAmount.displayName, `${count.value} ${String(unit)}`, 'expected at most 7 days (168 hours or 10,080 minutes): the trigger remembers every event of the window, and n8n reads that memory for every poll');
	}
	const scope = scopeOf(n8n, `New events at "${place}"`);
	return {
		subject: `${NEW_EVENT}|${place}|${lookBackMs}`,
		lookBackMs,
		async list(window, cache) {
			const { start, end } = window ?? { start: Date.now() - lookBackMs, end: Date.now() };
			const params = { location: place, time_range: `${new Date(start).toISOString()}/${new Date(end).toISOString()}` };
			// As Event → Monitor: n8n's HTTP helper drops a GET's body, so the query carries them.
			const answer = await request(scope, { method: 'GET', path: '/monitor-events', qs: params, body: { ...params } });
			return fingerprinted(listEntries(scope, answer, 'events'), (event) => event.time, cache);
		},
		item: (event) => ({ location: place, ...event }),
		nothing: `No event at "${place}" in the last ${count.value} ${count.value === 1 ? String(unit).replace(/s$/, '') : String(unit)}`,
	};
}

/** The timeline as the user picked it: its name from the list, with its ID, or the ID entered. */
function timelineAsPicked(n8n: IPollFunctions, id: string): string {
	const picked = n8n.getNodeParameter(timeline.name, '', { extractValue: false }) as { cachedResultName?: unknown };
	const name = typeof picked === 'object' && picked !== null && typeof picked.cachedResultName === 'string' ? picked.cachedResultName.trim() : '';
	return name !== '' && name !== id ? `"${name}" (${id})` : `"${id}"`;
}

function anomaliesIn(n8n: IPollFunctions): Watch {
	const id = requiredText(n8n, timeline, n8n.getNodeParameter(timeline.name, '', { extractValue: true }));
	const named = timelineAsPicked(n8n, id);
	const scope = scopeOf(n8n, `New anomalies in timeline ${named}`);
	return {
		subject: `${NEW_ANOMALY}|${id}`,
		async list(_window, cache) {
			const answer = await request(scope, { method: 'GET', path: '/monitor-timeline', qs: { timeline_id: id } });
			return fingerprinted(listEntries(scope, answer, 'anomalies'), (anomaly) => anomaly.time ?? anomaly.detected_at, cache);
		},
		item: (anomaly) => ({ timeline_id: id, ...anomaly }),
		nothing: `No anomaly in timeline ${named}`,
	};
}

function watchOf(n8n: IPollFunctions): Watch {
	const event = n8n.getNodeParameter(eventField.name, eventField.default);
	if (event === NEW_EVENT) return eventsAt(n8n);
	if (event === NEW_ANOMALY) return anomaliesIn(n8n);
	throw invalidSetting(n8n, eventField.displayName, event, `expected "${NEW_EVENT}" (New Event at a Location) or "${NEW_ANOMALY}" (New Anomaly in a Timeline)`);
}

/** Fetch Test Event: the newest event with a time (in the window) or anomaly, remembering nothing. */
async function fetchTestEvent(n8n: IPollFunctions, watch: Watch): Promise<INodeExecutionData[][]> {
	const window = watch.lookBackMs === undefined ? undefined : windowFor(undefined, Date.now(), watch.lookBackMs);
	const listed = await watch.list(window);
	const shown = newest(window ? listed.filter((entry) => Number.isNaN(entry.at) || (entry.at >= window.start && entry.at <= window.end)) : listed);
	if (!shown) {
		throw new NodeOperationError(n8n.getNode(), `${watch.nothing}: nothing to show`, {
			description: 'Fetch Test Event shows the newest one the service lists now. Nothing was remembered, so the workflow still starts for it once it appears.',
		});
	}
	return [n8n.helpers.returnJsonArray([watch.item(shown.json)])];
}

/** The triggers of this process with a poll under way, by workflow and node. */
const polling = new Set<string>();

export async function pollTimeline(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const watch = watchOf(this);
	if (this.getMode() === 'manual') return await fetchTestEvent(this, watch);
	const trigger = `${this.getWorkflow().id ?? ''}\u0000${this.getNode().id}`;
	if (polling.has(trigger)) return null;
	polling.add(trigger);
	try {
		return await pollOnce(this, watch);
	} finally {
		polling.delete(trigger);
	}
}

async function pollOnce(n8n: IPollFunctions, watch: Watch): Promise<INodeExecutionData[][] | null> {
	const kept = keptMemory(n8n, watch.subject);
	const window = watch.lookBackMs === undefined ? undefined : windowFor(kept.memory, Date.now(), watch.lookBackMs);
	const cache = new FingerprintCache(`${n8n.getWorkflow().id ?? ''}\u0000${n8n.getNode().id}\u0000${watch.subject}`);
	const { fresh, memory } = compareWithMemory(kept.memory, watch.subject, await watch.list(window, cache), window);
	const started = kept.memory === undefined && !n8n.getNodeParameter(`options.${startWithExisting.name}`, false) ? [] : fresh;
	kept.keep(memory);
	return started.length > 0 ? [n8n.helpers.returnJsonArray(started.map((entry) => watch.item(entry.json)))] : null;
}
