/**
 * The control surface under /_sandbox/: no auth (the server listens on loopback only and
 * refuses other peers). Tests and people use it to arrange state and inspect what arrived.
 */
import type { VirtualClock } from './clock';
import type { FaultRegistry } from './faults';
import { ok, type Reply, type RequestContext, Router } from './http';
import type { MessagingService } from './messaging';
import type { PageView } from './page';
import type { RequestLog } from './requestLog';
import type { TimelineService } from './timeline';
import { startStep, type Tour } from './tour';
import type { RequestFilter, SandboxConfig } from './types';
import type { WebhookDispatcher } from './webhooks';
import { invalid, isObject, objectBody, optionalBoolean, optionalInteger, type JsonObject } from './validate';

export interface ControlDeps {
	clock: VirtualClock;
	faults: FaultRegistry;
	requestLog: RequestLog;
	webhooks: WebhookDispatcher;
	timeline: TimelineService;
	messaging: MessagingService;
	config: SandboxConfig;
	/** Waits for scheduled deliveries and the webhook queue. */
	flush: () => Promise<void>;
	/** Back to the startup state, then the seed (if any) fills it. */
	reset: () => Promise<void>;
	/** Everything the page shows. */
	view: () => PageView;
	/** A timeline key's place among the accepted ones (the control surface never shows keys). */
	timelineKeyIndex: (key: string) => number;
	/** The page's "start here", when a demo gives one. */
	tour?: Tour;
}

/** One line per endpoint, for the CLI banner and GET /_sandbox. */
export const CONTROL_ENDPOINTS: Array<{ method: string; path: string; body?: string; purpose: string }> = [
	{ method: 'GET', path: '/_sandbox', purpose: 'this list' },
	{ method: 'GET', path: '/_sandbox/view', purpose: 'everything the page at / shows (GET /_sandbox/stream: the same, live, as server-sent events)' },
	{ method: 'POST', path: '/_sandbox/reset', purpose: 'back to the startup state (keys kept; npm start seeds its demo world again and imports its demo workflows afresh)' },
	{ method: 'POST', path: '/_sandbox/tour/{step}', purpose: 'start a step of the page\'s "start here" (npm start: write, event, anomaly, refund)' },
	{ method: 'GET', path: '/_sandbox/config', purpose: 'current settings' },
	{ method: 'POST', path: '/_sandbox/config', body: '{"timelinesListShape":"array","repeatDeliveries":1,"deliveryDelayMs":20,"webhookTimeoutMs":5000,"businessConnected":true,"linkPreviews":true,"linkPreviewDelayMs":0}', purpose: 'change settings (any subset)' },
	{ method: 'GET', path: '/_sandbox/webhook', purpose: 'webhook URL and headers' },
	{ method: 'POST', path: '/_sandbox/webhook', body: '{"url":"http://127.0.0.1:5678/webhook/x","headers":{"X-Secret":"s3cret"}}', purpose: 'set (url null = none)' },
	{ method: 'GET', path: '/_sandbox/webhooks/deliveries', purpose: 'recorded deliveries (?wait=1 waits for pending ones first)' },
	{ method: 'POST', path: '/_sandbox/webhooks/flush', purpose: 'wait for pending deliveries, then list them' },
	{ method: 'POST', path: '/_sandbox/webhooks/repeat', body: '{"deliveryId":1}', purpose: 'deliver a recorded delivery\'s payload again (a repeat, as at-least-once services do)' },
	{ method: 'GET', path: '/_sandbox/templates', purpose: 'templates' },
	{ method: 'POST', path: '/_sandbox/templates', body: '{"id":"t1","status":"approved","category":"Utility","body":"Hi {{1}}","parameters":[{"name":"customer name","pattern":"\\\\p{L}"}]}', purpose: 'seed or replace a template' },
	{ method: 'POST', path: '/_sandbox/contacts', body: '{"phone":"+14155550123","fields":{"first_name":"Ada"}}', purpose: 'seed or replace a contact' },
	{ method: 'POST', path: '/_sandbox/inbound', body: '{"from":"+14155550123","text":"hi"}', purpose: 'customer writes in: opens the window, emits message.inbound' },
	{ method: 'POST', path: '/_sandbox/read', body: '{"message_id":"msg_..."}', purpose: 'recipient reads: emits message.status read' },
	{ method: 'GET', path: '/_sandbox/messages', purpose: 'stored messages with their links and link previews (?phone=+1...; ?wait=0 skips waiting for previews)' },
	{ method: 'GET', path: '/_sandbox/messages/{message_id}', purpose: 'stored message incl. resolved text, request, links and link previews' },
	{ method: 'GET', path: '/_sandbox/window/{phone}', purpose: '24-hour window state of a number' },
	{ method: 'GET', path: '/_sandbox/clock', purpose: 'sandbox time' },
	{ method: 'POST', path: '/_sandbox/clock', body: '{"advanceMs":86400000}', purpose: 'move the sandbox clock (or {"set":"2030-01-01T00:00:00Z"})' },
	{ method: 'POST', path: '/_sandbox/business', body: '{"connected":false}', purpose: 'toggle the business account connection' },
	{ method: 'GET', path: '/_sandbox/travellers', purpose: 'each timeline key\'s traveller: paused, current time, location, timeline' },
	{ method: 'POST', path: '/_sandbox/events', body: '{"location":"Rome","time":"2030-01-01T10:00:00Z","description":"..."}', purpose: 'seed an event for GET /v1/monitor-events' },
	{ method: 'PATCH', path: '/_sandbox/events/{seed_id}', body: '{"time":"2029-12-31T10:00:00Z"}', purpose: 'change a seeded event while n8n runs: time (back-date it), description or location' },
	{ method: 'DELETE', path: '/_sandbox/events/{seed_id}', purpose: 'remove a seeded event' },
	{ method: 'POST', path: '/_sandbox/anomalies', body: '{"timelineId":"tl_...","type":"paradox","time":"2030-01-01T10:00:00Z","description":"..."}', purpose: 'add an anomaly to a timeline (GET /v1/monitor-timeline lists it)' },
	{ method: 'DELETE', path: '/_sandbox/anomalies/{anomaly_id}', purpose: 'remove an anomaly' },
	{ method: 'GET', path: '/_sandbox/faults', purpose: 'armed faults' },
	{ method: 'POST', path: '/_sandbox/faults', body: '{"kind":"status","status":429,"retryAfter":2,"path":"/v1/messages","count":1}', purpose: 'inject a fault (kinds: status, delay, malformed, drop)' },
	{ method: 'DELETE', path: '/_sandbox/faults', purpose: 'clear faults' },
	{ method: 'DELETE', path: '/_sandbox/faults/{faultId}', purpose: 'disarm one fault' },
	{ method: 'GET', path: '/_sandbox/requests', purpose: 'recorded /v1 requests (?method=&path=&pathPrefix=)' },
	{ method: 'DELETE', path: '/_sandbox/requests', purpose: 'clear the request log' },
];

