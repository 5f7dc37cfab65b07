import http from 'node:http';

import { DEFAULT_MESSAGING_KEY, DEFAULT_TIMELINE_KEY, startSandbox } from '../../../tools/sandbox/server';
import { api, rawRequest } from '../../../tools/sandbox/testkit';
import { sandboxPerFile } from '../../support/sandbox';

const sandbox = sandboxPerFile();

const travelBody = { destination_time: '2030-01-01T12:00:00Z', location: 'Rome' };

describe('keys', () => {
	test('default keys: JWT-shaped timeline key, fixed messaging key', () => {
		expect(DEFAULT_TIMELINE_KEY.split('.')).toHaveLength(3);
		for (const part of DEFAULT_TIMELINE_KEY.split('.')) expect(part).toMatch(/^[A-Za-z0-9_-]+$/);
		expect(DEFAULT_MESSAGING_KEY).toBe('sandbox-messaging-key-0123456789');
		expect(sandbox.timelineKey).toBe(DEFAULT_TIMELINE_KEY);
		expect(sandbox.messagingKey).toBe(DEFAULT_MESSAGING_KEY);
		expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
	});

	test('configured keys replace the defaults', async () => {
		const other = await startSandbox({ timelineKeys: ['tk-1', 'tk-2'], messagingKeys: ['mk-1'] });
		try {
			expect((await api(other.url, 'tk-2').post('/travel', travelBody)).status).toBe(200);
			expect((await api(other.url, DEFAULT_TIMELINE_KEY).post('/travel', travelBody)).status).toBe(401);
			expect((await api(other.url, 'mk-1').get('/messages/nope')).status).toBe(404);
		} finally {
			await other.close();
		}
	});
});

test('the log option gets one line per request, without the key', async () => {
	const lines: string[] = [];
	const other = await startSandbox({ log: (line) => lines.push(line) });
	try {
		await api(other.url, other.timelineKey).post('/travel', travelBody);
		expect(lines.some((l) => l.startsWith('POST /v1/travel -> 200'))).toBe(true);
		expect(lines.join('\n')).not.toContain(other.timelineKey);
	} finally {
		await other.close();
	}
});

describe('bearer authentication', () => {
	test.each([
		['timeline', '/travel', 'post'],
		['messaging', '/messages', 'post'],
		['messaging status', '/messages/msg_x', 'get'],
		['monitor', '/monitor-timeline?timeline_id=x', 'get'],
	])('%s path: missing key -> 401 unauthorized JSON', async (_name, path, method) => {
		const res = await api(sandbox.url).request({ method, url: path, data: method === 'post' ? {} : undefined });
		expect(res.status).toBe(401);
		expect(res.data.error.code).toBe('unauthorized');
		expect(res.data.error.message).toMatch(/Authorization: Bearer/);
		expect(res.headers['content-type']).toMatch(/application\/json/);
	});

	test('wrong key -> 401', async () => {
		const res = await api(sandbox.url, 'not-a-key').post('/travel', travelBody);
		expect(res.status).toBe(401);
		expect(res.data.error.code).toBe('unauthorized');
	});

	test('non-bearer scheme -> 401', async () => {
		const res = await api(sandbox.url).post('/travel', travelBody, { headers: { Authorization: `Basic ${DEFAULT_TIMELINE_KEY}` } });
		expect(res.status).toBe(401);
	});

	test('a messaging key is refused on timeline paths and vice versa', async () => {
		const a = await api(sandbox.url, sandbox.messagingKey).post('/travel', travelBody);
		expect(a.status).toBe(401);
		expect(a.data.error.message).toMatch(/timeline navigation/);
		const b = await api(sandbox.url, sandbox.timelineKey).post('/messages', {});
		expect(b.status).toBe(401);
		expect(b.data.error.message).toMatch(/messaging/);
	});

	test('right key passes', async () => {
		expect((await api(sandbox.url, sandbox.timelineKey).post('/travel', travelBody)).status).toBe(200);
	});
});

