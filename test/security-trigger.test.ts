// Callers of the trigger: a wrong or missing secret is 401 and starts nothing, for any value
// an attacker tries (generated), the answer never repeats the secret, and the comparison
// takes as long whether a guess is wrong at its first or its last character.
import fc from 'fast-check';
import { checkBasicAuth, checkHeaderSecret } from '../nodes/ChatAppMessagingTrigger/authentication';
import { hostTrigger, type HostedTrigger } from './harness';
import { inbound } from './trigger-payloads';

const SECRET = 'wh_secret_7c1d9e0b2a4f6e8d';
const USER = 'svc';
const PASSWORD = 'p4ss:word_1b3d5f';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

let header: HostedTrigger;
let login: HostedTrigger;
let attempts = 0;

beforeAll(async () => {
	header = await hostTrigger({
		parameters: { authentication: 'headerAuth', ignoreRepeatedDeliveries: false },
		nodeCredentials: { chatAppWebhookHeaderAuthApi: { id: 'hdr', name: 'Secret' } },
		credentials: [{ id: 'hdr', name: 'Secret', type: 'chatAppWebhookHeaderAuthApi', data: { headerName: 'X-Webhook-Secret', secret: SECRET } }],
	});
	login = await hostTrigger({
		parameters: { authentication: 'basicAuth', ignoreRepeatedDeliveries: false },
		nodeCredentials: { chatAppWebhookBasicAuthApi: { id: 'basic', name: 'Login' } },
		credentials: [{ id: 'basic', name: 'Login', type: 'chatAppWebhookBasicAuthApi', data: { user: USER, password: PASSWORD } }],
	});
});
afterAll(async () => {
	await header.close();
	await login.close();
	console.log(`security-trigger: ${attempts} unauthorised calls, 0 workflows started`);
});
beforeEach(() => {
	header.clearRecords();
	login.clearRecords();
});

describe('wrong or missing secrets', () => {
	it('any header value other than the secret gets 401, starts nothing and hears nothing about the secret', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.oneof(
					fc.string({ minLength: 1, maxLength: 64 }),
					fc.constantFrom(SECRET.slice(0, -1), `${SECRET} `, SECRET.toUpperCase(), `${SECRET}x`, ` ${SECRET}`, SECRET.slice(1)),
				),
				async (guess) => {
					// Header values cannot hold control characters; HTTP trims surrounding blanks.
					fc.pre(/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(guess) && guess !== SECRET);
					attempts++;
					const res = await header.post(inbound, { headers: { 'X-Webhook-Secret': guess } });
					expect(res.status).toBe(401);
					expect(res.text).not.toContain(SECRET);
					expect(res.json).toEqual({ error: 'unauthorized', message: 'Authorization failed: Wrong value in the "X-Webhook-Secret" header.' });
				},
			),
			{ numRuns: 60 },
		);
		expect(header.starts).toEqual([]);
	});

	it('any user and password other than the right pair get 401 with a Basic challenge and start nothing', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.oneof(fc.constant(USER), fc.string({ maxLength: 20 })),
				fc.oneof(fc.constant(PASSWORD), fc.constant(PASSWORD.slice(0, -1)), fc.string({ maxLength: 30 })),
				async (user, password) => {
					fc.pre(!(user === USER && password === PASSWORD));
					attempts++;
					const res = await login.post(inbound, { headers: { Authorization: basic(user, password) } });
					expect(res.status).toBe(401);
					expect(res.headers['www-authenticate']).toBe('Basic realm="Webhook"');
					expect(res.text).not.toContain(PASSWORD);
				},
			),
			{ numRuns: 60 },
		);
		expect(login.starts).toEqual([]);
	});

	it.each([
		['no header at all', {}],
		['an empty value', { 'X-Webhook-Secret': '' }],
		['the secret in another header', { 'X-Secret': SECRET }],
		['the secret as a bearer token', { Authorization: `Bearer ${SECRET}` }],
	])('%s gets 401 and starts nothing', async (_name, headers) => {
		attempts++;
		const res = await header.post(inbound, { headers });
		expect(res.status).toBe(401);
		expect(header.starts).toEqual([]);
	});

	it('the right secret and the right login do start the workflow (the checks are not refusing everything)', async () => {
		expect((await header.post(inbound, { headers: { 'x-webhook-secret': SECRET } })).status).toBe(200);
		expect((await login.post(inbound, { headers: { Authorization: basic(USER, PASSWORD) } })).status).toBe(200);
		expect(header.starts).toHaveLength(1);
		expect(login.starts).toHaveLength(1);
	});
});

