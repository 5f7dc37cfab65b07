/**
 * The sandbox: an in-memory emulator of the timeline navigation and messaging services on
 * 127.0.0.1, plus a control surface under /_sandbox/. Start one per test file:
 *
 *   const sandbox = await startSandbox();   // free port
 *   ...
 *   await sandbox.close();
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SandboxClient } from './client';
import { VirtualClock } from './clock';
import { controlRouter } from './control';
import { FaultRegistry, applyFault } from './faults';
import {
	HttpError,
	MAX_BODY_BYTES,
	Router,
	parseJson,
	parseQuery,
	readBody,
	sendError,
	sendJson,
	splitUrl,
} from './http';
import { DEFAULT_MESSAGING_KEY, DEFAULT_TIMELINE_KEY, bearerToken } from './keys';
import { MessagingService } from './messaging';
import { RequestLog } from './requestLog';
import { TimelineService } from './timeline';
import type { SandboxConfig, Service } from './types';
import { WebhookDispatcher } from './webhooks';

export { DEFAULT_MESSAGING_KEY, DEFAULT_TIMELINE_KEY } from './keys';
export { SandboxClient } from './client';
export type * from './types';

export interface SandboxOptions {
	/** 0 (the default) picks a free port. */
	port?: number;
	/** Keys accepted on timeline paths. Default: [DEFAULT_TIMELINE_KEY]. */
	timelineKeys?: string[];
	/** Keys accepted on /v1/messages. Default: [DEFAULT_MESSAGING_KEY]. */
	messagingKeys?: string[];
	/** Initial webhook URL (also restored by reset). */
	webhookUrl?: string;
	/** Extra headers sent with every webhook (e.g. a shared secret). */
	webhookHeaders?: Record<string, string>;
	/** Receives one line per request and per webhook delivery. */
	log?: (line: string) => void;
	/** Initial settings (also restored by reset). */
	config?: Partial<SandboxConfig>;
}

export interface Sandbox {
	/** http://127.0.0.1:PORT (no trailing slash, no /v1). */
	url: string;
	port: number;
	/** The first accepted timeline key. */
	timelineKey: string;
	/** The first accepted messaging key. */
	messagingKey: string;
	client: SandboxClient;
	close(): Promise<void>;
}