describe('paths, methods and bodies', () => {
	const tl = () => api(sandbox.url, sandbox.timelineKey);

	test('unknown /v1 path -> 404 not_found', async () => {
		const res = await tl().get('/does-not-exist');
		expect(res.status).toBe(404);
		expect(res.data.error.code).toBe('not_found');
	});

	test('unknown path without a key -> 401 (a key is checked first)', async () => {
		expect((await api(sandbox.url).get('/does-not-exist')).status).toBe(401);
	});

	test('paths outside /v1 -> 404', async () => {
		const res = await rawRequest(sandbox.url, 'GET', '/travel', { headers: { Authorization: `Bearer ${sandbox.timelineKey}` } });
		expect(res.status).toBe(404);
		expect(res.json.error.code).toBe('not_found');
	});

	test('known path, wrong method -> 405 with Allow', async () => {
		const res = await tl().get('/travel');
		expect(res.status).toBe(405);
		expect(res.data.error.code).toBe('method_not_allowed');
		expect(res.headers.allow).toBe('POST');
	});

	test('malformed JSON -> 400 invalid_json', async () => {
		const res = await rawRequest(sandbox.url, 'POST', '/v1/travel', {
			headers: { Authorization: `Bearer ${sandbox.timelineKey}` },
			body: '{"destination_time": ',
		});
		expect(res.status).toBe(400);
		expect(res.json.error.code).toBe('invalid_json');
	});

	test('a JSON array instead of an object -> 400 naming body', async () => {
		const res = await tl().post('/travel', [1, 2]);
		expect(res.status).toBe(400);
		expect(res.data.error).toMatchObject({ code: 'validation_error', field: 'body' });
	});

	test('body over 1 MB -> 413 payload_too_large', async () => {
		const res = await tl().post('/timelines', { name: 'x', description: 'y'.repeat(1024 * 1024 + 10) });
		expect(res.status).toBe(413);
		expect(res.data.error.code).toBe('payload_too_large');
	});

	test('error body shape everywhere: {error:{code,message,field?}}', async () => {
		const res = await tl().post('/travel', { location: 'Rome' });
		expect(res.status).toBe(400);
		expect(Object.keys(res.data)).toEqual(['error']);
		expect(res.data.error).toEqual({ code: 'validation_error', message: expect.stringContaining('destination_time'), field: 'destination_time' });
	});

	test('a trailing slash is tolerated', async () => {
		expect((await tl().get('/timelines/')).status).toBe(200);
	});
});