export function controlRouter(d: ControlDeps): Router<'control'> {
	const r = new Router<'control'>();
	const add = (method: string, path: string, fn: (ctx: RequestContext) => Reply | Promise<Reply>) =>
		r.add(method, `/_sandbox${path}`, 'control', fn);
	const body = (ctx: RequestContext) => objectBody(ctx.body);

	add('GET', '', () => ok({ endpoints: CONTROL_ENDPOINTS }));
	add('GET', '/view', () => ok(d.view()));
	add('POST', '/reset', async () => {
		await d.reset();
		return ok({ reset: true });
	});

	add('POST', '/tour/:step', async (ctx) => ok(await startStep(d.tour, ctx.params.step)));

	add('GET', '/config', () => ok({ ...d.config }));
	add('POST', '/config', (ctx) => ok(updateConfig(d.config, body(ctx))));

	add('GET', '/webhook', () => ok(d.webhooks.getConfig()));
	add('POST', '/webhook', (ctx) => {
		const b = body(ctx);
		if (b.url !== null && b.url !== undefined && (typeof b.url !== 'string' || !/^https?:\/\//i.test(b.url))) {
			throw invalid('url', "The field 'url' must be an http(s) URL, or null to stop sending webhooks.");
		}
		const headers = b.headers ?? {};
		if (!isObject(headers) || !Object.values(headers).every((v) => typeof v === 'string')) {
			throw invalid('headers', "The field 'headers' must be an object of string values.");
		}
		return ok(d.webhooks.setConfig((b.url as string | null | undefined) ?? null, headers as Record<string, string>));
	});
	add('GET', '/webhooks/deliveries', async (ctx) => {
		if (ctx.query.wait !== undefined && ctx.query.wait !== '0') await d.flush();
		return ok(d.webhooks.list());
	});
	add('POST', '/webhooks/flush', async () => {
		await d.flush();
		return ok(d.webhooks.list());
	});
	add('POST', '/webhooks/repeat', (ctx) => ok(d.webhooks.repeat(ctx.body)));

	add('GET', '/templates', () => ok(d.messaging.listTemplates()));
	add('POST', '/templates', (ctx) => ok(d.messaging.seedTemplate(ctx.body), 201));
	add('POST', '/contacts', (ctx) => ok(d.messaging.seedContact(ctx.body), 201));
	add('POST', '/inbound', (ctx) => ok(d.messaging.inbound(ctx.body)));
	add('POST', '/read', (ctx) => ok(d.messaging.read(ctx.body)));
	add('GET', '/messages', async (ctx) => {
		if (ctx.query.wait !== '0') await d.messaging.settle();
		return ok(d.messaging.list(typeof ctx.query.phone === 'string' ? ctx.query.phone : undefined));
	});
	add('GET', '/messages/:message_id', (ctx) => ok(d.messaging.stored(ctx.params.message_id)));
	add('GET', '/window/:phone', (ctx) => ok(d.messaging.windowState(ctx.params.phone)));

	add('GET', '/clock', () => ok(d.clock.state()));
	add('POST', '/clock', (ctx) => {
		const b = body(ctx);
		if (typeof b.set === 'string') {
			const ms = Date.parse(b.set);
			if (Number.isNaN(ms)) throw invalid('set', "The field 'set' must be an ISO 8601 date-time.");
			return ok(d.clock.set(ms));
		}
		if (typeof b.advanceMs !== 'number' || !Number.isFinite(b.advanceMs)) {
			throw invalid('advanceMs', "The field 'advanceMs' must be a number of milliseconds (or give 'set' as an ISO 8601 date-time).");
		}
		return ok(d.clock.advance(b.advanceMs));
	});

	add('POST', '/business', (ctx) => {
		const connected = optionalBoolean(body(ctx), 'connected');
		if (connected === undefined) throw invalid('connected', "The field 'connected' is required: true or false.");
		d.config.businessConnected = connected;
		return ok({ connected });
	});

	add('POST', '/events', (ctx) => ok(d.timeline.seedEvent(ctx.body), 201));
	add('GET', '/travellers', () => ok(d.timeline.travellers(d.timelineKeyIndex)));
	add('PATCH', '/events/:seed_id', (ctx) => ok(d.timeline.modifySeededEvent(ctx.params.seed_id, ctx.body)));
	add('DELETE', '/events/:seed_id', (ctx) => ok(d.timeline.removeSeededEvent(ctx.params.seed_id)));
	add('POST', '/anomalies', (ctx) => ok(d.timeline.addAnomaly(ctx.body), 201));
	add('DELETE', '/anomalies/:anomaly_id', (ctx) => ok(d.timeline.removeAnomaly(ctx.params.anomaly_id)));

	add('GET', '/faults', () => ok(d.faults.list()));
	add('POST', '/faults', (ctx) => ok(d.faults.add(ctx.body), 201));
	add('DELETE', '/faults', () => {
		d.faults.clear();
		return ok({ cleared: true });
	});
	add('DELETE', '/faults/:fault_id', (ctx) => ok(d.faults.remove(ctx.params.fault_id)));

	add('GET', '/requests', (ctx) => {
		const q = ctx.query;
		const filter: RequestFilter = {};
		if (typeof q.method === 'string') filter.method = q.method;
		if (typeof q.path === 'string') filter.path = q.path;
		if (typeof q.pathPrefix === 'string') filter.pathPrefix = q.pathPrefix;
		return ok(d.requestLog.list(filter));
	});
	add('DELETE', '/requests', () => {
		d.requestLog.clear();
		return ok({ cleared: true });
	});
	return r;
}

function updateConfig(config: SandboxConfig, b: JsonObject): SandboxConfig {
	if (b.timelinesListShape !== undefined) {
		if (b.timelinesListShape !== 'object' && b.timelinesListShape !== 'array') {
			throw invalid('timelinesListShape', "The field 'timelinesListShape' must be 'object' or 'array'.");
		}
		config.timelinesListShape = b.timelinesListShape;
	}
	config.repeatDeliveries = optionalInteger(b, 'repeatDeliveries', 0, 100) ?? config.repeatDeliveries;
	config.deliveryDelayMs = optionalInteger(b, 'deliveryDelayMs', 0, 600_000) ?? config.deliveryDelayMs;
	config.webhookTimeoutMs = optionalInteger(b, 'webhookTimeoutMs', 1, 600_000) ?? config.webhookTimeoutMs;
	config.businessConnected = optionalBoolean(b, 'businessConnected') ?? config.businessConnected;
	config.linkPreviews = optionalBoolean(b, 'linkPreviews') ?? config.linkPreviews;
	config.linkPreviewDelayMs = optionalInteger(b, 'linkPreviewDelayMs', 0, 600_000) ?? config.linkPreviewDelayMs;
	return { ...config };
}
