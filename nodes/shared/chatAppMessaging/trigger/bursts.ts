// Gathers a customer's quick messages into one run ("Messages in Quick Succession → Gather Into One
// Run"): "hi" / "I ordered on Monday" / "where is it?" start one run once the customer has been
// quiet for the Quiet Time, or once the burst's first message is the Longest Wait old, with the
// messages in order. Every delivery is still answered 200 at once.
//
// n8n gives a webhook node no way to start a run except by returning it from a webhook call
// (`IWebhookFunctions` has no `emit`; `trigger()` and its `emit` run on the leader main process
// only, never on webhook processes), and it saves the node's static data only when a call is
// answered. So:
// - each delivery is answered and its message kept in the node's static data (`bursts`), which
//   n8n saves as it answers: a message answered 200 is never only in a process's memory;
// - when the burst is due, the process that took its last message calls the trigger's own
//   Production URL (`flush`, carrying the trigger's flush key instead of the webhook's credential),
//   and that call returns the burst as the run; whichever n8n process takes it reads the burst
//   from static data. n8n saves the emptied burst before it starts the run, so it starts once;
// - after a restart no timer is left. n8n 1.x calls the webhook's `create` hook at start-up, which
//   schedules the same call for every burst still held; n8n 2.x (2.41 `active-workflow-manager.js`,
//   `addWebhooks`) finds the webhook stored already, skips `create`, and runs nothing else of a
//   webhook node. So a delivery also starts a burst that is overdue (one per delivery): after a
//   restart on 2.x, or when the trigger could not reach its own URL, the next message does.
// As the repeat memory (./deliveryMemory.ts), each call loads its own copy of static data: the
// process memory holds this process's messages until it sees them started, and every call writes
// them back into its copy, so a concurrent save cannot drop one.
import { createHmac } from 'crypto';
import { sleep, type IDataObject, type IHookFunctions, type IWebhookFunctions } from 'n8n-workflow';
import { digestOf, DIGEST_LENGTH } from '../../digest';
import { sameSecret } from './authentication';

/** Where the bursts live in the node's static data. */
export const BURSTS_KEY = 'bursts';
/** The header a flush call carries the trigger's flush key in. */
export const FLUSH_HEADER = 'x-chat-app-trigger-flush';
/** A flush call's event type: never one the service sends. */
export const FLUSH_EVENT = 'chat-app-trigger.flush';

/** At most this many customers' bursts are held; past it the oldest burst starts at once. */
export const MAX_BURSTS = 1000;
/** A burst of this many messages starts at once. */
export const MAX_BURST_MESSAGES = 50;
/** At most this many characters of held messages (as JSON); past it the oldest burst starts at once. */
export const MAX_HELD_CHARS = 1_000_000;
/** Started messages remembered (by message ID), so that no copy of static data brings one back. */
const MAX_STARTED = 5000;
/**
 * A delivery starts another customer's burst only this long after it was due: until then the call
 * of the process that took its last message is on its way (in queue mode, a delivery at another
 * process starting it at the same moment would start it twice).
 */
export const OVERDUE_AFTER_MS = 5000;
/** A flush call is made again after these waits while it fails or this process holds the burst, then the burst is left to the next delivery. */
const FLUSH_RETRY_MS = [1000, 2000, 4000, 8000];

export interface BurstSettings {
	quietMs: number;
	longestMs: number;
}

/** One held message: the inbound event's fields as the trigger outputs them, when this n8n received it, and its size as JSON. */
interface HeldMessage {
	event: IDataObject;
	receivedAt: number;
	chars: number;
}

/** One customer's burst. */
interface Burst {
	from: string;
	messages: HeldMessage[];
}

interface StoredBursts {
	/** Customer → their messages, oldest first. */
	held: Record<string, HeldMessage[]>;
	/** Digests of the message IDs of started bursts, DIGEST_LENGTH each, oldest first. */
	started: string;
}

