// Callers of the trigger: a wrong or missing secret is 401 and starts nothing, for any value
// an attacker tries (generated), and the answer never repeats the secret. (That a refusal
// takes as long wherever a guess is wrong is measured by `npm run bench`, part "secrets".)
import fc from 'fast-check';
import { hostTrigger, type HostedTrigger } from '../../support/harness';
import { inbound } from '../../support/trigger-payloads';

const SECRET = 'wh_secret_7c1d9e0b2a4f6e8d';
const USER = 'svc';
const PASSWORD = 'p4ss:word_1b3d5f';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

let header: HostedTrigger;
let login: HostedTrigger;
let attempts = 0;
let startedByUnauthorised = 0;

/** Posts a delivery that must be refused, counting it and any workflow it started. */
async function unauthorisedPost(hosted: HostedTrigger, headers: Record<string, string>) {
	attempts++;
	const before = hosted.starts.length;
	const res = await hosted.post(inbound, { headers });
	startedByUnauthorised += hosted.starts.length - before;
	return res;
}

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
	console.log(`security-trigger: ${attempts} unauthorised calls, ${startedByUnauthorised} workflows started`);
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
					const res = await unauthorisedPost(header, { 'X-Webhook-Secret': guess });
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
					const res = await unauthorisedPost(login, { Authorization: basic(user, password) });
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
		const res = await unauthorisedPost(header, headers);
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
