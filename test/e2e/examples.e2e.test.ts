/**
 * Every example workflow of examples/ runs in real n8n against the sandbox, and what it did is
 * asserted where it lands: the requests the sandbox received (method, path, query, body, order)
 * and the items n8n output. The manual examples run with `n8n execute`; the two webhook-trigger
 * examples are covered through their production webhooks in webhooks.e2e.test.ts, and the
 * event-alerts example over real polls in polling.e2e.test.ts.
 */
import { EXAMPLE_DATA, EXAMPLE_FILES, importExample, readExample, seedExampleData, SESSION_REQUESTS } from '../../tools/n8n/examples';
import { wireCredentials, type WorkflowJson } from '../../tools/n8n/client';
import { NODE_TYPES } from '../../tools/n8n/communityPackage';
import { cliNodeOutput, creds, n8n, sandbox } from './support';

beforeAll(async () => {
	await sandbox.reset();
	await sandbox.setWebhook(null);
	await seedExampleData(sandbox);
});

beforeEach(async () => {
	await sandbox.clearRequests();
});

/** A node's size on n8n's canvas (a sticky note's is in its parameters). */
const NODE_SIZE = 100;

/**
 * What makes a canvas hard to read: a node under a sticky note, and an IF or Switch whose
 * outputs cross (each output is drawn below the one before it, so its target must not sit above).
 */
function canvasProblems(wf: WorkflowJson): { coveredBySticky: string[]; crossingBranches: string[] } {
	const byName = new Map(wf.nodes.map((n) => [n.name, n]));
	const stickies = wf.nodes.filter((n) => n.type === 'n8n-nodes-base.stickyNote');
	const coveredBySticky = wf.nodes
		.filter((n) => n.type !== 'n8n-nodes-base.stickyNote')
		.filter((n) =>
			stickies.some((s) => {
				const [sx, sy] = s.position;
				const { width = 240, height = 160 } = s.parameters as { width?: number; height?: number };
				const [x, y] = n.position;
				return x < sx + width && sx < x + NODE_SIZE && y < sy + height && sy < y + NODE_SIZE;
			}),
		)
		.map((n) => n.name);
	const crossingBranches: string[] = [];
	for (const [from, outs] of Object.entries(wf.connections as Record<string, { main?: Array<Array<{ node: string }>> }>)) {
		if (!outs.main) continue;
		// Outputs that lead nowhere (an error output's success side left empty) cross nothing.
		const targetY = outs.main.map((links, output) => ({ output, y: Math.min(...links.map((l) => byName.get(l.node)!.position[1])) })).filter(({ y }) => y !== Infinity);
		for (let i = 1; i < targetY.length; i++) if (targetY[i].y < targetY[i - 1].y) crossingBranches.push(`${from} output ${targetY[i].output}`);
	}
	return { coveredBySticky, crossingBranches };
}

async function execute(file: string, json?: WorkflowJson) {
	const id = json ? await n8n.importWorkflow(wireCredentials(json, creds)) : await importExample(n8n, file, creds);
	const res = await n8n.executeWorkflow(id);
	if (res.code !== 0 || !res.data) {
		throw new Error(`n8n execute of ${file} exited ${res.code}:\n${res.stdout.slice(-3000)}\n${res.stderr.slice(-2000)}`);
	}
	return { id, data: res.data };
}

