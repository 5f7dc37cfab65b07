// The harness itself: a workflow runs through n8n-core with credentials applied the way
// n8n's server applies them, and what reached the service is what the node sent.
import { runNode, runWorkflow, SANDBOX_PROBE_NODE_TYPE, INPUT_NODE_TYPE, type StoredCredential } from '../support/harness';
import { sandboxPerFile } from '../support/sandbox';

const sandbox = sandboxPerFile();
let credentials: StoredCredential[];

beforeAll(() => {
	credentials = [
		{ id: 'tl', name: 'Timeline', type: 'timelineNavigationApi', data: { baseUrl: sandbox.url, accessToken: sandbox.timelineKey } },
		{ id: 'msg', name: 'Messaging', type: 'chatAppMessagingApi', data: { baseUrl: sandbox.url, apiKey: sandbox.messagingKey } },
	];
});

describe('the in-process harness', () => {
	it('runs a fixture node with the timeline credential: bearer header applied, output returned', async () => {
		const result = await runNode(
			{
				type: SANDBOX_PROBE_NODE_TYPE,
				parameters: { credentialType: 'timelineNavigationApi', method: 'POST', path: '/v1/timelines', body: '={{ JSON.stringify({ name: $json.name }) }}' },
				credentials: { timelineNavigationApi: { id: 'tl', name: 'Timeline' } },
			},
			[{ name: 'Main line' }, { name: 'Branch' }],
			{ credentials },
		);
		expect(result.error).toBeUndefined();
		expect(result.output.map((json) => json.name)).toEqual(['Main line', 'Branch']);
		expect(result.node.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		const requests = await sandbox.client.requests({ method: 'POST', path: '/v1/timelines' });
		expect(requests.map((request) => request.body)).toEqual([{ name: 'Main line' }, { name: 'Branch' }]);
		expect(requests.every((request) => request.headers.authorization === 'Bearer ****')).toBe(true);
		expect(JSON.stringify(requests)).not.toContain(sandbox.timelineKey);
	});

	it('runs a fixture node with the messaging credential', async () => {
		await sandbox.client.inbound('+14155550123', 'hello');
		const result = await runNode(
			{
				type: SANDBOX_PROBE_NODE_TYPE,
				parameters: {
					credentialType: 'chatAppMessagingApi',
					method: 'POST',
					path: '/v1/messages',
					body: JSON.stringify({ channel: 'chatapp', to: '+14155550123', message_type: 'text', text: 'hi' }),
				},
				credentials: { chatAppMessagingApi: { id: 'msg', name: 'Messaging' } },
			},
			[{}],
			{ credentials },
		);
		expect(result.error).toBeUndefined();
		expect(result.output[0].message_id).toEqual(expect.any(String));
		const [request] = await sandbox.client.requests({ method: 'POST', path: '/v1/messages' });
		expect(request.body).toEqual({ channel: 'chatapp', to: '+14155550123', message_type: 'text', text: 'hi' });
		expect(request.headers.authorization).toBe('Bearer ****');
	});

	it('reports a failing node as the workflow error, without the key', async () => {
		const result = await runNode(
			{
				type: SANDBOX_PROBE_NODE_TYPE,
				parameters: { credentialType: 'timelineNavigationApi', method: 'GET', path: '/v1/timelines' },
				credentials: { timelineNavigationApi: { id: 'tl', name: 'Timeline' } },
			},
			[{}],
			{ credentials: [{ ...credentials[0], data: { baseUrl: sandbox.url, accessToken: 'wrong-token' } }] },
		);
		expect(result.error?.message).toMatch(/401|Authorization/i);
		expect(JSON.stringify(result.run)).not.toContain('wrong-token');
	});

	it('runs workflow JSON as n8n exports it, following connections', async () => {
		const result = await runWorkflow(
			{
				nodes: [
					{ id: '1', name: 'Start', type: INPUT_NODE_TYPE, typeVersion: 1, position: [0, 0], parameters: { items: '[{"path":"/v1/timelines"}]' } },
					{
						id: '2',
						name: 'Probe',
						type: SANDBOX_PROBE_NODE_TYPE,
						typeVersion: 1,
						position: [200, 0],
						parameters: { credentialType: 'timelineNavigationApi', method: 'GET', path: '={{ $json.path }}' },
						credentials: { timelineNavigationApi: { id: 'tl', name: 'Timeline' } },
					},
				],
				connections: { Start: { main: [[{ node: 'Probe', type: 'main', index: 0 }]] } },
			},
			{ credentials },
		);
		expect(result.error).toBeUndefined();
		expect(Object.keys(result.nodes)).toEqual(['Start', 'Probe']);
		expect(result.json('Probe')[0]).toHaveProperty('timelines');
	});
});
