// The queue cluster's load balancer (tools/n8n/proxy.ts) in front of stand-in webhook processes
// that misbehave the way n8n's did under load in `npm run test:e2e:queue`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { BACKEND_HEADER, startProxy, type WebhookProxy } from '../../../tools/n8n/proxy';

interface Backend {
	url: string;
	connections: number;
	close(): Promise<void>;
}

/**
 * A webhook process that answers the first request of each connection (announcing n8n's
 * `Keep-Alive: timeout=5`) and resets the connection when another request arrives on it: what
 * n8n does when its keep-alive timeout closes an idle connection just as a request is sent.
 * With `resetAll`, it resets every request unanswered.
 */
async function backend(opts: { resetAll?: boolean } = {}): Promise<Backend> {
	const served = new WeakSet<object>();
	const server = http.createServer((req, res) => {
		if (opts.resetAll || served.has(req.socket)) {
			req.socket.resetAndDestroy();
			return;
		}
		served.add(req.socket);
		req.resume();
		req.on('end', () => {
			res.writeHead(200, { 'content-type': 'application/json', connection: 'keep-alive', 'keep-alive': 'timeout=5' });
			res.end(JSON.stringify({ received: true, started: true }));
		});
	});
	const state = { connections: 0 };
	server.on('connection', () => state.connections++);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		get connections() {
			return state.connections;
		},
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

async function deliver(proxy: WebhookProxy, i: number) {
	const res = await fetch(`${proxy.url}/webhook/abc/chat-app`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ message_id: `msg_${i}` }),
	});
	return { status: res.status, body: (await res.json()) as { started?: boolean; message?: string }, process: res.headers.get(BACKEND_HEADER) };
}

describe('the queue cluster\'s load balancer', () => {
	const closers: Array<() => Promise<void>> = [];
	afterEach(async () => {
		for (const close of closers.splice(0).reverse()) await close();
	});

	async function setUp(opts: { resetAll?: boolean } = {}) {
		const lines: string[] = [];
		const process = await backend(opts);
		closers.push(process.close);
		const proxy = await startProxy({ port: 0, backends: [process.url], log: (line) => lines.push(line) });
		closers.push(proxy.close);
		return { process, proxy, lines };
	}

	it('opens a new connection per request: a process closing an idle connection as a request arrives never costs a 502', async () => {
		const { process, proxy } = await setUp();
		const answers = [];
		for (let i = 0; i < 5; i++) answers.push(await deliver(proxy, i));
		expect(answers.map((a) => [a.status, a.body.started, a.process])).toEqual(Array(5).fill([200, true, process.url]));
		expect(process.connections).toBe(5);
	});

	it('a process that does not answer: 502 naming the process and what failed, and a line in the log', async () => {
		const { process, proxy, lines } = await setUp({ resetAll: true });
		const answer = await deliver(proxy, 1);
		expect([answer.status, answer.process]).toEqual([502, process.url]);
		expect(answer.body.message).toMatch(new RegExp(`^webhook process ${process.url} did not answer: .+ \\(ECONNRESET on a new connection after \\d+ ms\\)$`));
		expect(lines.filter((line) => line.includes('POST'))).toEqual([expect.stringMatching(new RegExp(`^\\[proxy\\] POST /webhook/abc/chat-app -> ${process.url}: ECONNRESET on a new connection`))]);
	});

	it('in front of n8n served under a path: strips the prefix, passes the waiting path unchanged, answers 404 elsewhere', async () => {
		const echo = http.createServer((req, res) => res.end(JSON.stringify({ path: req.url })));
		await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
		closers.push(async () => await new Promise<void>((resolve) => echo.close(() => resolve())));
		const proxy = await startProxy({
			port: 0,
			backends: [`http://127.0.0.1:${(echo.address() as AddressInfo).port}`],
			rewritePath: (path) => (path.startsWith('/automation/webhook-waiting/') ? path : path.startsWith('/automation/') ? path.slice('/automation'.length) : undefined),
		});
		closers.push(proxy.close);
		const pathAt = async (path: string) => {
			const res = await fetch(`${proxy.url}${path}`);
			return [res.status, ((await res.json()) as { path?: string }).path];
		};
		expect(await pathAt('/automation/webhook/order?x=1')).toEqual([200, '/webhook/order?x=1']);
		expect(await pathAt('/automation/webhook-waiting/7/node?signature=ab')).toEqual([200, '/automation/webhook-waiting/7/node?signature=ab']);
		expect(await pathAt('/webhook/order')).toEqual([404, undefined]);
	});
});