export const DEFAULT_CONFIG: SandboxConfig = {
	timelinesListShape: 'object',
	repeatDeliveries: 0,
	deliveryDelayMs: 20,
	webhookTimeoutMs: 5000,
	businessConnected: true,
	linkPreviews: false,
	linkPreviewDelayMs: 0,
};

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const timelineKeys = options.timelineKeys?.length ? [...options.timelineKeys] : [DEFAULT_TIMELINE_KEY];
	const messagingKeys = options.messagingKeys?.length ? [...options.messagingKeys] : [DEFAULT_MESSAGING_KEY];
	const allKeys = [...timelineKeys, ...messagingKeys];
	const log = options.log ?? (() => undefined);
	const initialConfig: SandboxConfig = { ...DEFAULT_CONFIG, ...options.config };
	const config: SandboxConfig = { ...initialConfig };

	const clock = new VirtualClock();
	const webhooks = new WebhookDispatcher({ url: options.webhookUrl ?? null, headers: options.webhookHeaders ?? {} }, () => config, log);
	const timeline = new TimelineService(clock, () => config);
	const messaging = new MessagingService(clock, () => config, webhooks);
	const faults = new FaultRegistry();
	const requestLog = new RequestLog(() => allKeys);

	const api = new Router<Service>();
	timeline.routes(api);
	messaging.routes(api);

	const flush = async () => {
		await messaging.settle();
		await webhooks.flush();
	};
	const reset = () => {
		webhooks.reset();
		messaging.reset();
		timeline.reset();
		faults.clear();
		requestLog.clear();
		clock.reset();
		Object.assign(config, initialConfig);
	};
	const timelineKeyIndex = (key: string) => timelineKeys.indexOf(key);
	const control = controlRouter({ clock, faults, requestLog, webhooks, timeline, messaging, config, flush, reset, timelineKeyIndex });

	const keysFor = (service: Service) => (service === 'timeline' ? timelineKeys : messagingKeys);
	const serviceName = (service: Service) => (service === 'timeline' ? 'timeline navigation' : 'messaging');

	async function handleApi(req: http.IncomingMessage, res: http.ServerResponse, method: string, path: string, search: string): Promise<void> {
		const query = parseQuery(search);
		const raw = await readBody(req);
		const parsed = raw.tooLarge ? ({ ok: true, value: undefined } as const) : parseJson(raw.text);
		// Recorded first, so faults, auth failures and 404s are all visible to tests.
		const entry = requestLog.record({
			time: new Date().toISOString(),
			sandboxTime: clock.nowIso(),
			method,
			path,
			query,
			headers: req.headers,
			body: raw.tooLarge ? `[${raw.bytes} bytes: over the ${MAX_BODY_BYTES}-byte limit, not kept]` : parsed.ok ? (parsed.value ?? null) : parsed.raw,
			service: path.startsWith('/v1/messages') ? 'messaging' : path.startsWith('/v1/') ? 'timeline' : null,
		});
		res.on('finish', () => {
			entry.responseStatus = res.statusCode;
		});

		const fault = faults.take(method, path, query);
		if (fault) {
			entry.fault = fault.kind;
			if (await applyFault(fault, res)) return;
		}
		if (raw.tooLarge) {
			throw new HttpError(413, 'payload_too_large', `The request body is ${raw.bytes} bytes; the limit is ${MAX_BODY_BYTES} bytes (1 MB).`);
		}

		const key = bearerToken(req.headers.authorization);
		const match = api.match(method, path);
		if (match.kind === 'not_found') {
			// Unknown paths still require some valid key, like a real gateway would.
			if (!key || !allKeys.includes(key)) throw unauthorized(key, null);
			throw new HttpError(404, 'not_found', `Unknown path ${method} ${path}.`);
		}
		if (!key || !keysFor(match.kind === 'found' ? match.route.tag : match.tag).includes(key)) {
			throw unauthorized(key, match.kind === 'found' ? match.route.tag : match.tag);
		}
		if (match.kind === 'method_not_allowed') {
			throw new HttpError(405, 'method_not_allowed', `Method ${method} is not allowed on ${path}; allowed: ${match.allowed.join(', ')}.`, undefined, {
				Allow: match.allowed.join(', '),
			});
		}
		if (!parsed.ok) throw invalidJson();
		const reply = await match.route.handler({ method, path, query, body: parsed.value, params: match.params, key });
		sendJson(res, reply.status, reply.body, reply.headers);
	}

	function unauthorized(key: string | undefined, service: Service | null): HttpError {
		const message = !key
			? 'Missing bearer key: send the header Authorization: Bearer <API_KEY>.'
			: service
				? `The bearer key is not valid for the ${serviceName(service)} service.`
				: 'The bearer key is not valid.';
		return new HttpError(401, 'unauthorized', message, undefined, { 'WWW-Authenticate': 'Bearer' });
	}

	async function handleControl(req: http.IncomingMessage, res: http.ServerResponse, method: string, path: string, search: string): Promise<void> {
		if (!LOOPBACK.has(req.socket.remoteAddress ?? '')) {
			throw new HttpError(403, 'forbidden', 'The control surface answers loopback clients only.');
		}
		const raw = await readBody(req);
		if (raw.tooLarge) throw new HttpError(413, 'payload_too_large', `The request body is over the ${MAX_BODY_BYTES}-byte limit.`);
		const parsed = parseJson(raw.text);
		const match = control.match(method, path);
		if (match.kind === 'not_found') throw new HttpError(404, 'not_found', `Unknown control path ${method} ${path}; GET /_sandbox lists them.`);
		if (match.kind === 'method_not_allowed') {
			throw new HttpError(405, 'method_not_allowed', `Method ${method} is not allowed on ${path}; allowed: ${match.allowed.join(', ')}.`, undefined, { Allow: match.allowed.join(', ') });
		}
		if (!parsed.ok) throw invalidJson();
		const reply = await match.route.handler({ method, path, query: parseQuery(search), body: parsed.value, params: match.params, key: '' });
		sendJson(res, reply.status, reply.body, reply.headers);
	}

	const server = http.createServer((req, res) => {
		const method = (req.method ?? 'GET').toUpperCase();
		const { path, search } = splitUrl(req.url);
		const started = Date.now();
		res.on('finish', () => log(`${method} ${path}${search ? `?${search}` : ''} -> ${res.statusCode} (${Date.now() - started} ms)`));
		const isControl = path === '/_sandbox' || path.startsWith('/_sandbox/');
		const work = isControl ? handleControl(req, res, method, path, search) : handleApi(req, res, method, path, search);
		work.catch((error: unknown) => {
			if (error instanceof HttpError) {
				sendError(res, error);
				return;
			}
			log(`internal error on ${method} ${path}: ${error instanceof Error ? error.stack : String(error)}`);
			sendError(res, new HttpError(500, 'internal_error', 'The sandbox failed unexpectedly; see its log.'));
		});
	});
	// Keep-alive sockets must not outlive close(); a short idle timeout also helps.
	server.keepAliveTimeout = 2000;

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
	const port = (server.address() as AddressInfo).port;
	const url = `http://127.0.0.1:${port}`;
	let closed: Promise<void> | undefined;

	return {
		url,
		port,
		timelineKey: timelineKeys[0],
		messagingKey: messagingKeys[0],
		client: new SandboxClient(url),
		close() {
			closed ??= new Promise<void>((resolve) => {
				messaging.cancelTimers();
				webhooks.abort();
				server.close(() => resolve());
				server.closeAllConnections();
			});
			return closed;
		},
	};
}

function invalidJson(): HttpError {
	return new HttpError(400, 'invalid_json', 'The request body is not valid JSON; send a JSON object with Content-Type: application/json.', 'body');
}
