/**
 * A small HTTP load balancer in front of n8n's webhook processes, standing in for nginx or a
 * cloud balancer in queue mode. By default it sends each request to the next process in turn
 * (round-robin). With `pinPaths`, requests whose path matches always go to the same process,
 * chosen by a hash of the path: the equivalent of nginx's `hash $request_uri consistent;` in
 * the location for `/webhook/`, so every delivery to one trigger reaches one process. With
 * `rewritePath` it also stands in for a proxy that serves n8n under a path (nginx's
 * `location /automation/ { proxy_pass http://n8n:5678/; }` strips the prefix).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Log } from './runtime';

export interface WebhookProxy {
	url: string;
	port: number;
	/** The processes requests go to (base URLs such as http://127.0.0.1:5690). */
	backends(): string[];
	setBackends(urls: string[]): void;
	/** Paths matching `pattern` go to one process each; `null`: round-robin for everything. */
	pinPaths(pattern: RegExp | null): void;
	/** Requests forwarded to each backend since the start (by base URL). */
	forwarded(): Record<string, number>;
	close(): Promise<void>;
}

export interface ProxyOptions {
	/** Listen port on 127.0.0.1 (0: any free port). */
	port: number;
	backends: string[];
	pinPaths?: RegExp | null;
	/** The path (with its query) the backend receives for the one asked; undefined: answered 404 here. */
	rewritePath?: (requestPath: string) => string | undefined;
	log?: Log;
}

/** Answer header naming the webhook process that answered (its base URL). */
export const BACKEND_HEADER = 'x-webhook-process';

/** Headers about one connection, not the message (RFC 9110, 7.6.1): a proxy does not pass them on. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade'];

function endToEnd(headers: http.IncomingHttpHeaders): http.IncomingHttpHeaders {
	const named = String(headers.connection ?? '').split(',').map((h) => h.trim().toLowerCase());
	return Object.fromEntries(Object.entries(headers).filter(([h]) => !HOP_BY_HOP.includes(h) && !named.includes(h)));
}

/** FNV-1a over the path: stable across restarts of the proxy and of the backends. */
function pathHash(value: string): number {
	let hash = 0x811c9dc5;
	for (let i = 0; i < value.length; i++) {
		hash ^= value.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash;
}

export async function startProxy(opts: ProxyOptions): Promise<WebhookProxy> {
	let backends = [...opts.backends];
	let pinned: RegExp | null = opts.pinPaths ?? null;
	let next = 0;
	const counts = new Map<string, number>();
	// A new connection to the webhook process per request, as nginx does unless told otherwise.
	// A kept-alive connection is closed by n8n after 5 s idle (`Keep-Alive: timeout=5`); a request
	// sent on it at that moment fails with ECONNRESET before n8n reads it, and the balancer could
	// only answer 502 (1–2 of 1,600 deliveries on a loaded machine; see docs/scale-out.md).
	const agent = new http.Agent({ keepAlive: false, maxSockets: 64 });

	const choose = (requestPath: string): string => {
		const pathOnly = requestPath.split('?')[0];
		if (pinned?.test(pathOnly)) return backends[pathHash(pathOnly) % backends.length];
		const target = backends[next % backends.length];
		next = (next + 1) % backends.length;
		return target;
	};

	const server = http.createServer((req, res) => {
		if (backends.length === 0) {
			res.writeHead(503, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ message: 'no webhook process behind the proxy' }));
			return;
		}
		const forwardedPath = opts.rewritePath ? opts.rewritePath(req.url ?? '/') : req.url;
		if (forwardedPath === undefined) {
			res.writeHead(404, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ message: `the proxy serves nothing at ${req.url}` }));
			return;
		}
		const target = new URL(choose(forwardedPath));
		counts.set(target.origin, (counts.get(target.origin) ?? 0) + 1);
		const started = Date.now();
		const upstream = http.request(
			{
				host: target.hostname,
				port: target.port,
				method: req.method,
				path: forwardedPath,
				headers: { ...endToEnd(req.headers), host: target.host, 'x-forwarded-for': req.socket.remoteAddress ?? '' },
				agent,
			},
			(answer) => {
				// Which process answered, as nginx's `add_header X-Upstream $upstream_addr` would say.
				res.writeHead(answer.statusCode ?? 502, { ...endToEnd(answer.headers), [BACKEND_HEADER]: target.origin });
				answer.pipe(res);
			},
		);
		upstream.on('error', (error: NodeJS.ErrnoException) => {
			const socket = upstream.reusedSocket ? 'a reused keep-alive connection' : 'a new connection';
			const detail = `${error.code ?? error.message} on ${socket} after ${Date.now() - started} ms`;
			opts.log?.(`[proxy] ${req.method} ${req.url} -> ${target.origin}: ${detail}`);
			if (res.headersSent) {
				res.destroy(error);
				return;
			}
			res.writeHead(502, { 'content-type': 'application/json', [BACKEND_HEADER]: target.origin });
			res.end(JSON.stringify({ message: `webhook process ${target.origin} did not answer: ${error.message} (${detail})` }));
		});
		req.pipe(upstream);
	});
	server.keepAliveTimeout = 5000;
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(opts.port, '127.0.0.1', resolve);
	});
	const port = (server.address() as AddressInfo).port;
	const url = `http://127.0.0.1:${port}`;
	opts.log?.(`[proxy] ${url} -> ${backends.join(', ') || '(no process yet)'}${pinned ? `, pinning ${pinned}` : ', round-robin'}`);

	return {
		url,
		port,
		backends: () => [...backends],
		setBackends(urls) {
			backends = [...urls];
			next = 0;
		},
		pinPaths(pattern) {
			pinned = pattern;
		},
		forwarded: () => Object.fromEntries(counts),
		async close() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
			agent.destroy();
		},
	};
}