/** A flush call this process makes for a customer's burst, due at `at` (ms). */
interface FlushCall {
	at: number;
	made: boolean;
}

/** This process's messages not yet seen started, and its flush calls, per workflow and trigger node. */
interface ProcessBursts {
	held: Map<string, HeldMessage[]>;
	started: Set<string>;
	/** Customer → the flush call for their burst's latest due time. */
	calls: Map<string, FlushCall>;
	/** Whether this trigger's wait for due calls runs: one per trigger, however many bursts. */
	waiting: boolean;
	/** Set when the workflow is unpublished: waits and retries end. */
	stopped: boolean;
	/** The context flush calls are made with: the latest call's (the same URL and instance). */
	caller?: Caller;
	/** The Production URL the flush calls go to. */
	url?: string;
}

const processes = new Map<string, ProcessBursts>();

function processBurstsOf(owner: BurstOwner): ProcessBursts {
	const scope = `${owner.workflowId}\u0000${owner.nodeId}`;
	let memory = processes.get(scope);
	if (!memory) {
		memory = { held: new Map(), started: new Set(), calls: new Map(), waiting: false, stopped: false };
		processes.set(scope, memory);
	}
	return memory;
}

export interface BurstOwner {
	workflowId: string;
	nodeId: string;
}

const idOf = (message: HeldMessage) => digestOf(String(message.event.message_id));

function isHeldMessage(value: unknown): value is HeldMessage {
	const message = value as HeldMessage;
	return (
		typeof message === 'object' &&
		message !== null &&
		typeof message.receivedAt === 'number' &&
		typeof message.chars === 'number' &&
		typeof message.event === 'object' &&
		message.event !== null
	);
}

/** The stored bursts as loaded, if readable; never writes. */
function readStored(staticData: IDataObject): StoredBursts | undefined {
	const stored = staticData[BURSTS_KEY] as StoredBursts | undefined;
	if (!stored || typeof stored.held !== 'object' || stored.held === null || typeof stored.started !== 'string') return undefined;
	return stored;
}

/** When a burst is due: quiet for the Quiet Time, or its first message the Longest Wait old. */
function dueAt(messages: HeldMessage[], settings: BurstSettings): number {
	return Math.min(messages[messages.length - 1].receivedAt + settings.quietMs, messages[0].receivedAt + settings.longestMs);
}

/** The digests of a string of them, DIGEST_LENGTH characters each. */
function digestsIn(digests: string): Set<string> {
	const set = new Set<string>();
	for (let i = 0; i < digests.length; i += DIGEST_LENGTH) set.add(digests.slice(i, i + DIGEST_LENGTH));
	return set;
}

/** The bursts held, from the stored copy and this process's memory, without what was started. */
function heldBursts(stored: StoredBursts | undefined, local: ProcessBursts): Map<string, HeldMessage[]> {
	const started = new Set([...local.started, ...digestsIn(stored?.started ?? '')]);
	// What another process started: this one forgets it.
	for (const [from, messages] of local.held) {
		const left = messages.filter((message) => !started.has(idOf(message)));
		if (left.length > 0) local.held.set(from, left);
		else local.held.delete(from);
	}
	const bursts = new Map<string, HeldMessage[]>();
	const customers = new Set([...Object.keys(stored?.held ?? {}), ...local.held.keys()]);
	for (const from of customers) {
		const byId = new Map<string, HeldMessage>();
		const storedMessages = stored?.held[from];
		for (const message of [...(Array.isArray(storedMessages) ? storedMessages : []), ...(local.held.get(from) ?? [])]) {
			if (isHeldMessage(message) && !started.has(idOf(message)) && !byId.has(idOf(message))) byId.set(idOf(message), message);
		}
		if (byId.size > 0) bursts.set(from, [...byId.values()].sort((a, b) => a.receivedAt - b.receivedAt));
	}
	return bursts;
}

