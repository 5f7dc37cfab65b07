/**
 * The bearer keys never reach n8n's saved execution data or its log. Runs the session example
 * with the sandbox key (requests succeed) and with a wrong key (the first request fails with
 * 401), the delivery example likewise with a wrong messaging key, then searches every saved
 * execution (public API, includeData) and the server log for the literal key strings.
 */
import { randomBytes } from 'node:crypto';

import { EXAMPLE_FILES, readExample, seedExampleData } from '../../tools/n8n/examples';
import { wireCredentials } from '../../tools/n8n/client';
import { creds, env, n8n, sandbox } from './support';

const wrongTimelineKey = `wrong-timeline-key-${randomBytes(8).toString('hex')}`;
const wrongMessagingKey = `wrong-messaging-key-${randomBytes(8).toString('hex')}`;

async function allExecutions(): Promise<any[]> {
	const all: any[] = [];
	let cursor: string | undefined;
	do {
		const q = new URLSearchParams({ includeData: 'true', limit: '100' });
		if (cursor) q.set('cursor', cursor);
		const res = await n8n.api('GET', `/executions?${q}`);
		all.push(...(res.body.data ?? []));
		cursor = res.body.nextCursor ?? undefined;
	} while (cursor);
	return all;
}

async function runWith(file: string, credentials: typeof creds, name: string) {
	const wf = wireCredentials({ ...readExample(file), name }, credentials);
	const id = await n8n.importWorkflow(wf);
	return { id, run: await n8n.executeWorkflow(id) };
}

describe('bearer keys in real n8n', () => {
	let executions: any[];
	let failed: Array<{ id: string; run: Awaited<ReturnType<typeof n8n.executeWorkflow>> }>;

	beforeAll(async () => {
		await sandbox.reset();
		await sandbox.setWebhook(null);
		await seedExampleData(sandbox);
		const wrong = await n8n.importCredentials([
			{ name: 'Timeline (wrong key)', type: 'timelineNavigationApi', data: { baseUrl: env.sandbox.url, accessToken: wrongTimelineKey } },
			{ name: 'Messaging (wrong key)', type: 'chatAppMessagingApi', data: { baseUrl: env.sandbox.url, apiKey: wrongMessagingKey } },
		]);
		const good = await runWith(EXAMPLE_FILES.session, creds, 'Secrets check: session, sandbox key');
		expect(good.run.code).toBe(0);
		failed = [
			await runWith(EXAMPLE_FILES.session, wrong, 'Secrets check: session, wrong key'),
			await runWith(EXAMPLE_FILES.deliveryTracking, wrong, 'Secrets check: delivery, wrong key'),
		];
		executions = await allExecutions();
	});

	test('the wrong keys were really used: the sandbox answered 401 and n8n saved failed executions', async () => {
		const refused = (await sandbox.requests()).filter((r) => r.responseStatus === 401);
		expect(refused.map((r) => r.path)).toEqual(expect.arrayContaining(['/v1/set-anchor', '/v1/messages']));
		for (const f of failed) {
			expect(f.run.code).not.toBe(0);
			const mine = executions.filter((e) => e.workflowId === f.id);
			expect(mine.length).toBeGreaterThanOrEqual(1);
			expect(mine[0].status).toBe('error');
			expect(JSON.stringify(mine[0].data)).toMatch(/401/);
		}
	});

	test('no key appears in any saved execution (with data), in the CLI output or in the server log', () => {
		expect(executions.length).toBeGreaterThanOrEqual(3);
		const saved = JSON.stringify(executions);
		const log = n8n.logs();
		expect(log.length).toBeGreaterThan(0);
		const cli = failed.map((f) => f.run.stdout + f.run.stderr).join('\n');
		for (const key of [env.sandbox.timelineKey, env.sandbox.messagingKey, wrongTimelineKey, wrongMessagingKey]) {
			expect(saved.includes(key)).toBe(false);
			expect(log.includes(key)).toBe(false);
			expect(cli.includes(key)).toBe(false);
		}
	});
});
