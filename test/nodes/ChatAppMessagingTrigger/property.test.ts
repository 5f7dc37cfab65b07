// The trigger's payload parsing, property-based: whatever arrives (any JSON, any text, an
// event with a field missing, mistyped or malformed), the trigger answers without crashing
// (never 500), and a workflow starts exactly when the payload is a valid event.
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { checkEvent, readJsonObject, windowOpenUntil } from '../../../nodes/shared/chatAppMessaging/trigger/events';
import { hostTrigger, type HostedTrigger } from '../../support/harness';
import { inbound, status } from '../../support/trigger-payloads';


let calls = 0;
let starts = 0;
let invalidStarts = 0;
let crashes = 0;

/**
 * The contract, written from the documents and not from the trigger's code: the fields of each
 * event as the messaging service's document lists them ("Webhook payloads"), and among them
 * the ones a delivery must carry as non-empty strings for the trigger to start a workflow,
 * as the README's "Responses" paragraph promises the user (the id and status make the
 * repeated-delivery key, the sender and timestamp the 24-hour window). The other documented
 * fields pass through as they come: an inbound media message may arrive without text.
 */
const CONTRACT = {
	'message.status': {
		documented: ['event_type', 'message_id', 'conversation_id', 'channel', 'to', 'status', 'timestamp'],
		required: ['message_id', 'status', 'timestamp'],
	},
	'message.inbound': {
		documented: ['event_type', 'message_id', 'conversation_id', 'channel', 'from', 'text', 'timestamp'],
		required: ['message_id', 'from', 'timestamp'],
	},
} as const;

/** Whether the trigger must start a workflow for this delivery (with Include Unknown Event Types off). */
function isValidEvent(body: unknown): boolean {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
	const event = body as IDataObject;
	const type = event.event_type;
	if (type !== 'message.status' && type !== 'message.inbound') return false;
	const text = (value: unknown) => typeof value === 'string' && value.trim() !== '';
	// ISO 8601 as the document says, read as leniently as JavaScript's Date.parse reads it
	return CONTRACT[type].required.every((field) => text(event[field])) && !Number.isNaN(Date.parse(event.timestamp as string));
}

const anyValue = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(''), fc.constant('   '), fc.array(fc.string(), { maxLength: 2 }), fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }), fc.constant('not a date'), fc.date({ noInvalidDate: true }).map((d) => d.toISOString()));

/** A valid event with one field removed or replaced: the near misses a real sender makes. */
const nearMiss = fc
	.tuple(fc.constantFrom(inbound, status), fc.constantFrom(...new Set([...CONTRACT['message.status'].documented, ...CONTRACT['message.inbound'].documented, 'extra'])), fc.option(anyValue, { nil: undefined }))
	.map(([event, field, value]) => {
		const copy: IDataObject = { ...event };
		if (value === undefined) delete copy[field];
		else copy[field] = value as IDataObject[string];
		return copy;
	});

const payload = fc.oneof(
	{ arbitrary: nearMiss, weight: 4 },
	{ arbitrary: fc.constantFrom<IDataObject>(inbound, status), weight: 1 },
	{ arbitrary: fc.jsonValue(), weight: 2 },
	{ arbitrary: fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 4 }), weight: 1 },
);

describe('payload parsing, pure', () => {
	it('never throws, and accepts a known event exactly when the contract does', () => {
		fc.assert(
			fc.property(fc.oneof(payload, fc.anything()), (body) => {
				const raw = JSON.stringify(body) ?? '';
				const read = readJsonObject(body, Buffer.from(raw));
				if (typeof read === 'string') {
					expect(read).toMatch(/^The request body /);
					return;
				}
				const checked = checkEvent(read);
				const acceptedAsKnown = checked.ok && checked.known;
				expect(acceptedAsKnown).toBe(isValidEvent(read));
				if (!checked.ok) expect(checked.message).toMatch(/event_type|Invalid message\.(inbound|status) event/);
			}),
			{ numRuns: 1000 },
		);
	});

	it('reads any text that is not a JSON object as a problem, never as an event', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'binary' }), (text) => {
				let object = false;
				try {
					const parsed: unknown = JSON.parse(text);
					object = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
				} catch {
					object = false;
				}
				const read = readJsonObject(text, Buffer.from(text));
				expect(typeof read === 'string').toBe(!object);
			}),
			{ numRuns: 1000 },
		);
	});
});

describe('payload parsing, over HTTP through the hosted trigger', () => {
	let hosted: HostedTrigger;
	beforeAll(async () => {
		hosted = await hostTrigger({ parameters: { ignoreRepeatedDeliveries: false } });
	});
	afterAll(async () => {
		await hosted?.close();
		console.log(`property-trigger: ${calls} generated deliveries, ${starts} valid ones started, ${invalidStarts} invalid ones started, ${crashes} crashes`);
	});

	it('never answers 500, and starts a workflow exactly for a valid event (with what was sent)', async () => {
		await fc.assert(
			fc.asyncProperty(payload, fc.constantFrom('application/json', 'text/plain', null), async (body, contentType) => {
				hosted.clearRecords();
				calls++;
				const res = await hosted.post(JSON.stringify(body), { contentType });
				const valid = isValidEvent(body);
				if (res.status >= 500 || hosted.calls[0].error !== undefined) crashes++;
				if (!valid) invalidStarts += hosted.starts.length;
				expect(res.status).not.toBe(500);
				expect(hosted.calls[0].error).toBeUndefined();
				expect(hosted.starts).toHaveLength(valid ? 1 : 0);
				if (valid) {
					starts++;
					expect(res.status).toBe(200);
					expect(hosted.starts[0].json).toEqual([expect.objectContaining(body as IDataObject)]);
				} else {
					expect([200, 400]).toContain(res.status);
				}
			}),
			{ numRuns: 300 },
		);
	});

	it('starts an inbound event from the last day JavaScript can represent, with no window end (found by this property)', async () => {
		hosted.clearRecords();
		const body = { ...inbound, timestamp: '+275760-09-12T00:00:00.001Z' };
		const res = await hosted.post(JSON.stringify(body), { contentType: 'application/json' });

		expect(res.status).toBe(200);
		expect(hosted.starts[0].json).toEqual([expect.objectContaining({ window_open_until: null })]);
		expect(windowOpenUntil('2026-05-01T09:30:00Z')).toBe('2026-05-02T09:30:00.000Z');
	});

	it('refuses any text that is not JSON without crashing and without starting', async () => {
		await fc.assert(
			fc.asyncProperty(fc.string({ minLength: 1, maxLength: 200 }), fc.constantFrom('application/json', 'text/plain'), async (text, contentType) => {
				fc.pre((() => { try { JSON.parse(text); return false; } catch { return true; } })());
				hosted.clearRecords();
				calls++;
				const res = await hosted.post(text, { contentType });
				if (res.status >= 500) crashes++;
				invalidStarts += hosted.starts.length;
				// n8n itself answers 422 for a JSON content type it cannot parse; the trigger answers 400 otherwise.
				expect(res.status).toBe(contentType === 'application/json' ? 422 : 400);
				expect(hosted.starts).toEqual([]);
			}),
			{ numRuns: 100 },
		);
	});
});