/** The burst that must start before any other: one too big or too old, else the held bursts past their bounds. */
function mustStartNow(bursts: Map<string, HeldMessage[]>, settings: BurstSettings, now: number): string | undefined {
	for (const [from, messages] of bursts) {
		if (messages.length >= MAX_BURST_MESSAGES || now >= messages[0].receivedAt + settings.longestMs) return from;
	}
	let chars = 0;
	for (const messages of bursts.values()) for (const message of messages) chars += message.chars;
	if (bursts.size > MAX_BURSTS || chars > MAX_HELD_CHARS) {
		// The oldest first: it has waited longest.
		return [...bursts].sort(([, a], [, b]) => a[0].receivedAt - b[0].receivedAt)[0][0];
	}
	return undefined;
}

/** The most overdue burst, if one is overdue. */
function overdue(bursts: Map<string, HeldMessage[]>, settings: BurstSettings, now: number): string | undefined {
	let chosen: string | undefined;
	let earliest = Infinity;
	for (const [from, messages] of bursts) {
		const due = dueAt(messages, settings);
		if (due + OVERDUE_AFTER_MS <= now && due < earliest) {
			earliest = due;
			chosen = from;
		}
	}
	return chosen;
}

/** The burst as one item: the last message's fields, then the texts joined, the count, the first and last times, and each message. */
function burstItem(burst: Burst): IDataObject {
	const events = burst.messages.map((message) => message.event);
	const first = events[0];
	const last = events[events.length - 1];
	return {
		...last,
		text: events
			.map((event) => event.text)
			.filter((text): text is string => typeof text === 'string' && text !== '')
			.join('\n'),
		message_count: events.length,
		first_timestamp: first.timestamp,
		// The customer's message before the burst, not the burst's own second-to-last.
		previous_inbound_at: first.previous_inbound_at ?? null,
		messages: events,
	};
}

export interface Gathered {
	/** The burst this call starts, as its one item. */
	start?: IDataObject;
	/** The message IDs of that burst: the flush call answers with them, so that its caller forgets them. */
	startedIds?: string[];
	/** Customers whose burst this process holds, with when each is due. */
	due: Array<{ from: string; at: number }>;
}

/**
 * The bursts of one trigger node during one webhook call: `staticData` is the node's static data
 * as n8n loaded it for this call. `add` (a delivery) and `flush` (a flush call, or none) record
 * and decide; the call then writes the bursts back into `staticData`, which n8n saves as it
 * answers, before the run the call returns starts.
 */
function decide(staticData: IDataObject, owner: BurstOwner, settings: BurstSettings, now: number, message?: HeldMessage, flushFor?: string): Gathered {
	const local = processBurstsOf(owner);
	const stored = readStored(staticData);
	if (message) {
		const from = String(message.event.from);
		local.held.set(from, [...(local.held.get(from) ?? []), message]);
	}
	const bursts = heldBursts(stored, local);
	const urgent = mustStartNow(bursts, settings, now);
	const named = flushFor !== undefined && bursts.has(flushFor) && dueAt(bursts.get(flushFor)!, settings) <= now ? flushFor : undefined;
	const starting = urgent ?? named ?? overdue(bursts, settings, now);

	let start: IDataObject | undefined;
	let startedIds: string[] | undefined;
	if (starting !== undefined) {
		const messages = bursts.get(starting)!;
		bursts.delete(starting);
		local.held.delete(starting);
		for (const id of messages.map(idOf)) local.started.add(id);
		start = burstItem({ from: starting, messages });
		startedIds = messages.map((message) => String(message.event.message_id));
	}
	// What this process started goes into every copy it writes, so a concurrent save cannot drop it.
	let started = stored?.started ?? '';
	const storedStarted = digestsIn(started);
	for (const id of local.started) if (!storedStarted.has(id)) started += id;
	// Bounded: the started IDs kept are the newest; the process forgets its own once stored.
	if (started.length > MAX_STARTED * DIGEST_LENGTH) started = started.slice(started.length - MAX_STARTED * DIGEST_LENGTH);
	if (local.started.size > MAX_STARTED) local.started = new Set([...local.started].slice(local.started.size - MAX_STARTED));

	// A plain object, assigned once through n8n's observable static data so that n8n saves it.
	const next: StoredBursts = { held: Object.fromEntries(bursts), started };
	staticData[BURSTS_KEY] = next as unknown as IDataObject;
	// This process calls for a burst whose last message it took: in queue mode another process may
	// hold the burst's other messages, and two calls at once could each start it.
	const tookTheLast = ([from, mine]: [string, HeldMessage[]]) => {
		const burst = bursts.get(from);
		return burst !== undefined && idOf(burst[burst.length - 1]) === idOf(mine[mine.length - 1]);
	};
	return { start, startedIds, due: [...local.held].filter(tookTheLast).map(([from]) => ({ from, at: dueAt(bursts.get(from)!, settings) })) };
}

