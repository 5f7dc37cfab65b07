// Bad input, table-driven, on every operation: empty, wrong type, wrong format, out of range,
// too long, expressions that resolve to null or nothing. Each fails before any request (the
// sandbox log stays empty) with an error naming the field, the value and the item. Path
// parameters shaped like paths, queries or fragments are encoded into their own segment.
import { SEND_AND_WAIT_OPERATION, type IDataObject } from 'n8n-workflow';
import { CUSTOMER, useSandbox } from '../../../support/node-support';
import { operationCase, requireEveryOperation, listedParameters } from '../../../support/operation-cases';
import { escapeRegExp } from '../../../support/regexp';
import { unshownLabels } from '../../../support/field-labels';

const ctx = useSandbox();

const rl = (value: unknown) => ({ __rl: true, mode: 'id', value });

interface BadInput {
	op: string;
	/** What is wrong, for the test's name. */
	what: string;
	overrides: IDataObject;
	field: string;
	/** The value as the error shows it. */
	shown: string;
	/** What the error says is expected. */
	expected: RegExp;
}

const ISO = /expected an ISO 8601 date-time such as 2026-05-01T09:30:00Z/;
const REAL = /expected a real calendar date-time/;
const REQUIRED = /expected a value: this field is required/;
const E164 = /expected a phone number in E\.164 form/;
const WHOLE = /expected a whole number of at least 1/;
const JSON_OBJECT = /expected a JSON object/;
const AN_ID = /expected an ID/;