describe('request log', () => {
	test('records method, path, parsed query, headers, body and time, with the key masked', async () => {
		await api(sandbox.url, sandbox.timelineKey).get('/monitor-timeline', { params: { timeline_id: 'tl_x', extra: 'a b' } });
		await api(sandbox.url, sandbox.messagingKey).post('/messages', { channel: 'chatapp', to: '+14155550123', message_type: 'text', text: 'hi' });
		const log = await sandbox.client.requests();
		expect(log).toHaveLength(2);
		expect(log[0]).toMatchObject({
			method: 'GET',
			path: '/v1/monitor-timeline',
			query: { timeline_id: 'tl_x', extra: 'a b' },
			service: 'timeline',
			responseStatus: 404,
		});
		expect(log[0].headers.authorization).toBe('Bearer ****');
		expect(Date.parse(log[0].time)).not.toBeNaN();
		expect(log[1].body).toEqual({ channel: 'chatapp', to: '+14155550123', message_type: 'text', text: 'hi' });
		expect(log[1].service).toBe('messaging');
		const text = JSON.stringify(log);
		expect(text).not.toContain(sandbox.timelineKey);
		expect(text).not.toContain(sandbox.messagingKey);
		// Not even a fragment of the JWT-shaped key.
		for (const part of sandbox.timelineKey.split('.')) expect(text).not.toContain(part);
	});

	test('a key pasted into a body or query is scrubbed too', async () => {
		await api(sandbox.url, sandbox.timelineKey).post(`/travel?token=${sandbox.timelineKey}`, { ...travelBody, note: sandbox.messagingKey });
		const text = JSON.stringify(await sandbox.client.requests());
		expect(text).not.toContain(sandbox.timelineKey);
		expect(text).not.toContain(sandbox.messagingKey);
	});

	test('records failed auth, unknown paths and raw non-JSON bodies', async () => {
		await api(sandbox.url, 'wrong').post('/travel', travelBody);
		await rawRequest(sandbox.url, 'POST', '/v1/nowhere', { headers: { Authorization: `Bearer ${sandbox.timelineKey}` }, body: 'not json' });
		const log = await sandbox.client.requests();
		expect(log.map((r) => r.responseStatus)).toEqual([401, 404]);
		expect(log[0].headers.authorization).toBe('Bearer ****');
		expect(log[1].body).toBe('not json');
		expect(JSON.stringify(log)).not.toContain('wrong');
	});

	test('filters by method and path, and clears', async () => {
		const tl = api(sandbox.url, sandbox.timelineKey);
		await tl.post('/travel', travelBody);
		await tl.get('/timelines');
		expect(await sandbox.client.requests({ method: 'get' })).toHaveLength(1);
		expect(await sandbox.client.requests({ path: '/v1/travel' })).toHaveLength(1);
		expect(await sandbox.client.requests({ pathPrefix: '/v1/t' })).toHaveLength(2);
		await sandbox.client.clearRequests();
		expect(await sandbox.client.requests()).toHaveLength(0);
	});
});

