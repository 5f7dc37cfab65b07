/**
 * HTTP plumbing shared by every module: the error type and body shape, JSON replies,
 * body reading with a size limit, query parsing and a tiny router.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Bodies above this size get 413 payload_too_large. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Past this we stop draining and drop the connection instead of reading forever. */
const HARD_DRAIN_LIMIT = 32 * MAX_BODY_BYTES;

export interface ErrorBody {
	error: { code: string; message: string; field?: string };
}

/** Thrown by handlers; turned into the sandbox-wide error body. */
export class HttpError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		readonly field?: string,
		readonly headers?: Record<string, string>,
	) {
		super(message);
	}

	toBody(): ErrorBody {
		return errorBody(this.code, this.message, this.field);
	}
}

export function errorBody(code: string, message: string, field?: string): ErrorBody {
	return { error: field === undefined ? { code, message } : { code, message, field } };
}

export interface Reply {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
}

export function ok(body: unknown, status = 200): Reply {
	return { status, body };
}

export function sendJson(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void {
	if (res.headersSent || res.destroyed) return;
	const text = body === undefined ? '' : JSON.stringify(body);
	res.writeHead(status, {
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': String(Buffer.byteLength(text)),
		...headers,
	});
	res.end(text);
}

/** A body sent verbatim as text/plain; an empty one goes without any Content-Type. */
export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
	if (res.headersSent || res.destroyed) return;
	res.writeHead(status, {
		...(text === '' ? {} : { 'Content-Type': 'text/plain; charset=utf-8' }),
		'Content-Length': String(Buffer.byteLength(text)),
		...headers,
	});
	res.end(text);
}

export function sendError(res: ServerResponse, error: HttpError): void {
	sendJson(res, error.status, error.toBody(), error.headers);
}

export interface RawBody {
	text: string;
	bytes: number;
	tooLarge: boolean;
}

/**
 * Reads the whole body. An oversized body is drained (so the client sees our 413 instead of
 * a reset) but not kept; an absurdly large one gets the connection dropped.
 */
export function readBody(req: IncomingMessage): Promise<RawBody> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let bytes = 0;
		req.on('data', (chunk: Buffer) => {
			bytes += chunk.length;
			if (bytes <= MAX_BODY_BYTES) chunks.push(chunk);
			else if (bytes > HARD_DRAIN_LIMIT) req.destroy();
		});
		req.on('end', () =>
			resolve({
				text: bytes > MAX_BODY_BYTES ? '' : Buffer.concat(chunks).toString('utf8'),
				bytes,
				tooLarge: bytes > MAX_BODY_BYTES,
			}),
		);
		req.on('error', reject);
	});
}

export type ParsedBody = { ok: true; value: unknown } | { ok: false; raw: string };

/** Empty body => undefined (handlers treat it as `{}`); non-JSON => not ok. */
export function parseJson(text: string): ParsedBody {
	if (text.trim() === '') return { ok: true, value: undefined };
	try {
		return { ok: true, value: JSON.parse(text) };
	} catch {
		return { ok: false, raw: text };
	}
}

/** Splits a raw request URL without normalising it, so `..` or `%2F` never change the route. */
export function splitUrl(rawUrl: string | undefined): { path: string; search: string } {
	const url = rawUrl ?? '/';
	const q = url.indexOf('?');
	return q === -1 ? { path: url, search: '' } : { path: url.slice(0, q), search: url.slice(q + 1) };
}

/** Repeated names become arrays, like most frameworks do. */
export function parseQuery(search: string): Record<string, string | string[]> {
	const out: Record<string, string | string[]> = {};
	for (const [name, value] of new URLSearchParams(search)) {
		const prev = out[name];
		if (prev === undefined) out[name] = value;
		else out[name] = Array.isArray(prev) ? [...prev, value] : [prev, value];
	}
	return out;
}

export interface RequestContext {
	method: string;
	path: string;
	query: Record<string, string | string[]>;
	/** Parsed JSON body (undefined when empty). */
	body: unknown;
	params: Record<string, string>;
	/** The bearer key that authenticated the request ('' on the control surface). */
	key: string;
}

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

export interface Route<Tag> {
	method: string;
	segments: string[];
	tag: Tag;
	handler: Handler;
}

export type RouteMatch<Tag> =
	| { kind: 'found'; route: Route<Tag>; params: Record<string, string> }
	| { kind: 'method_not_allowed'; allowed: string[]; tag: Tag }
	| { kind: 'not_found' };

/**
 * Segment-by-segment matcher. `:name` captures one raw segment and URL-decodes it after
 * matching, so an encoded slash stays inside its segment. A trailing slash is ignored.
 */
export class Router<Tag> {
	private readonly routes: Route<Tag>[] = [];

	add(method: string, pattern: string, tag: Tag, handler: Handler): this {
		this.routes.push({ method, segments: pattern.split('/'), tag, handler });
		return this;
	}

	match(method: string, path: string): RouteMatch<Tag> {
		const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
		const segments = trimmed.split('/');
		const allowed: string[] = [];
		let tag: Tag | undefined;
		for (const route of this.routes) {
			const params = matchSegments(route.segments, segments);
			if (!params) continue;
			if (route.method === method) return { kind: 'found', route, params };
			allowed.push(route.method);
			tag = route.tag;
		}
		return allowed.length > 0 && tag !== undefined
			? { kind: 'method_not_allowed', allowed, tag }
			: { kind: 'not_found' };
	}
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | undefined {
	if (pattern.length !== actual.length) return undefined;
	const params: Record<string, string> = {};
	for (let i = 0; i < pattern.length; i++) {
		const p = pattern[i];
		if (p.startsWith(':')) {
			if (actual[i] === '') return undefined;
			let decoded: string;
			try {
				decoded = decodeURIComponent(actual[i]);
			} catch {
				throw new HttpError(
					400,
					'validation_error',
					`The path parameter '${p.slice(1)}' is not validly URL-encoded.`,
					p.slice(1),
				);
			}
			params[p.slice(1)] = decoded;
		} else if (p !== actual[i]) {
			return undefined;
		}
	}
	return params;
}