const CASES: BadInput[] = [
	// Time
	{ op: 'Time → Travel', what: 'empty date-time', overrides: { destinationTime: '={{ "" }}' }, field: 'Destination Time', shown: '""', expected: ISO },
	{ op: 'Time → Travel', what: 'words for a date-time', overrides: { destinationTime: 'tomorrow at noon' }, field: 'Destination Time', shown: '"tomorrow at noon"', expected: ISO },
	{ op: 'Time → Travel', what: 'February 30th', overrides: { destinationTime: '2026-02-30T10:00:00Z' }, field: 'Destination Time', shown: '"2026-02-30T10:00:00Z"', expected: REAL },
	{ op: 'Time → Travel', what: 'hour 25', overrides: { destinationTime: '2026-05-01T25:00:00Z' }, field: 'Destination Time', shown: '"2026-05-01T25:00:00Z"', expected: REAL },
	{ op: 'Time → Travel', what: 'an offset no zone has', overrides: { destinationTime: '2026-05-01T10:00:00+19:00' }, field: 'Destination Time', shown: '"2026-05-01T10:00:00+19:00"', expected: /expected a UTC offset from -14:00 to \+14:00/ },
	{ op: 'Time → Travel', what: 'a number for a date-time', overrides: { destinationTime: '={{ 12345 }}' }, field: 'Destination Time', shown: '12345', expected: ISO },
	{ op: 'Time → Travel', what: 'a date-time expression resolving to null', overrides: { destinationTime: '={{ null }}' }, field: 'Destination Time', shown: 'null', expected: ISO },
	{ op: 'Time → Travel', what: 'empty location', overrides: { location: '={{ "" }}' }, field: 'Location', shown: '""', expected: REQUIRED },
	{ op: 'Time → Travel', what: 'blank location', overrides: { location: '   ' }, field: 'Location', shown: '"   "', expected: REQUIRED },
	{ op: 'Time → Travel', what: 'a location expression reading a missing field', overrides: { location: '={{ $json.missing }}' }, field: 'Location', shown: 'nothing', expected: REQUIRED },
	{ op: 'Time → Travel', what: 'a location expression resolving to null', overrides: { location: '={{ null }}' }, field: 'Location', shown: 'null', expected: REQUIRED },
	{ op: 'Time → Travel', what: 'an object for a location', overrides: { location: '={{ { "city": "Rome" } }}' }, field: 'Location', shown: '{"city":"Rome"}', expected: /expected text, not an object/ },
	{ op: 'Time → Fast-Forward', what: 'zero amount', overrides: { durationAmount: 0 }, field: 'Amount', shown: '0', expected: WHOLE },
	{ op: 'Time → Fast-Forward', what: 'negative amount', overrides: { durationAmount: -5 }, field: 'Amount', shown: '-5', expected: WHOLE },
	{ op: 'Time → Fast-Forward', what: 'fractional amount', overrides: { durationAmount: 1.5 }, field: 'Amount', shown: '1.5', expected: WHOLE },
	{ op: 'Time → Fast-Forward', what: 'words for an amount', overrides: { durationAmount: '={{ "ten" }}' }, field: 'Amount', shown: '"ten"', expected: WHOLE },
	{ op: 'Time → Fast-Forward', what: 'an amount expression resolving to null', overrides: { durationAmount: '={{ null }}' }, field: 'Amount', shown: 'null', expected: WHOLE },
	{ op: 'Time → Rewind', what: 'an amount too large to write as digits', overrides: { durationAmount: 1e21 }, field: 'Amount', shown: '1e+21', expected: /expected a duration such as 15m, 2h or 3d/ },
	{ op: 'Time → Rewind', what: 'an unknown unit', overrides: { durationUnit: 'weeks' }, field: 'Unit', shown: '"weeks"', expected: /expected the unit minutes, hours or days/ },
	// Anchor
	{ op: 'Anchor → Set', what: 'words for a timestamp', overrides: { timestamp: 'yesterday' }, field: 'Timestamp', shown: '"yesterday"', expected: ISO },
	{ op: 'Anchor → Create', what: 'month 13', overrides: { timestamp: '2026-13-01T00:00:00Z' }, field: 'Timestamp', shown: '"2026-13-01T00:00:00Z"', expected: REAL },
	{ op: 'Anchor → Return To', what: 'empty anchor ID', overrides: { anchorId: '={{ "" }}' }, field: 'Anchor ID', shown: '""', expected: REQUIRED },
	{ op: 'Anchor → Return To', what: 'an invalid optional date-time', overrides: { destinationTime: 'soon' }, field: 'Destination Time', shown: '"soon"', expected: ISO },
	// Event
	{ op: 'Event → Monitor', what: 'empty location', overrides: { location: '={{ "" }}' }, field: 'Location', shown: '""', expected: REQUIRED },
	{ op: 'Event → Monitor', what: 'a start after the end', overrides: { rangeStart: '2026-03-01T00:00:00Z' }, field: 'Start', shown: '"2026-03-01T00:00:00.000Z"', expected: /the start \(2026-03-01T00:00:00\.000Z\) is after the end \(2026-02-01T00:00:00\.000Z\)/ },
	{ op: 'Event → Monitor', what: 'an end that is not a date', overrides: { rangeEnd: 'later' }, field: 'End', shown: '"later"', expected: ISO },
	{ op: 'Event → Manipulate', what: 'an unknown action', overrides: { eventAction: 'explode' }, field: 'Action', shown: '"explode"', expected: /expected add, modify or remove/ },
	{ op: 'Event → Manipulate', what: 'remove without an event ID', overrides: { eventAction: 'remove', eventId: '={{ "" }}' }, field: 'Event ID', shown: '""', expected: REQUIRED },
	{ op: 'Event → Manipulate', what: 'modify with nothing to change', overrides: { eventAction: 'modify', eventId: 'evt_1', eventTime: '', description: '' }, field: 'Time', shown: '""', expected: /expected a change/ },
	{ op: 'Event → Manipulate', what: 'an empty timeline', overrides: { timelineId: rl('={{ "" }}') }, field: 'Timeline', shown: '""', expected: AN_ID },
	// Timeline
	{ op: 'Timeline → Create', what: 'empty name', overrides: { name: '={{ "" }}' }, field: 'Name', shown: '""', expected: REQUIRED },
	{ op: 'Timeline → Create', what: 'broken extra JSON', overrides: { additionalFields: { extraBody: '{not json' } }, field: 'Extra Body Fields (JSON)', shown: '"{not json"', expected: /not valid JSON/ },
	{ op: 'Timeline → Create', what: 'a JSON array for extra fields', overrides: { additionalFields: { extraBody: '[1,2]' } }, field: 'Extra Body Fields (JSON)', shown: '"[1,2]"', expected: JSON_OBJECT },
	{ op: 'Timeline → Get Many', what: 'limit 0', overrides: { returnAll: false, limit: 0 }, field: 'Limit', shown: '0', expected: WHOLE },
	{ op: 'Timeline → Get Many', what: 'a negative limit', overrides: { returnAll: false, limit: -3 }, field: 'Limit', shown: '-3', expected: WHOLE },
	{ op: 'Timeline → Delete', what: 'an empty ID', overrides: { timelineId: rl('={{ "" }}') }, field: 'Timeline', shown: '""', expected: AN_ID },
	{ op: 'Timeline → Delete', what: 'a blank ID', overrides: { timelineId: rl('   ') }, field: 'Timeline', shown: '"   "', expected: AN_ID },
	{ op: 'Timeline → Delete', what: 'an ID expression resolving to null', overrides: { timelineId: rl('={{ null }}') }, field: 'Timeline', shown: 'null', expected: AN_ID },
	{ op: 'Timeline → Travel To', what: 'an invalid date-time', overrides: { destinationTime: '2026-05-01 9:30' }, field: 'Destination Time', shown: '"2026-05-01 9:30"', expected: ISO },
	{ op: 'Timeline → Check for Paradoxes', what: 'an ID reading a missing field', overrides: { timelineId: rl('={{ $json.timeline }}') }, field: 'Timeline', shown: 'nothing', expected: AN_ID },
	{ op: 'Timeline → Monitor Anomalies', what: 'broken query JSON', overrides: { extraQuery: '{oops' }, field: 'Extra Query Fields (JSON)', shown: '"{oops"', expected: /not valid JSON/ },
	{ op: 'Timeline → Create', what: 'extra fields overriding the name', overrides: { additionalFields: { extraBody: '{"name":"Other"}' } }, field: 'Extra Body Fields (JSON)', shown: '{"name":"Other"}', expected: /remove "name"/ },
	{ op: 'Timeline → Travel To', what: 'extra fields overriding the timeline', overrides: { additionalFields: { extraBody: '{"timeline_id":"tl_2"}' } }, field: 'Extra Body Fields (JSON)', shown: '{"timeline_id":"tl_2"}', expected: /remove "timeline_id"/ },
	{ op: 'Timeline → Monitor Anomalies', what: 'query parameters overriding the timeline', overrides: { extraQuery: '{"timeline_id":"tl_2"}' }, field: 'Extra Query Fields (JSON)', shown: '{"timeline_id":"tl_2"}', expected: /remove "timeline_id"/ },
	{ op: 'Anchor → Create', what: 'extra fields repeating a listed additional field', overrides: { additionalFields: { timeline_id: 'tl_1', extraBody: '{"timeline_id":"tl_2"}' } }, field: 'Extra Body Fields (JSON)', shown: '{"timeline_id":"tl_2"}', expected: /remove "timeline_id"/ },
	{ op: 'Event → Manipulate', what: 'extra fields overriding the action', overrides: { additionalFields: { extraBody: '{"action":"remove"}' } }, field: 'Extra Body Fields (JSON)', shown: '{"action":"remove"}', expected: /remove "action"/ },
	// Request Options (every operation has them; Pause and Resume have nothing else)
	{ op: 'Time → Pause', what: 'a negative timeout', overrides: { requestOptions: { timeout: '={{ -5 }}' } }, field: 'Timeout (Ms)', shown: '-5', expected: /expected a whole number of at least 1/ },
	{ op: 'Time → Resume', what: 'more retries than allowed', overrides: { requestOptions: { maxRetries: '={{ 1000 }}' } }, field: 'Max Retries on Rate Limit', shown: '1000', expected: /expected a whole number from 0 to 10/ },
	{ op: 'Time → Resume', what: 'words for a retry wait', overrides: { requestOptions: { maxRetryWait: '={{ "long" }}' } }, field: 'Max Retry Wait (Seconds)', shown: '"long"', expected: /expected a whole number of at least 0/ },
	// Item
	{ op: 'Item → Register', what: 'empty name', overrides: { name: '={{ "" }}' }, field: 'Name', shown: '""', expected: REQUIRED },
	{ op: 'Item → Register', what: 'a blank timeline', overrides: { timelineId: rl(' ') }, field: 'Timeline', shown: '" "', expected: AN_ID },
	// Message
	{ op: 'Message → Send Text', what: 'empty recipient', overrides: { to: '={{ "" }}' }, field: 'To', shown: '""', expected: E164 },
	{ op: 'Message → Send Text', what: 'a number without +', overrides: { to: '14155550123' }, field: 'To', shown: '"14155550123"', expected: E164 },
	{ op: 'Message → Send Text', what: 'separators with normalising off', overrides: { to: '+1 415 555 0123', normalizePhoneNumber: false }, field: 'To', shown: '"+1 415 555 0123"', expected: /turn on "Normalize Phone Number"/ },
	{ op: 'Message → Send Text', what: 'a number too long for E.164', overrides: { to: '+1415555012345678' }, field: 'To', shown: '"+1415555012345678"', expected: E164 },
	{ op: 'Message → Send Text', what: 'an injection-shaped recipient', overrides: { to: "+1'; DROP TABLE messages;--" }, field: 'To', shown: '"+1\'; DROP TABLE messages;--"', expected: E164 },
	{ op: 'Message → Send Text', what: 'a recipient expression resolving to null', overrides: { to: '={{ null }}' }, field: 'To', shown: 'null', expected: E164 },
	{ op: 'Message → Send Text', what: 'empty text', overrides: { text: '={{ "" }}' }, field: 'Text', shown: '""', expected: REQUIRED },
	{ op: 'Message → Send Text', what: 'a text expression resolving to null', overrides: { text: '={{ null }}' }, field: 'Text', shown: 'null', expected: REQUIRED },
	{ op: 'Message → Send Text', what: 'an object as an injected field value', overrides: { injectedFieldsInput: 'json', injectedFieldsJson: '{"first_name":{"a":1}}' }, field: 'Injected Fields (JSON) "first_name"', shown: '{"a":1}', expected: /expected text, a number or a boolean/ },
	{ op: 'Message → Send Text', what: 'extra fields overriding the recipient', overrides: { additionalFields: { extraBody: `{"to":"${CUSTOMER}"}` } }, field: 'Extra Body Fields (JSON)', shown: `{"to":"${CUSTOMER}"}`, expected: /remove "to"/ },
	{ op: 'Message → Send Template', what: 'empty template ID', overrides: { templateId: '={{ "" }}' }, field: 'Template ID', shown: '""', expected: /expected the ID of an approved template/ },
	{ op: 'Message → Send Template', what: 'an empty positional parameter', overrides: { templateParameters: listedParameters(['']) }, field: 'Parameters → Parameter {{1}}', shown: '""', expected: /parameter 1 is empty/ },
	{ op: 'Message → Send Template', what: 'a gap between listed parameters', overrides: { templateParameters: { placeholder1: { value: 'Ada' }, placeholder3: { value: 'noon' } } }, field: 'Parameters → Parameter {{2}}', shown: 'nothing', expected: /\{\{3\}\} is given but \{\{2\}\} is not/ },
	{ op: 'Message → Send Template', what: 'parameters that are not a JSON array', overrides: { parametersInput: 'array', templateParametersArray: '{"a":1}' }, field: 'Parameters (Array)', shown: '"{"a":1}"', expected: /expected an array of parameter values/ },
	{ op: 'Message → Send Media', what: 'a javascript: URL', overrides: { mediaUrl: 'javascript:alert(1)' }, field: 'Media URL', shown: '"javascript:alert(1)"', expected: /expected an http or https URL/ },
	{ op: 'Message → Send Media', what: 'an ftp URL', overrides: { mediaUrl: 'ftp://example.com/a.jpg' }, field: 'Media URL', shown: '"ftp://example.com/a.jpg"', expected: /expected an http or https URL/ },
	{ op: 'Message → Send Location', what: 'latitude out of range', overrides: { latitude: 91 }, field: 'Latitude', shown: '91', expected: /expected a number from -90 to 90/ },
	{ op: 'Message → Send Location', what: 'longitude out of range', overrides: { longitude: -180.5 }, field: 'Longitude', shown: '-180.5', expected: /expected a number from -180 to 180/ },
	{ op: 'Message → Send Location', what: 'words for a latitude', overrides: { latitude: '={{ "north" }}' }, field: 'Latitude', shown: '"north"', expected: /expected a number from -90 to 90/ },
	{ op: 'Message → Send Custom', what: 'an empty JSON object', overrides: { customPayload: '{}' }, field: 'Custom Payload (JSON)', shown: '"{}"', expected: /at least one field/ },
	{ op: 'Message → Send Custom', what: 'broken JSON', overrides: { customPayload: 'type=poll' }, field: 'Custom Payload (JSON)', shown: '"type=poll"', expected: /not valid JSON/ },
	{ op: 'Message → Get Status', what: 'empty message ID', overrides: { messageId: '={{ "" }}' }, field: 'Message ID', shown: '""', expected: REQUIRED },
	{ op: 'Message → Send and Wait for Response', what: 'a number without +', overrides: { to: '14155550123' }, field: 'To', shown: '"14155550123"', expected: E164 },
	{ op: 'Message → Send and Wait for Response', what: 'an empty question', overrides: { message: '={{ "" }}' }, field: 'Message', shown: '""', expected: REQUIRED },
	{ op: 'Message → Send and Wait for Response', what: 'a fallback template without {link}', overrides: { fallbackToTemplate: true, questionTemplateId: 'approval_request', questionTemplateParameters: listedParameters(['order #1']) }, field: 'Fallback Parameters', shown: '["order #1"]', expected: /expected \{link\} in one of the parameters/ },
	{ op: 'Message → Send and Wait for Response', what: 'a wait of 0 minutes', overrides: { options: { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 0, resumeUnit: 'minutes' } } } }, field: 'Limit Wait Time → Amount', shown: '0', expected: /expected a number above 0/ },
	{ op: 'Message → Send and Wait for Response', what: 'a form element without a label', overrides: { responseType: 'customForm', formFields: { values: [{ fieldLabel: 'Reason' }, { fieldLabel: ' ' }] } }, field: 'Form Elements 2 → Field Label', shown: '" "', expected: /expected a name/ },
	{ op: 'Message → Send Text', what: 'an injected field without a name', overrides: { injectedFields: { field: [{ name: 'first_name', value: 'Ada' }, { name: '', value: 'x' }] } }, field: 'Injected Fields 2 → Name', shown: '""', expected: /expected the placeholder name/ },
	{ op: 'Message → Send Text', what: 'an empty fallback parameter', overrides: { to: '+14155550199', fallbackToTemplate: true, fallbackTemplateId: 'order_update', fallbackTemplateParameters: listedParameters(['']) }, field: 'Fallback Parameters → Parameter {{1}}', shown: '""', expected: /parameter 1 is empty/ },
];