/** A delivery of an inbound message (`event` as the trigger outputs it). */
export function gatherMessage(staticData: IDataObject, owner: BurstOwner, settings: BurstSettings, event: IDataObject, now = Date.now()): Gathered {
	return decide(staticData, owner, settings, now, { event, receivedAt: now, chars: JSON.stringify(event).length });
}

/** A flush call for `from`'s burst: starts it if it is due (or another one that must start first). */
export function flushBurst(staticData: IDataObject, owner: BurstOwner, settings: BurstSettings, from: string, now = Date.now()): Gathered {
	return decide(staticData, owner, settings, now, undefined, from);
}

/**
 * The key a flush call of this trigger carries: n8n's instance ID (derived from its encryption
 * key, which every process of an n8n shares) keyed to the workflow and node. The same in every
 * process and after a restart, and unknown to whoever only knows the webhook's URL.
 */
function flushKey(n8n: Pick<IWebhookFunctions | IHookFunctions, 'getInstanceId'>, owner: BurstOwner): string {
	return createHmac('sha256', n8n.getInstanceId()).update(`chat-app burst flush\u0000${owner.workflowId}\u0000${owner.nodeId}`).digest('base64url');
}

/** Whether a flush call carries this trigger's flush key. */
export function isFlushCall(n8n: Pick<IWebhookFunctions, 'getInstanceId'>, owner: BurstOwner, key: unknown): boolean {
	return typeof key === 'string' && sameSecret(key, flushKey(n8n, owner));
}

/** The bursts held in the node's static data at activation, with when each is due. */
export function heldAtActivation(staticData: IDataObject, settings: BurstSettings): Array<{ from: string; at: number }> {
	const stored = readStored(staticData);
	if (!stored) return [];
	return Object.entries(stored.held)
		.filter((entry): entry is [string, HeldMessage[]] => Array.isArray(entry[1]) && entry[1].length > 0 && entry[1].every(isHeldMessage))
		.map(([from, messages]) => ({ from, at: dueAt(messages, settings) }));
}

/** Messages started elsewhere (by their IDs): this process holds them no more. */
function forgetStarted(memory: ProcessBursts, messageIds: string[]): void {
	const ids = new Set(messageIds.map((id) => digestOf(id)));
	for (const id of ids) memory.started.add(id);
	for (const [from, messages] of memory.held) {
		const left = messages.filter((message) => !ids.has(idOf(message)));
		if (left.length > 0) memory.held.set(from, left);
		else memory.held.delete(from);
	}
}

type Caller = Pick<IWebhookFunctions | IHookFunctions, 'helpers' | 'logger' | 'getNodeWebhookUrl' | 'getInstanceId'>;

/** Waits are cut into steps this long, so that unpublishing ends them soon. */
const STEP_MS = 1000;