describe('fault injection', () => {
	const tl = () => api(sandbox.url, sandbox.timelineKey);

	test('429 with Retry-After and an error body, for the next N matching requests only', async () => {
		await sandbox.client.injectFault({ kind: 'status', status: 429, retryAfter: 7, path: '/v1/travel', count: 2 });
		const first = await tl().post('/travel', travelBody);
		expect(first.status).toBe(429);
		expect(first.headers['retry-after']).toBe('7');
		expect(first.data.error.code).toBe('rate_limited');
		expect((await tl().get('/timelines')).status).toBe(200); // other path untouched
		expect((await tl().post('/travel', travelBody)).status).toBe(429);
		expect((await tl().post('/travel', travelBody)).status).toBe(200);
		const log = await sandbox.client.requests({ path: '/v1/travel' });
		expect(log.map((r) => r.fault ?? null)).toEqual(['status', 'status', null]);
		expect(log.map((r) => r.responseStatus)).toEqual([429, 429, 200]);
	});

	test('a fault fires before auth, and a custom body and 503 with an HTTP-date Retry-After', async () => {
		const date = 'Wed, 21 Oct 2037 07:28:00 GMT';
		await sandbox.client.injectFault({ kind: 'status', status: 503, retryAfter: date, body: { message: 'down' }, method: 'POST', pathPrefix: '/v1/' });
		const res = await api(sandbox.url).post('/travel', travelBody);
		expect(res.status).toBe(503);
		expect(res.headers['retry-after']).toBe(date);
		expect(res.data).toEqual({ message: 'down' });
	});

	test('a text body or no body at all instead of JSON', async () => {
		await sandbox.client.injectFault({ kind: 'status', status: 401, bodyText: 'Unauthorized', path: '/v1/timelines' });
		await sandbox.client.injectFault({ kind: 'status', status: 403, bodyText: '', path: '/v1/travel' });
		const text = await rawRequest(sandbox.url, 'GET', '/v1/timelines');
		expect(text).toMatchObject({ status: 401, text: 'Unauthorized' });
		expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
		const empty = await rawRequest(sandbox.url, 'POST', '/v1/travel', { body: JSON.stringify(travelBody) });
		expect(empty).toMatchObject({ status: 403, text: '' });
		expect(empty.headers['content-type']).toBeUndefined();
		expect(empty.headers['content-length']).toBe('0');
	});

	test('only for requests whose query carries the given parameters', async () => {
		await sandbox.client.injectFault({ kind: 'status', status: 503, path: '/v1/monitor-timeline', query: { timeline_id: 'tl_watched' } });
		expect((await tl().get('/monitor-timeline', { params: { timeline_id: 'tl_other' } })).status).not.toBe(503);
		expect((await tl().get('/monitor-timeline', { params: { timeline_id: 'tl_watched' } })).status).toBe(503);
		expect(await sandbox.client.faults()).toEqual([]);
		await expect(sandbox.client.injectFault({ kind: 'status', query: { timeline_id: 7 } } as never)).rejects.toThrow(/query/);
	});

	test('only for requests whose body contains the given text', async () => {
		await sandbox.client.injectFault({ kind: 'status', status: 503, method: 'POST', path: '/v1/travel', bodyContains: '"Atlantis"' });
		expect((await tl().post('/travel', travelBody)).status).toBe(200);
		expect((await tl().post('/travel', { ...travelBody, location: 'Atlantis' })).status).toBe(503);
		expect(await sandbox.client.faults()).toEqual([]);
		await expect(sandbox.client.injectFault({ kind: 'status', bodyContains: 7 } as never)).rejects.toThrow(/bodyContains/);
	});

	test('delay then a normal answer', async () => {
		await sandbox.client.injectFault({ kind: 'delay', delayMs: 300, path: '/v1/travel' });
		const started = Date.now();
		const res = await tl().post('/travel', travelBody);
		expect(Date.now() - started).toBeGreaterThanOrEqual(280);
		expect(res.status).toBe(200);
		expect(res.data.location).toBe('Rome');
	});

	test('malformed JSON answer: 200 with a body that does not parse', async () => {
		await sandbox.client.injectFault({ kind: 'malformed', path: '/v1/timelines' });
		const res = await rawRequest(sandbox.url, 'GET', '/v1/timelines', { headers: { Authorization: `Bearer ${sandbox.timelineKey}` } });
		expect(res.status).toBe(200);
		expect(res.headers['content-type']).toMatch(/application\/json/);
		expect(() => JSON.parse(res.text)).toThrow();
	});

	test('dropped connection: the socket closes without an answer', async () => {
		await sandbox.client.injectFault({ kind: 'drop', path: '/v1/timelines' });
		await expect(tl().get('/timelines')).rejects.toMatchObject({ code: expect.stringMatching(/ECONNRESET|socket hang up/i) });
		expect((await tl().get('/timelines')).status).toBe(200);
		const [entry] = await sandbox.client.requests({ path: '/v1/timelines' });
		expect(entry.fault).toBe('drop');
	});

	test('everyNth fires on every k-th matching request', async () => {
		await sandbox.client.injectFault({ kind: 'status', status: 500, everyNth: 3, path: '/v1/timelines' });
		const statuses: number[] = [];
		for (let i = 0; i < 9; i++) statuses.push((await tl().get('/timelines')).status);
		expect(statuses).toEqual([200, 200, 500, 200, 200, 500, 200, 200, 500]);
		expect(await sandbox.client.faults()).toHaveLength(1); // still armed
		await sandbox.client.clearFaults();
		expect((await tl().get('/timelines')).status).toBe(200);
	});

	test('an invalid fault spec is refused', async () => {
		await expect(sandbox.client.injectFault({ kind: 'explode' } as never)).rejects.toThrow(/kind/);
	});
});