// Every registered operation has at least one bad-input case, or this suite fails to load.
requireEveryOperation('The bad-input suite (test/nodes/TimelineNavigation/reliability/bad-input.test.ts)', CASES.map((c) => c.op));


describe('bad input fails before any request, naming the field, the value and the item', () => {
	it('the label check refuses labels the editor does not show, such as earlier names of these fields', () => {
		const sendAndWait = operationCase('Message → Send and Wait for Response');
		expect(unshownLabels(sendAndWait, 'Fallback Template Parameters')).toEqual(['Fallback Template Parameters']);
		expect(unshownLabels(sendAndWait, 'Limit Wait Time: Amount')).toEqual(['Limit Wait Time: Amount']);
		expect(unshownLabels(sendAndWait, 'Limit Wait Time → Latitude')).toEqual(['Latitude']);
		expect(unshownLabels(operationCase('Time → Travel'), 'Amount')).toEqual(['Amount']);
	});

	it.each(CASES.map((c) => [`${c.op}: ${c.what}`, c] as const))('%s: the error names the field as the editor labels it', (_name, c) => {
		expect(unshownLabels(operationCase(c.op), c.field)).toEqual([]);
	});

	it.each(CASES.map((c) => [`${c.op}: ${c.what}`, c] as const))('%s', async (_name, c) => {
		const op = operationCase(c.op);
		await ctx.sandbox.client.inbound(CUSTOMER, 'hi');
		await ctx.sandbox.client.clearRequests();
		// Send and Wait asks one question per execution, built from the first item.
		const items = op.operation === SEND_AND_WAIT_OPERATION ? [{}] : [{}, {}];
		const result = await ctx.runCase(op, c.overrides, items, { continueOnFail: true });

		expect(result.error).toBeUndefined();
		expect(result.output).toHaveLength(items.length);
		result.output.forEach((json, itemIndex) => {
			expect(json.error).toMatch(new RegExp(`^Invalid ${escapeRegExp(c.field)} in item ${itemIndex}: got ${escapeRegExp(c.shown)}, `));
			expect(json.error).toMatch(c.expected);
			expect(json.description).toMatch(new RegExp(`for item ${itemIndex}\\. Nothing was sent for this item\\.$`));
		});
		expect(await ctx.requests()).toEqual([]);
	});

	it('a required field left empty in the editor is refused by n8n itself, naming it, before the node runs', async () => {
		await expect(ctx.runCase(operationCase('Time → Travel'), { location: '' })).rejects.toThrow('Parameter "Location" is required.');
		await expect(ctx.runCase(operationCase('Message → Send Text'), { to: '' })).rejects.toThrow('Parameter "To" is required.');
		expect(await ctx.requests()).toEqual([]);
	});

	it('an impossible Concurrency (a setting of the whole run) stops the node before any request, naming it', async () => {
		const result = await ctx.runCase(operationCase('Time → Travel'), { requestOptions: { concurrency: '={{ 0 }}' } }, [{}, {}]);
		expect(result.error?.message).toBe('Invalid Concurrency in item 0: got 0, expected a whole number from 1 to 100');
		expect(await ctx.requests()).toEqual([]);
	});

	it('without Continue On Fail, the node stops at the first bad item and names it', async () => {
		const op = operationCase('Time → Travel');
		const result = await ctx.runCase(op, { location: '={{ $json.city }}' }, [{ city: 'Rome' }, { city: '' }], {});
		expect(result.error?.message).toBe('Invalid Location in item 1: got "", expected a value: this field is required');
		// Item 0 was fine and went; item 1 sent nothing.
		const bodies = (await ctx.requests()).map((request) => (request.body as IDataObject).location);
		expect(bodies).toEqual(['Rome']);
	});

	it('names each item with its own value when only some items are bad', async () => {
		const op = operationCase('Time → Fast-Forward');
		const result = await ctx.runCase(op, { durationAmount: '={{ $json.amount }}' }, [{ amount: 0 }, { amount: 3 }, { amount: 'x' }], { continueOnFail: true });
		expect(result.output[0].error).toBe('Invalid Amount in item 0: got 0, expected a whole number of at least 1');
		expect(result.output[1].error).toBeUndefined();
		expect(result.output[2].error).toBe('Invalid Amount in item 2: got "x", expected a whole number of at least 1');
		expect((await ctx.requests()).map((request) => request.body)).toEqual([{ duration: '3h' }]);
	});
});

