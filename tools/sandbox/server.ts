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
import { LiveView, isPageFile, pageView, sendPageFile } from './page';
import { RequestLog } from './requestLog';
import { SAVED_LOG_LIMIT, StateFile, type StateContent } from './state';
import { TimelineService } from './timeline';
import type { Tour } from './tour';
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
	/**
	 * Keep the world in this file across restarts (see state.ts): read at start, saved after each
	 * change and on close. Without it (every test) the sandbox starts empty and keeps nothing.
	 */
	stateFile?: string;
	/** Forget what `stateFile` holds and start afresh (npm start -- --reset-sandbox). */
	startFresh?: boolean;
	/**
	 * Fills a fresh world: at a start with nothing saved, and after every reset (POST
	 * /_sandbox/reset, the page's Reset button). Not run when a saved world was read.
	 */
	seed?: (sandbox: Sandbox) => Promise<void>;
	/** Runs first at every reset, before the world is emptied (npm start unpublishes what polls it). */
	beforeReset?: () => Promise<void>;
	/** The page's "start here" (npm start's): see tour.ts. */
	tour?: Tour;
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
	/** With `stateFile`: the file, when the world read from it was saved (null: a fresh world), and why a file could not be read. */
	state: { file: string; restoredFrom: string | null; problem?: string } | null;
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
	// The pages' view reads the services declared below, when a page asks.
	const live = new LiveView(() =>
		pageView({ clock, timeline, messaging, webhooks, faults, requestLog, timelineKeyIndex, stateFile: options.stateFile ?? null, tour: options.tour }),
	);
	// The state file, too, reads the services when it saves.
	const store = options.stateFile ? new StateFile(options.stateFile, () => content()) : undefined;
	// Something changed: saved soon (with a state file), and sent to the pages open.
	const changed = () => {
		store?.changed();
		live.changed();
	};
	const webhooks = new WebhookDispatcher({ url: options.webhookUrl ?? null, headers: options.webhookHeaders ?? {} }, () => config, log, changed);
	const timeline = new TimelineService(clock, () => config);
	const messaging = new MessagingService(clock, () => config, webhooks, changed);
	const faults = new FaultRegistry();
	const requestLog = new RequestLog(() => allKeys);
	const timelineKeyIndex = (key: string) => timelineKeys.indexOf(key);

	const content = (): StateContent => ({
		clockOffsetMs: clock.state().offsetMs,
		config: { ...config },
		timeline: timeline.snapshot(timelineKeyIndex),
		messaging: messaging.snapshot(),
		webhooks: webhooks.snapshot(SAVED_LOG_LIMIT),
		requests: requestLog.snapshot(SAVED_LOG_LIMIT),
	});
	let state: Sandbox['state'] = null;
	if (store) {
		if (options.startFresh) store.discard();
		const loaded = store.load();
		if (loaded.state) {
			const saved = loaded.state;
			clock.restore(saved.clockOffsetMs);
			Object.assign(config, saved.config);
			timeline.restore(saved.timeline, (index) => timelineKeys[index]);
			messaging.restore(saved.messaging);
			webhooks.restore(saved.webhooks);
			requestLog.restore(saved.requests);
		}
		state = { file: store.file, restoredFrom: loaded.state?.savedAt ?? null, ...(loaded.problem ? { problem: loaded.problem } : {}) };
	}

	const api = new Router<Service>();
	timeline.routes(api);
	messaging.routes(api);

	const flush = async () => {
		await messaging.settle();
		await webhooks.flush();
	};
	const reset = async () => {
		await options.beforeReset?.();
		webhooks.reset();
		messaging.reset();
		timeline.reset();
		faults.clear();
		requestLog.clear();
		clock.reset();
		Object.assign(config, initialConfig);
		if (options.seed) await options.seed(sandbox);
	};
	const control = controlRouter({
		clock,
		faults,
		requestLog,
		webhooks,
		timeline,
		messaging,
		config,
		flush,
		reset,
		timelineKeyIndex,
		view: () => live.view(),
		tour: options.tour,
	});

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
		// The answer as sent, whichever way it is sent (a reply, an error, a fault).
		const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
		res.end = ((...args: unknown[]) => {
			const chunk = args[0];
			if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) requestLog.answer(entry, chunk.toString());
			return end(...args);
		}) as typeof res.end;
		res.on('finish', () => {
			entry.responseStatus = res.statusCode;
		});

		const fault = faults.take(method, path, query, raw.tooLarge ? '' : raw.text);
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
		if (isPageFile(method, path)) {
			sendPageFile(res, path);
			return;
		}
		if (method === 'GET' && path === '/_sandbox/stream') {
			live.subscribe(req, res);
			return;
		}
		refuseCrossSiteControl(req, method);
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
		const isControl = path === '/_sandbox' || path.startsWith('/_sandbox/') || isPageFile(method, path);
		res.on('finish', () => {
			log(`${method} ${path}${search ? `?${search}` : ''} -> ${res.statusCode} (${Date.now() - started} ms)`);
			// A /v1 request is logged; a control request other than a GET changes something.
			if (!isControl || method !== 'GET') changed();
		});
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

	const sandbox: Sandbox = {
		url,
		port,
		timelineKey: timelineKeys[0],
		messagingKey: messagingKeys[0],
		client: new SandboxClient(url),
		state,
		close() {
			closed ??= new Promise<void>((resolve) => {
				messaging.cancelTimers();
				webhooks.abort();
				store?.close();
				live.close();
				server.close(() => resolve());
				server.closeAllConnections();
			});
			return closed;
		},
	};
	if (!state?.restoredFrom && options.seed) {
		try {
			await options.seed(sandbox);
		} catch (error) {
			await sandbox.close();
			throw error;
		}
	}
	store?.save();
	return sandbox;
}

function invalidJson(): HttpError {
	return new HttpError(400, 'invalid_json', 'The request body is not valid JSON; send a JSON object with Content-Type: application/json.', 'body');
}

/** The methods of the control surface that change something; GET (and the stream) never does. */
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A web site open in the same browser as the page can send a "simple" request to 127.0.0.1:
 * a POST with Content-Type text/plain goes out without a CORS preflight, and the browser only
 * hides the answer, after the sandbox has acted on it. So a control call that changes
 * something is refused when it comes from another origin (a browser always sends Origin on
 * such a call; node's fetch, axios, curl and the tests send none) or carries a body that is
 * not declared JSON (a cross-origin page cannot send application/json without a preflight,
 * which the sandbox never answers). The sandbox's own page sends its own origin and JSON.
 */
function refuseCrossSiteControl(req: http.IncomingMessage, method: string): void {
	if (!STATE_CHANGING.has(method)) return;
	const origin = req.headers.origin;
	if (origin !== undefined) {
		const host = req.headers.host;
		const own = host ? `http://${host}` : undefined;
		if (own === undefined || origin.toLowerCase() !== own.toLowerCase()) {
			throw new HttpError(
				403,
				'cross_origin',
				`Cross-origin requests to the sandbox's control endpoints are refused: Origin ${origin} is not ${own ?? 'the sandbox\'s own origin (the request has no Host header)'}. ` +
					"Use the sandbox's own page or a tool that sends no Origin.",
			);
		}
	}
	const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
	if (!hasBody) return;
	const type = req.headers['content-type'];
	if (type?.split(';')[0].trim().toLowerCase() !== 'application/json') {
		throw new HttpError(
			415,
			'unsupported_media_type',
			`The sandbox's control endpoints take JSON bodies only: Content-Type ${type ? `'${type}'` : '(none)'} is not application/json. ` +
				'Send the body with the header Content-Type: application/json.',
		);
	}
}