describe('example workflows in real n8n', () => {
	test('every example is importable workflow JSON using only the package nodes and n8n core nodes', () => {
		for (const file of Object.values(EXAMPLE_FILES)) {
			const wf = readExample(file);
			expect(wf.name).toMatch(/^Example: /);
			const names = wf.nodes.map((n) => n.name);
			expect(new Set(names).size).toBe(names.length);
			for (const node of wf.nodes) {
				expect(node.id).toMatch(/^[0-9a-f-]{36}$/);
				expect(node.position).toHaveLength(2);
				expect(node.type.startsWith('n8n-nodes-base.') || node.type.startsWith('@n8n/n8n-nodes-langchain.') || Object.values(NODE_TYPES).includes(node.type) || node.type === `${NODE_TYPES.action}Tool`).toBe(true);
			}
			// every connection points at a node that exists
			for (const [from, outs] of Object.entries(wf.connections as Record<string, any>)) {
				expect(names).toContain(from);
				for (const links of Object.values(outs as Record<string, Array<Array<{ node: string }>>>)) for (const link of links.flat()) expect(names).toContain(link.node);
			}
			expect({ file, ...canvasProblems(wf) }).toEqual({ file, coveredBySticky: [], crossingBranches: [] });
		}
	});

	test('delivery tracking: the template is sent, then Get Status on its message_id answers delivered', async () => {
		const { data } = await execute(EXAMPLE_FILES.deliveryTracking);
		const reqs = (await sandbox.requests()).filter((r) => r.path.startsWith('/v1/'));
		expect(reqs.map((r) => `${r.method} ${r.path.replace(/msg_[^/]+$/, '{id}')}`)).toEqual([
			'POST /v1/messages',
			'GET /v1/messages/{id}',
		]);
		expect(reqs[0].body).toEqual({
			channel: 'chatapp',
			to: EXAMPLE_DATA.customerPhone,
			message_type: 'template',
			template: { id: 'order_update', parameters: ['Ada', '#1042'] },
		});
		const [sent] = cliNodeOutput(data, 'Send Order Update');
		expect(reqs[1].path).toBe(`/v1/messages/${sent.message_id}`);
		const [status] = cliNodeOutput(data, 'Get Delivery Status');
		expect(status).toEqual(
			expect.objectContaining({ message_id: sent.message_id, status: 'delivered', message_type: 'template' }),
		);
	});

	test('timeline session: set-anchor, pause-time, travel, fast-forward, resume-time, travels with the anchor_id, then travel home, in that order', async () => {
		const { data } = await execute(EXAMPLE_FILES.session);
		const reqs = (await sandbox.requests()).filter((r) => r.path.startsWith('/v1/'));
		expect(reqs.map((r) => `${r.method} ${r.path}`)).toEqual(SESSION_REQUESTS);
		expect(reqs.every((r) => r.responseStatus && r.responseStatus < 300)).toBe(true);
		// an empty Timestamp anchors the moment the node ran
		expect(reqs[0].body).toEqual({ description: 'Home, before the trip', timestamp: expect.any(String) });
		expect(Math.abs(Date.parse((reqs[0].body as any).timestamp) - Date.now())).toBeLessThan(60_000);
		expect(reqs[2].body).toEqual({ destination_time: '1969-07-20T20:17:40.000Z', location: 'Sea of Tranquility, Moon' });
		expect(reqs[3].body).toEqual({ duration: '6h' });
		const [anchor] = cliNodeOutput(data, 'Set Anchor');
		expect(anchor.anchor_id).toMatch(/^anc_/);
		expect(reqs[5].body).toEqual({ anchor_id: anchor.anchor_id });

		const [ff] = cliNodeOutput(data, 'Fast-Forward 6 Hours');
		expect(ff.new_time).toBe('1969-07-21T02:17:40.000Z');
		const [back] = cliNodeOutput(data, 'Return to Anchor');
		// back at the anchored moment (time runs again, so a few ms may have passed)
		const drift = Date.parse(back.current_time) - Date.parse(anchor.timestamp);
		expect(drift).toBeGreaterThanOrEqual(0);
		expect(drift).toBeLessThan(1000);
		// an anchor holds a time, not a place: the last step travels home at that moment
		expect(reqs[6].body).toEqual({ destination_time: back.current_time, location: EXAMPLE_DATA.location });
		const [home] = cliNodeOutput(data, 'Back Home');
		expect(home).toEqual(expect.objectContaining({ current_time: back.current_time, location: EXAMPLE_DATA.location }));
		expect(cliNodeOutput(data, 'Report the Failure')).toEqual([]);
	});
});