// ---- path parameters -----------------------------------------------------------------

const HOSTILE_IDS = ['../timelines', 'a/b', '%2F', '%2e%2e', '?x=1', '#frag', 'a b', '../../_sandbox/reset', 'tl_1/../../v1/timelines?all=1#x', '\\..\\x', 'tl_\u00e9\u{1F600}'];

describe('path parameters stay inside their own segment', () => {
	it.each(HOSTILE_IDS)('Timeline → Delete with the ID %j sends one DELETE to one encoded segment', async (id) => {
		const created = await ctx.runCase(operationCase('Timeline → Create'), { name: 'Keep me' });
		const keep = String(created.output[0].timeline_id ?? created.output[0].id);
		await ctx.sandbox.client.clearRequests();

		const result = await ctx.runCase(operationCase('Timeline → Delete'), { timelineId: rl(id) }, [{}], { continueOnFail: true });

		const requests = await ctx.requests();
		expect(requests).toHaveLength(1);
		const [request] = requests;
		expect(request.method).toBe('DELETE');
		expect(request.query).toEqual({});
		const match = /^\/v1\/timeline\/([^/?#]+)$/.exec(request.path);
		expect(match).not.toBeNull();
		expect(decodeURIComponent(match![1])).toBe(id);
		// Nothing but that ID was touched: the other timeline is still there.
		expect(result.output[0].error).toMatch(/^Timeline → Delete failed: the service answered HTTP 404/);
		const list = await ctx.runCase(operationCase('Timeline → Get Many'));
		expect(list.output.map((timeline) => timeline.timeline_id ?? timeline.id)).toContain(keep);
	});

	it.each([
		['Timeline → Delete', { timelineId: rl('..') }, 'Invalid Timeline in item 0: got "..", expected an ID: "." and ".." cannot be IDs'],
		['Timeline → Delete', { timelineId: rl('.') }, 'Invalid Timeline in item 0: got ".", expected an ID: "." and ".." cannot be IDs'],
		['Message → Get Status', { messageId: '..' }, 'Invalid Message ID in item 0: got "..", expected an ID: "." and ".." cannot be IDs'],
		['Message → Get Status', { messageId: '.' }, 'Invalid Message ID in item 0: got ".", expected an ID: "." and ".." cannot be IDs'],
	] as const)('%s refuses the dot-segment ID %j before any request (no encoding survives URL parsing)', async (label, overrides, message) => {
		const result = await ctx.runCase(operationCase(label), overrides);
		expect(result.error?.message).toBe(message);
		expect(await ctx.requests()).toEqual([]);
	});

	it.each(['../messages', 'msg_1?x=1', '#frag', 'a/b', '...', '%2e%2e'])('Message → Get Status with the ID %j asks for one encoded segment', async (id) => {
		await ctx.runCase(operationCase('Message → Get Status'), { messageId: id }, [{}], { continueOnFail: true });
		const requests = await ctx.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('GET');
		expect(requests[0].query).toEqual({});
		const match = /^\/v1\/messages\/([^/?#]+)$/.exec(requests[0].path);
		expect(match).not.toBeNull();
		expect(decodeURIComponent(match![1])).toBe(id);
	});

	it('sends query-shaped values as values, never as extra parameters', async () => {
		await ctx.runCase(operationCase('Event → Monitor'), { location: 'Rome&time_range=x&admin=1' });
		const [request] = await ctx.requests();
		expect(request.path).toBe('/v1/monitor-events');
		expect(request.query.location).toBe('Rome&time_range=x&admin=1');
		expect(request.query.admin).toBeUndefined();
		expect(request.query.time_range).toBe('2026-01-01T00:00:00.000Z/2026-02-01T00:00:00.000Z');
	});
});
