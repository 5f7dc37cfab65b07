/**
 * Helpers for the sandbox's own tests (usable by others too): an authenticated axios
 * instance, a raw node:http request (for GET bodies and dropped sockets), a local webhook
 * receiver, and error bodies of shapes a real service might answer.
 */
import axios, { type AxiosInstance } from 'axios';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FaultSpec } from './types';

/**
 * Error bodies of the shapes a real service might answer (the documents do not show one), as
 * the body of a 'status' fault: code that must not depend on the body is tested with each.
 */
export const ERROR_BODY_SHAPES: Array<[shape: string, body: Pick<FaultSpec, 'body' | 'bodyText'>]> = [
	['no body', { bodyText: '' }],
	['a text body', { bodyText: 'Unauthorized' }],
	['{"message": ...}', { body: { message: 'Unauthorized' } }],
	['{"error": "..."}', { body: { error: 'invalid_api_key' } }],
	['{"error": {"code": ...}}', { body: { error: { code: 'unauthorized', message: 'Wrong key' } } }],
];

/** axios on `${url}/v1` with the bearer key; never throws on a status. */
export function api(url: string, key?: string): AxiosInstance {
	return axios.create({
		baseURL: `${url}/v1`,
		headers: key ? { Authorization: `Bearer ${key}` } : {},
		validateStatus: () => true,
		httpAgent: new http.Agent({ keepAlive: false }),
		proxy: false,
	});
}

export interface RawResponse {
	status: number;
	headers: http.IncomingHttpHeaders;
	text: string;
	json: any;
}

/** A request with full control (axios may drop a GET body). A body goes as application/json unless `headers` names a Content-Type. */
export function rawRequest(
	url: string,
	method: string,
	path: string,
	options: { headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
	return new Promise((resolve, reject) => {
		const headers: Record<string, string> = { ...options.headers };
		if (options.body !== undefined) {
			// JSON unless the caller names another type, in whatever case it spells the header.
			if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
			headers['Content-Length'] = String(Buffer.byteLength(options.body));
		}
		// Host and port from the URL, the path verbatim: a URL string would normalise `..` away.
		const base = new URL(url);
		const req = http.request({ host: base.hostname, port: base.port, path, method, headers, agent: false }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () => {
				const text = Buffer.concat(chunks).toString('utf8');
				let json: unknown;
				try {
					json = JSON.parse(text);
				} catch {
					json = undefined;
				}
				resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
			});
			res.on('error', reject);
		});
		req.on('error', reject);
		req.end(options.body);
	});
}

export interface ReceivedWebhook {
	headers: http.IncomingHttpHeaders;
	body: any;
	raw: string;
}

export interface Receiver {
	url: string;
	received: ReceivedWebhook[];
	/** Status the receiver answers with (default 200). */
	status: number;
	close(): Promise<void>;
}

/** A local HTTP server that records every POST it gets. */
export async function startReceiver(): Promise<Receiver> {
	const received: ReceivedWebhook[] = [];
	const receiver: Receiver = {
		url: '',
		received,
		status: 200,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const raw = Buffer.concat(chunks).toString('utf8');
			let body: unknown;
			try {
				body = JSON.parse(raw);
			} catch {
				body = undefined;
			}
			received.push({ headers: req.headers, body, raw });
			res.writeHead(receiver.status, { 'Content-Type': 'application/json' });
			res.end('{"ok":true}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
	return receiver;
}

export const HOUR = 3_600_000;
