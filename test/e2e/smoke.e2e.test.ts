/**
 * Smoke test in a real n8n: the package loads as a community package (both node types and
 * both credential types), and n8n's own credential test endpoint (the editor's "Test"
 * button, POST /rest/credentials/test) passes with the sandbox keys and fails with a wrong one;
 * the messaging key's verdict follows the HTTP status (401/403 fail, 404 passes) whatever the body.
 */
import { CREDENTIAL_TYPES, NODE_TYPES } from '../n8n/instance';
import type { FaultSpec } from '../sandbox/types';
import { ERROR_BODY_SHAPES } from '../sandbox/testkit';
import { env, n8n, sandbox } from './support';

describe('the package in a real n8n', () => {
	test('n8n loads both node types under the package name', async () => {
		const nodes = await n8n.exportNodes();
		const names = nodes.map((n) => n.name);
		expect(names).toContain(NODE_TYPES.action);
		expect(names).toContain(NODE_TYPES.trigger);
	});

	test('the editor is served every credential type of the package', async () => {
		const res = await fetch(`${n8n.url}/types/credentials.json`, {
			headers: { cookie: n8n.cookie, 'browser-id': n8n.browserId },
		});
		expect(res.status).toBe(200);
		const types = (await res.json()) as Array<{ name: string }>;
		const names = types.map((t) => t.name);
		expect(names).toContain(CREDENTIAL_TYPES.timeline);
		expect(names).toContain(CREDENTIAL_TYPES.messaging);
		expect(names).toContain(CREDENTIAL_TYPES.webhookHeader);
		expect(names).toContain(CREDENTIAL_TYPES.webhookBasic);
	});

	test('the imported credentials are stored with the package types', async () => {
		const list: Array<{ id: string; type: string }> = (await n8n.rest('GET', '/credentials')).body;
		expect(list.find((c) => c.id === env.credentials.timeline.id)?.type).toBe(CREDENTIAL_TYPES.timeline);
		expect(list.find((c) => c.id === env.credentials.messaging.id)?.type).toBe(CREDENTIAL_TYPES.messaging);
	});
});

describe("n8n's credential test endpoint against the sandbox", () => {
	const cases = [
		{
			label: 'Timeline Navigation API',
			cred: () => env.credentials.timeline,
			data: (key: string) => ({ baseUrl: env.sandbox.url, accessToken: key }),
			goodKey: () => env.sandbox.timelineKey,
		},
		{
			label: 'Chat-App Messaging API',
			cred: () => env.credentials.messaging,
			data: (key: string) => ({ baseUrl: env.sandbox.url, apiKey: key }),
			goodKey: () => env.sandbox.messagingKey,
		},
	];

	const testCredential = async (cred: { id: string; name: string; type: string }, data?: object) =>
		(await n8n.rest('POST', '/credentials/test', { credentials: { ...cred, ...(data ? { data } : {}) } }))
			.body as { status: string; message: string };

	for (const c of cases) {
		test(`${c.label}: the stored credential passes (as the editor sends it, secrets redacted)`, async () => {
			const stored = (await n8n.rest('GET', `/credentials/${c.cred().id}?includeData=true`)).body;
			expect(JSON.stringify(stored.data)).not.toContain(c.goodKey());
			const result = await testCredential(c.cred(), stored.data);
			expect(result).toEqual(expect.objectContaining({ status: 'OK' }));
		});

		test(`${c.label}: the sandbox key typed into the form passes`, async () => {
			const result = await testCredential(c.cred(), c.data(c.goodKey()));
			expect(result.status).toBe('OK');
		});

		test(`${c.label}: a wrong key fails with a readable message`, async () => {
			const result = await testCredential(c.cred(), c.data('wrong-key-0000'));
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/401|reject|key|token/i);
			expect(result.message).not.toMatch(/\n\s+at /); // no stack trace
		});
	}
});

describe("n8n's credential test of the messaging key rests on the HTTP status, whatever the body", () => {
	const check = async (status: number, body: Pick<FaultSpec, 'body' | 'bodyText'>) => {
		// Every time: n8n sends the request again after a 401.
		await sandbox.injectFault({ kind: 'status', status, path: '/v1/messages/n8n-credential-test', count: 10, ...body });
		try {
			const data = { baseUrl: env.sandbox.url, apiKey: env.sandbox.messagingKey };
			return (await n8n.rest('POST', '/credentials/test', { credentials: { ...env.credentials.messaging, data } }))
				.body as { status: string; message: string };
		} finally {
			await sandbox.clearFaults();
		}
	};

	test.each(ERROR_BODY_SHAPES)('HTTP 401 with %s fails: the key was rejected', async (_shape, body) => {
		expect(await check(401, body)).toEqual({ status: 'Error', message: expect.stringMatching(/rejected the API key \(HTTP 401\)/) });
	});

	test.each(ERROR_BODY_SHAPES)('HTTP 403 with %s fails: the key is refused', async (_shape, body) => {
		expect(await check(403, body)).toEqual({ status: 'Error', message: expect.stringMatching(/refused the API key \(HTTP 403\)/) });
	});

	test.each(ERROR_BODY_SHAPES)('HTTP 404 with %s passes: the key was accepted', async (_shape, body) => {
		expect(await check(404, body)).toEqual(expect.objectContaining({ status: 'OK' }));
	});

	test('HTTP 500 fails, naming the status', async () => {
		const result = await check(500, { body: { message: 'Internal error' } });
		expect(result.status).toBe('Error');
		expect(result.message).toContain('answered HTTP 500 instead of 404');
	});
});
