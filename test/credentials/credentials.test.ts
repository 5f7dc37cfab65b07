// Each credential's test request, run as n8n's credential tester runs it, against the sandbox.
import type { FaultSpec } from '../../tools/sandbox/types';
import { ERROR_BODY_SHAPES } from '../../tools/sandbox/testkit';
import { testCredential } from '../support/harness';
import { sandboxPerFile } from '../support/sandbox';

const sandbox = sandboxPerFile();

describe('Timeline Navigation API credential', () => {
	it('passes with the right access token and sends it as a bearer header', async () => {
		const result = await testCredential('timelineNavigationApi', {
			baseUrl: sandbox.url,
			accessToken: sandbox.timelineKey,
		});
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		const [request] = await sandbox.client.requests({ path: '/v1/timelines' });
		expect(request.method).toBe('GET');
		expect(request.headers.authorization).toBe('Bearer ****');
		expect(request.responseStatus).toBe(200);
	});

	it('fails with a wrong token, with a message a user understands', async () => {
		const result = await testCredential('timelineNavigationApi', {
			baseUrl: sandbox.url,
			accessToken: 'not-the-token',
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/rejected the access token \(HTTP 401\)/);
		expect(result.message).not.toContain('not-the-token');
	});

	it.each([['/v1'], ['/v1/'], ['/'], ['  ']])('accepts a Base URL ending in %j without doubling /v1', async (suffix) => {
		const result = await testCredential('timelineNavigationApi', {
			baseUrl: `${sandbox.url}${suffix.trim()}`,
			accessToken: sandbox.timelineKey,
		});
		expect(result.status).toBe('OK');
		const requests = await sandbox.client.requests();
		expect(requests.map((request) => request.path)).toEqual(['/v1/timelines']);
	});

	it('fails with the network reason when nothing listens at the Base URL', async () => {
		const result = await testCredential('timelineNavigationApi', {
			baseUrl: 'http://127.0.0.1:9',
			accessToken: sandbox.timelineKey,
		});
		expect(result).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
	});
});

describe('Chat-App Messaging API credential', () => {
	it('passes with the right key: the lookup of a message id that cannot exist is answered 404', async () => {
		const result = await testCredential('chatAppMessagingApi', {
			baseUrl: `${sandbox.url}/v1/`,
			apiKey: sandbox.messagingKey,
		});
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		const [request] = await sandbox.client.requests();
		expect(request).toMatchObject({
			method: 'GET',
			path: '/v1/messages/n8n-credential-test',
			responseStatus: 404,
		});
		expect(request.headers.authorization).toBe('Bearer ****');
		// Nothing was sent to anyone.
		expect(await sandbox.client.requests({ method: 'POST' })).toEqual([]);
	});

	it('fails with a wrong key, with a message a user understands', async () => {
		const result = await testCredential('chatAppMessagingApi', { baseUrl: sandbox.url, apiKey: 'wrong-key' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/rejected the API key \(HTTP 401\)/);
	});

	// The error body is not documented (docs/service-assumptions.md), so the verdict must rest on the status alone.
	// Every time, as a real service would: n8n sends the request again after a 401.
	const testWithAnswer = async (status: number, body: Pick<FaultSpec, 'body' | 'bodyText'>) => {
		await sandbox.client.injectFault({ kind: 'status', status, path: '/v1/messages/n8n-credential-test', count: 10, ...body });
		return testCredential('chatAppMessagingApi', { baseUrl: sandbox.url, apiKey: sandbox.messagingKey });
	};

	it.each(ERROR_BODY_SHAPES)('fails on HTTP 401 with %s, saying the key was rejected', async (_shape, body) => {
		const result = await testWithAnswer(401, body);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/rejected the API key \(HTTP 401\)/);
	});

	it.each(ERROR_BODY_SHAPES)('fails on HTTP 403 with %s, saying the key is refused', async (_shape, body) => {
		const result = await testWithAnswer(403, body);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/refused the API key \(HTTP 403\)/);
	});

	it.each(ERROR_BODY_SHAPES)('passes on HTTP 404 with %s: the key was accepted', async (_shape, body) => {
		expect(await testWithAnswer(404, body)).toEqual({ status: 'OK', message: 'Connection successful!' });
	});

	it('passes on HTTP 200: the key was accepted (a message with that id exists)', async () => {
		const result = await testWithAnswer(200, { body: { message_id: 'n8n-credential-test', status: 'delivered' } });
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
	});

	it.each([[400], [405], [429], [500], [502], [503]])('fails on HTTP %i, naming the status', async (status) => {
		const result = await testWithAnswer(status, { bodyText: '' });
		expect(result.status).toBe('Error');
		expect(result.message).toContain(`answered HTTP ${status} instead of 404`);
		expect(result.message).toContain('could not be checked');
	});

	it('fails when given the timeline token instead of the messaging key', async () => {
		const result = await testCredential('chatAppMessagingApi', {
			baseUrl: sandbox.url,
			apiKey: sandbox.timelineKey,
		});
		expect(result.status).toBe('Error');
	});
});