describe('constant-time comparison', () => {
	/** Median time of `check` over many runs, in nanoseconds. */
	function medianNs(check: () => unknown, runs = 201): number {
		for (let i = 0; i < 20; i++) check();
		const times: number[] = [];
		for (let i = 0; i < runs; i++) {
			const started = process.hrtime.bigint();
			check();
			times.push(Number(process.hrtime.bigint() - started));
		}
		times.sort((a, b) => a - b);
		return times[runs >> 1];
	}

	// A long secret makes an early-exit comparison (===, a byte loop) about 300 times faster when the
	// guess is wrong at its first character than at its last; a hashed comparison stays within 3 times.
	const long = 's'.repeat(1 << 20);
	const wrongFirst = `x${long.slice(1)}`;
	const wrongLast = `${long.slice(0, -1)}x`;

	it('a header secret wrong at its first character takes as long to refuse as one wrong at its last', () => {
		const early = medianNs(() => checkHeaderSecret({ 'x-secret': wrongFirst }, 'X-Secret', long));
		const late = medianNs(() => checkHeaderSecret({ 'x-secret': wrongLast }, 'X-Secret', long));
		expect(checkHeaderSecret({ 'x-secret': wrongLast }, 'X-Secret', long)).toEqual({ ok: false, message: 'Wrong value in the "X-Secret" header.' });
		expect(late / early).toBeGreaterThan(1 / 3);
		expect(late / early).toBeLessThan(3);
	});

	it('a wrong user takes as long to refuse as a wrong password, wherever the guess differs', () => {
		const long = 's'.repeat(1 << 18);
		const wrongFirst = `x${long.slice(1)}`;
		const wrongLast = `${long.slice(0, -1)}x`;
		const headers = (user: string, password: string) => ({ authorization: basic(user, password) });
		const timings = [
			medianNs(() => checkBasicAuth(headers(wrongFirst, long), long, long), 51),
			medianNs(() => checkBasicAuth(headers(wrongLast, long), long, long), 51),
			medianNs(() => checkBasicAuth(headers(long, wrongFirst), long, long), 51),
			medianNs(() => checkBasicAuth(headers(long, wrongLast), long, long), 51),
		];
		const [fastest, slowest] = [Math.min(...timings), Math.max(...timings)];
		expect(slowest / fastest).toBeLessThan(3);
	});
});

describe('oversized deliveries', () => {
	it('a body over 1 MiB from an authenticated caller gets 413 and starts nothing', async () => {
		const res = await header.post(
			{ ...inbound, text: 'x'.repeat(3 * 1024 * 1024) },
			{ headers: { 'X-Webhook-Secret': SECRET } },
		);
		expect(res.status).toBe(413);
		expect(res.json).toMatchObject({
			error: 'payload_too_large',
			message: expect.stringMatching(/limited to 1048576 bytes/),
		});
		expect(header.starts).toEqual([]);
	});

	it('a delivery just under the limit still starts the workflow', async () => {
		const res = await header.post(
			{ ...inbound, text: 'x'.repeat(1024 * 1024 - 1024) },
			{ headers: { 'X-Webhook-Secret': SECRET } },
		);
		expect(res.status).toBe(200);
		expect(header.starts).toHaveLength(1);
	});
});