describe('reset', () => {
	test('clears data, config, faults, log and clock', async () => {
		const tl = api(sandbox.url, sandbox.timelineKey);
		await tl.post('/timelines', { name: 'A' });
		await sandbox.client.configure({ timelinesListShape: 'array', repeatDeliveries: 2 });
		await sandbox.client.injectFault({ kind: 'status', status: 500, path: '/v1/nothing-yet' });
		await sandbox.client.advanceClock(48 * 3_600_000);
		await sandbox.client.inbound('+14155550123', 'hi');
		await sandbox.client.reset();
		expect((await tl.get('/timelines')).data).toEqual({ timelines: [] });
		expect((await sandbox.client.config()).repeatDeliveries).toBe(0);
		expect(await sandbox.client.faults()).toEqual([]);
		expect(await sandbox.client.requests()).toHaveLength(1);
		expect(Math.abs(Date.parse(await sandbox.client.now()) - Date.now())).toBeLessThan(5000);
		expect((await sandbox.client.window('+14155550123')).open).toBe(false);
		expect(await sandbox.client.webhookDeliveries()).toEqual([]);
	});

	test('control endpoints: unknown path 404, listing', async () => {
		const res = await rawRequest(sandbox.url, 'GET', '/_sandbox/nope');
		expect(res.status).toBe(404);
		const list = await rawRequest(sandbox.url, 'GET', '/_sandbox');
		expect(list.json.endpoints.length).toBeGreaterThan(10);
	});
});

