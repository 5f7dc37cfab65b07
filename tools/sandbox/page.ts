/**
 * The sandbox's page (GET /): a customer's phone, the timeline, faults and the request log, live.
 * Plain HTML, CSS and JavaScript from page/, no build step. The page reads one view of the whole
 * sandbox (GET /_sandbox/view), kept current by server-sent events (GET /_sandbox/stream: the
 * view again a moment after each change), and acts only through the control endpoints that
 * tests and curl use, so it checks nothing the sandbox does not check itself.
 */
import * as fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as path from 'node:path';

import type { VirtualClock } from './clock';
import type { FaultRegistry } from './faults';
import { HttpError, sendText } from './http';
import type { MessagingService } from './messaging';
import type { RequestLog } from './requestLog';
import type { LocatedEvent, TimelineService, WorldView } from './timeline';
import type { Tour, TourView } from './tour';
import type { Conversation, FaultState, RecordedRequest, WebhookDelivery } from './types';
import type { WebhookDispatcher } from './webhooks';

/** The page shows the latest this many requests and webhook deliveries. */
const SHOWN = 200;
const PUSH_AFTER_MS = 150;
const HEARTBEAT_MS = 20_000;

const FILES: Record<string, { file: string; type: string }> = {
	'/': { file: 'index.html', type: 'text/html; charset=utf-8' },
	'/_sandbox/page/page.css': { file: 'page.css', type: 'text/css; charset=utf-8' },
	'/_sandbox/page/page.js': { file: 'page.js', type: 'text/javascript; charset=utf-8' },
};

export interface PageView {
	/** Sandbox time. */
	now: string;
	/** Where the world is kept between runs (null: in memory only). */
	stateFile: string | null;
	webhook: { url: string | null; headerNames: string[] };
	conversations: Conversation[];
	locations: Array<{ location: string; events: LocatedEvent[] }>;
	worlds: WorldView[];
	faults: FaultState[];
	/** Newest first. */
	requests: RecordedRequest[];
	/** Newest first. */
	deliveries: WebhookDelivery[];
	/** The "start here" steps (npm start's), or null. */
	tour: TourView | null;
}

export interface PageDeps {
	clock: VirtualClock;
	timeline: TimelineService;
	messaging: MessagingService;
	webhooks: WebhookDispatcher;
	faults: FaultRegistry;
	requestLog: RequestLog;
	timelineKeyIndex: (key: string) => number;
	stateFile: string | null;
	tour?: Tour;
}

export function pageView(d: PageDeps): PageView {
	const locations = new Map<string, { location: string; events: LocatedEvent[] }>();
	for (const event of d.timeline.locatedEvents()) {
		const key = event.location.trim().toLowerCase();
		if (!locations.has(key)) locations.set(key, { location: event.location.trim(), events: [] });
		locations.get(key)!.events.push(event);
	}
	const webhook = d.webhooks.getConfig();
	return {
		now: d.clock.nowIso(),
		stateFile: d.stateFile,
		webhook: { url: webhook.url, headerNames: Object.keys(webhook.headers) },
		conversations: d.messaging.conversationList(),
		locations: [...locations.values()],
		worlds: d.timeline.worldViews(d.timelineKeyIndex),
		faults: d.faults.list(),
		requests: d.requestLog.list().slice(-SHOWN).reverse(),
		deliveries: d.webhooks.list().slice(-SHOWN).reverse(),
		tour: d.tour?.view() ?? null,
	};
}

/** The pages' event streams: each gets the view when it connects and a moment after every change. */
export class LiveView {
	private readonly streams = new Set<ServerResponse>();
	private timer?: NodeJS.Timeout;
	private readonly heartbeat: NodeJS.Timeout;

	constructor(readonly view: () => PageView) {
		// A comment line now and then, so a stream that died unnoticed is found and dropped.
		this.heartbeat = setInterval(() => {
			for (const res of this.streams) res.write(': still here\n\n');
		}, HEARTBEAT_MS);
		this.heartbeat.unref();
	}

	subscribe(req: IncomingMessage, res: ServerResponse): void {
		res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
		res.write('retry: 1000\n\n');
		this.send(res, JSON.stringify(this.view()));
		this.streams.add(res);
		req.on('close', () => this.streams.delete(res));
	}

	changed(): void {
		if (this.timer || this.streams.size === 0) return;
		this.timer = setTimeout(() => {
			this.timer = undefined;
			const json = JSON.stringify(this.view());
			for (const res of this.streams) this.send(res, json);
		}, PUSH_AFTER_MS);
		this.timer.unref();
	}

	close(): void {
		clearInterval(this.heartbeat);
		if (this.timer) clearTimeout(this.timer);
		for (const res of this.streams) res.end();
		this.streams.clear();
	}

	private send(res: ServerResponse, json: string): void {
		res.write(`event: view\ndata: ${json}\n\n`);
	}
}

/** Whether a GET is for the page itself (its files); the stream and the view are control paths. */
export function isPageFile(method: string, urlPath: string): boolean {
	return method === 'GET' && urlPath in FILES;
}

/** The page's files, read on each request (edit and reload, no restart). */
export function sendPageFile(res: ServerResponse, urlPath: string): void {
	const entry = FILES[urlPath];
	if (!entry) throw new HttpError(404, 'not_found', `No page file at ${urlPath}.`);
	const text = fs.readFileSync(path.join(__dirname, 'page', entry.file), 'utf8');
	sendText(res, 200, text, {
		'Content-Type': entry.type,
		'Cache-Control': 'no-store',
		// Everything from the sandbox itself; pictures of image messages may come from anywhere.
		'Content-Security-Policy': "default-src 'self'; img-src * data:; style-src 'self'; frame-ancestors 'none'",
		'X-Content-Type-Options': 'nosniff',
	});
}
