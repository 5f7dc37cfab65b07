// One poll of the Timeline Navigation Events Trigger: ask the service what is there now, compare it with
// what was seen (./memory.ts), and start the workflow once for each new event or anomaly.
//
// What keeps every new thing to exactly one execution, where n8n's own pollers have slipped:
// - the memory changes only after the service answered, in the poll that returns what it found,
//   so a failed poll (the service down, an error status, a timeout) changes nothing and the next
//   successful poll returns what was missed; n8n records the failed one as an error execution;
// - a poll that finds nothing new changes the memory only by forgetting what left the window,
//   so nothing is lost when n8n, which saves a poller's static data only when it returns items
//   (and after activation), restarts before the next save;
// - the first poll after activation (or after a change of what is watched) only remembers, and
//   n8n saves the memory once the activation succeeds; Fetch Test Event remembers nothing.
import { NodeOperationError, type IDataObject, type INodeExecutionData, type IPollFunctions } from 'n8n-workflow';
import { invalidSetting } from '../../errors';
import { Execution } from '../../execution';
import { checkUnitMilliseconds } from '../../fields/duration';
import { listEntries } from '../../fields/output';
import { DEFAULT_REQUEST_SETTINGS } from '../../fields/requestOptions';
import { checkWholeNumber } from '../../fields/validation';
import { request, type RequestScope } from '../../transport';
import { eventField, location, lookBackAmount, lookBackUnit, NEW_ANOMALY, NEW_EVENT, startWithExisting, timeline } from './description';
import { fingerprinted, oldestFirst, sight, type Listed } from './memory';

/** What a poll watches, read and checked from the node's fields. */
interface Watch {
	/** Changes when what is watched changes, so the memory starts afresh. */
	key: string;
	/** How the service is asked, and how errors name the poll. */
	scope: RequestScope;
	/** Asks the service; returns what it lists, and the start of the window the answer covers. */
	list(): Promise<{ listed: Listed[]; windowStart?: number }>;
	/** An output item: what was listed, with where it came from. */
	item(json: IDataObject): IDataObject;
	/** Fetch Test Event's words when there is nothing to show. */
	nothing: string;
}

function scopeOf(n8n: IPollFunctions, label: string): RequestScope {
	// A poll has no Request Options: it uses the node's defaults (30 s timeout, 429 retried).
	return { execution: new Execution(n8n), index: 0, label, service: 'timeline', settings: DEFAULT_REQUEST_SETTINGS };
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
	const scope = scopeOf(n8n, `New events at "${place}"`);
	return {
		key: `${NEW_EVENT}|${place}|${lookBackMs}`,
		scope,
		async list() {
			const now = Date.now();
			const windowStart = now - lookBackMs;
			const params = { location: place, time_range: `${new Date(windowStart).toISOString()}/${new Date(now).toISOString()}` };
			// As Event → Monitor: n8n's HTTP helper drops a GET's body, so the query carries them.
			const answer = await request(scope, { method: 'GET', path: '/monitor-events', qs: params, body: { ...params } });
			return { listed: fingerprinted(listEntries(scope, answer, 'events'), (event) => event.time), windowStart };
		},
		item: (event) => ({ location: place, ...event }),
		nothing: `No event at "${place}" in the last ${count.value} ${count.value === 1 ? String(unit).replace(/s$/, '') : String(unit)}`,
	};
}

function anomaliesIn(n8n: IPollFunctions): Watch {
	const id = requiredText(n8n, timeline, n8n.getNodeParameter(timeline.name, '', { extractValue: true }));
	const scope = scopeOf(n8n, `New anomalies in timeline "${id}"`);
	return {
		key: `${NEW_ANOMALY}|${id}`,
		scope,
		async list() {
			const answer = await request(scope, { method: 'GET', path: '/monitor-timeline', qs: { timeline_id: id } });
			return { listed: fingerprinted(listEntries(scope, answer, 'anomalies'), (anomaly) => anomaly.time ?? anomaly.detected_at) };
		},
		item: (anomaly) => ({ timeline_id: id, ...anomaly }),
		nothing: `No anomaly in timeline "${id}"`,
	};
}

function watchOf(n8n: IPollFunctions): Watch {
	const event = n8n.getNodeParameter(eventField.name, eventField.default);
	if (event === NEW_EVENT) return eventsAt(n8n);
	if (event === NEW_ANOMALY) return anomaliesIn(n8n);
	throw invalidSetting(n8n, eventField.displayName, event, `expected "${NEW_EVENT}" (New Event at a Location) or "${NEW_ANOMALY}" (New Anomaly in a Timeline)`);
}

export async function pollTimeline(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const watch = watchOf(this);
	const { listed, windowStart } = await watch.list();
	const items = (found: Listed[]) => [this.helpers.returnJsonArray(found.map((entry) => watch.item(entry.json)))];

	if (this.getMode() === 'manual') {
		const latest = oldestFirst(listed).at(-1);
		if (!latest) {
			throw new NodeOperationError(this.getNode(), `${watch.nothing}: nothing to show`, {
				description: 'Fetch Test Event shows the latest one the service lists now. Nothing was remembered, so the workflow still starts for it once it appears.',
			});
		}
		return items([latest]);
	}

	const { first, fresh } = sight(this.getWorkflowStaticData('node'), watch.key, listed, windowStart);
	const started = first && !this.getNodeParameter(`options.${startWithExisting.name}`, false) ? [] : fresh;
	return started.length > 0 ? items(started) : null;
}