// A web site open in the same browser as `npm start` can POST to 127.0.0.1 with text/plain
// without a CORS preflight. The control calls that change something refuse another origin and
// a body not declared JSON; the page (its own origin, JSON), node's fetch, axios and curl (no
// Origin) are unaffected. Each test holds a request the rule refuses, so each fails without it.
describe('control endpoints refuse cross-site calls', () => {
	const EVIL = 'http://evil.example';
	const TARGET = { url: 'http://evil.example/steal', headers: {} };
	const own = () => sandbox.url; // http://127.0.0.1:PORT: the Host header rawRequest sends is 127.0.0.1:PORT
	const webhookUrl = async () => (await sandbox.client.webhook()).url;
	const postWebhook = (headers: Record<string, string>, body = JSON.stringify(TARGET)) =>
		rawRequest(sandbox.url, 'POST', '/_sandbox/webhook', { headers, body });

	beforeEach(async () => {
		await sandbox.client.setWebhook('http://127.0.0.1:5678/webhook/kept');
	});

	test('POST /_sandbox/webhook from another origin (JSON body) -> 403 cross_origin, webhook unchanged', async () => {
		const res = await postWebhook({ Origin: EVIL, 'Content-Type': 'application/json' });
		expect(res.status).toBe(403);
		expect(res.headers['content-type']).toMatch(/^application\/json/);
		expect(res.json).toEqual({
			error: {
				code: 'cross_origin',
				message: `Cross-origin requests to the sandbox's control endpoints are refused: Origin ${EVIL} is not ${own()}. Use the sandbox's own page or a tool that sends no Origin.`,
			},
		});
		expect(await webhookUrl()).toBe('http://127.0.0.1:5678/webhook/kept');
	});

	test('POST /_sandbox/webhook without Origin, text/plain JSON text -> 415 unsupported_media_type, webhook unchanged', async () => {
		const res = await postWebhook({ 'Content-Type': 'text/plain' });
		expect(res.status).toBe(415);
		expect(res.json.error.code).toBe('unsupported_media_type');
		expect(res.json.error.message).toMatch(/Content-Type 'text\/plain' is not application\/json.*Content-Type: application\/json/);
		// No Content-Type at all, and a chunked body (no Content-Length), are refused alike.
		const untyped = await new Promise<number>((resolve, reject) => {
			const base = new URL(sandbox.url);
			const req = http.request({ host: base.hostname, port: base.port, path: '/_sandbox/webhook', method: 'POST', agent: false }, (r) => {
				r.resume();
				resolve(r.statusCode ?? 0);
			});
			req.on('error', reject);
			req.write(JSON.stringify(TARGET)); // no Content-Length given: node sends it chunked
			req.end();
		});
		expect(untyped).toBe(415);
		expect(await webhookUrl()).toBe('http://127.0.0.1:5678/webhook/kept');
	});

	test('the own origin with application/json is accepted, as the page sends it; another spelling of the host is another origin', async () => {
		const localhost = own().replace('127.0.0.1', 'localhost');
		expect((await postWebhook({ Origin: localhost, 'Content-Type': 'application/json' })).status).toBe(403);
		expect(await webhookUrl()).toBe('http://127.0.0.1:5678/webhook/kept');

		const res = await postWebhook({ Origin: own(), 'Content-Type': 'application/json' });
		expect(res.status).toBe(200);
		expect(res.json).toEqual(TARGET);
		expect(await webhookUrl()).toBe(TARGET.url);

		// The page opened as http://localhost:PORT: the browser sends that Host and that Origin.
		const back = { url: 'http://127.0.0.1:5678/webhook/back', headers: {} };
		const viaLocalhost = await postWebhook({ Host: `localhost:${sandbox.port}`, Origin: localhost, 'Content-Type': 'application/json' }, JSON.stringify(back));
		expect(viaLocalhost.status).toBe(200);
		expect(await webhookUrl()).toBe(back.url);
	});

	test('POST /_sandbox/reset from another origin, without a body -> 403, nothing reset', async () => {
		const res = await rawRequest(sandbox.url, 'POST', '/_sandbox/reset', { headers: { Origin: EVIL } });
		expect(res.status).toBe(403);
		expect(res.json.error.code).toBe('cross_origin');
		expect(await webhookUrl()).toBe('http://127.0.0.1:5678/webhook/kept');
		// So are DELETE and PATCH from there (and an Origin of "null", as a sandboxed frame sends).
		await sandbox.client.injectFault({ kind: 'status', status: 503, path: '/v1/nothing' });
		expect((await rawRequest(sandbox.url, 'DELETE', '/_sandbox/faults', { headers: { Origin: 'null' } })).status).toBe(403);
		expect(await sandbox.client.faults()).toHaveLength(1);
		const seeded = await sandbox.client.seedEvent({ location: 'Rome', time: '2030-01-01T10:00:00Z', description: 'kept' });
		const patch = await rawRequest(sandbox.url, 'PATCH', `/_sandbox/events/${seeded.seed_id}`, { headers: { Origin: EVIL }, body: '{"description":"changed"}' });
		expect(patch.status).toBe(403);
	});

	test('the own origin with application/json; charset=utf-8 is accepted; text/plain; charset=utf-8 is not', async () => {
		const plain = await postWebhook({ Origin: own(), 'Content-Type': 'text/plain; charset=utf-8' });
		expect(plain.status).toBe(415);
		expect(await webhookUrl()).toBe('http://127.0.0.1:5678/webhook/kept');
		const res = await postWebhook({ Origin: own(), 'Content-Type': 'application/json; charset=utf-8' });
		expect(res.status).toBe(200);
		expect(await webhookUrl()).toBe(TARGET.url);
	});

	test('GET control endpoints and the /v1 services answer any origin as before; the same origin is refused on a control POST', async () => {
		const headers = { Origin: EVIL };
		expect((await rawRequest(sandbox.url, 'GET', '/_sandbox/webhook', { headers })).json.url).toBe('http://127.0.0.1:5678/webhook/kept');
		expect((await rawRequest(sandbox.url, 'GET', '/', { headers })).status).toBe(200);
		const travel = await rawRequest(sandbox.url, 'POST', '/v1/travel', {
			headers: { ...headers, Authorization: `Bearer ${sandbox.timelineKey}`, 'Content-Type': 'text/plain' },
			body: JSON.stringify(travelBody),
		});
		expect(travel.status).toBe(200);
		expect((await rawRequest(sandbox.url, 'POST', '/_sandbox/clock', { headers, body: '{"advanceMs":1}' })).status).toBe(403);
	});
});