/** Waits `ms` unless the trigger is unpublished meanwhile; whether it is still published. */
async function pause(memory: ProcessBursts, ms: number): Promise<boolean> {
	for (let until = Date.now() + ms; !memory.stopped && Date.now() < until; ) await sleep(Math.min(STEP_MS, until - Date.now()));
	return !memory.stopped;
}

/**
 * Calls the trigger's own Production URL when `from`'s burst is due (not awaited by the caller):
 * once per process and customer for the latest due time.
 */
export function scheduleFlush(n8n: Caller, owner: BurstOwner, from: string, at: number): void {
	const memory = processBurstsOf(owner);
	memory.stopped = false;
	memory.caller = n8n;
	memory.url = n8n.getNodeWebhookUrl('default');
	if (memory.calls.get(from)?.at === at) return;
	memory.calls.set(from, { at, made: false });
	if (!memory.waiting) void makeCallsWhenDue(memory, owner);
}

/**
 * The trigger's `url` stopped listening: when that is where the flush calls go (unpublishing, not
 * the end of a test listen on the Test URL), none is made or made again; the bursts stay in
 * static data.
 */
export function stopFlushes(owner: BurstOwner, url: string | undefined): void {
	const memory = processBurstsOf(owner);
	if (memory.url !== undefined && memory.url !== url) return;
	memory.stopped = true;
	memory.calls.clear();
}

/**
 * One wait per trigger: makes each flush call as it falls due, until none is left. It looks again
 * every step: a call scheduled meanwhile may be due sooner (a shorter Quiet Time after a
 * republication, a chatty customer's Longest Wait).
 */
async function makeCallsWhenDue(memory: ProcessBursts, owner: BurstOwner): Promise<void> {
	memory.waiting = true;
	try {
		for (;;) {
			const waiting = [...memory.calls].filter(([, call]) => !call.made);
			if (waiting.length === 0 || memory.stopped) return;
			const now = Date.now();
			const next = Math.min(...waiting.map(([, call]) => call.at));
			if (next > now) {
				await pause(memory, Math.min(STEP_MS, next - now));
				continue;
			}
			for (const [from, call] of waiting) {
				if (call.at > now) continue;
				call.made = true;
				void flush(memory, owner, from, call);
			}
		}
	} finally {
		memory.waiting = false;
	}
}

/**
 * One flush call, made again a few times while it fails, or while this process still holds
 * messages of the burst it has not seen started: in queue mode the call can reach another webhook
 * process, whose copy of static data lacks what a concurrent save dropped; a call that reaches
 * this process writes them back. Then the burst is left to the next delivery.
 */
async function flush(memory: ProcessBursts, owner: BurstOwner, from: string, call: FlushCall): Promise<void> {
	const n8n = memory.caller!;
	const url = memory.url;
	let failure: string | undefined;
	for (const retryMs of [...FLUSH_RETRY_MS, 0]) {
		// A later message moved the due time: that message's call comes.
		if (memory.calls.get(from) !== call) return;
		try {
			// The trigger's own URL, not the service: no credential, the flush key instead.
			const answer = (await n8n.helpers.httpRequest({ method: 'POST', url: url!, headers: { [FLUSH_HEADER]: flushKey(n8n, owner) }, body: { event_type: FLUSH_EVENT, from }, json: true, timeout: 30_000 })) as { message_ids?: unknown };
			// Whichever process took the call: what it started, this one holds no more.
			if (Array.isArray(answer?.message_ids)) forgetStarted(memory, answer.message_ids.map(String));
			failure = undefined;
			if (!memory.held.has(from)) break;
		} catch (error) {
			failure = (error as Error).message;
		}
		if (retryMs > 0 && !(await pause(memory, retryMs))) return;
	}
	if (memory.calls.get(from) === call) memory.calls.delete(from);
	if (failure) n8n.logger.warn(`Chat-App trigger: could not start a gathered burst through its own URL ${url ?? '(none)'} (${failure}); the next delivery starts it`);
}
