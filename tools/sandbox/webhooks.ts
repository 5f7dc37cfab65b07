/**
 * Outgoing webhooks. Deliveries run one after another on a single queue, so a receiver sees
 * `delivered` before `read`, and at-least-once repeats follow their original. A failing or
 * hanging receiver is recorded, never thrown: the sandbox must not crash because of it.
 */
import http from 'node:http';
import https from 'node:https';
import { HttpError } from './http';
import type { SandboxConfig, WebhookConfig, WebhookDelivery, WebhookPayload } from './types';
import { invalid, objectBody } from './validate';

/** The deliveries as the saved state holds them, with where webhooks go. */
export interface WebhookSnapshot {
	config: WebhookConfig;
	deliveries: WebhookDelivery[];
	nextId: number;
}

export class WebhookDispatcher {
	private config: WebhookConfig;
	private deliveries: WebhookDelivery[] = [];
	private queue: Promise<void> = Promise.resolve();
	private pending = 0;
	private nextId = 1;
	private readonly inflight = new Set<http.ClientRequest>();
	/** Bumped by reset/close so queued deliveries of an older generation are skipped. */
	private generation = 0;

	constructor(
		private readonly initial: WebhookConfig,
		private readonly settings: () => SandboxConfig,
		private readonly log: (line: string) => void,
		/** Called when a delivery has been made (or has failed). */
		private readonly changed: () => void = () => undefined,
	) {
		this.config = { url: initial.url, headers: { ...initial.headers } };
	}

	/** At most the latest `limit` deliveries. */
	snapshot(limit: number): WebhookSnapshot {
		return structuredClone({ config: this.config, deliveries: this.deliveries.slice(-limit), nextId: this.nextId });
	}

	restore(saved: WebhookSnapshot): void {
		this.reset();
		const copy = structuredClone(saved);
		this.config = copy.config;
		this.deliveries = copy.deliveries;
		this.nextId = copy.nextId;
	}

	/**
	 * Delivers a recorded delivery's payload once more, to where webhooks go now, as a service
	 * that delivers at least once may: the receiver must take it for the repeat it is.
	 */
	repeat(input: unknown): { deliveryId: number; eventType: string; attempt: number } {
		const id = objectBody(input).deliveryId;
		if (typeof id !== 'number' || !Number.isInteger(id)) throw invalid('deliveryId', "The field 'deliveryId' is required: the id of a recorded delivery (GET /_sandbox/webhooks/deliveries).");
		const original = this.deliveries.find((d) => d.id === id);
		if (!original) throw new HttpError(404, 'not_found', `No webhook delivery with id ${id} was recorded.`, 'deliveryId');
		const same = JSON.stringify(original.payload);
		const attempts = this.deliveries.filter((d) => JSON.stringify(d.payload) === same).length;
		this.enqueue(original.payload, attempts + 1);
		return { deliveryId: id, eventType: original.eventType, attempt: attempts + 1 };
	}

	getConfig(): WebhookConfig {
		return { url: this.config.url, headers: { ...this.config.headers } };
	}

	setConfig(url: string | null, headers: Record<string, string> = {}): WebhookConfig {
		this.config = { url, headers: { ...headers } };
		return this.getConfig();
	}

	/** Queues the payload once, plus `repeatDeliveries` identical copies. */
	emit(payload: WebhookPayload): void {
		const copies = 1 + this.settings().repeatDeliveries;
		for (let attempt = 1; attempt <= copies; attempt++) this.enqueue(payload, attempt);
	}

	list(): WebhookDelivery[] {
		return this.deliveries.map((d) => ({ ...d }));
	}

	/** Resolves once every queued delivery (including ones queued meanwhile) has finished. */
	async flush(): Promise<void> {
		while (this.pending > 0) await this.queue;
	}

	get pendingCount(): number {
		return this.pending;
	}

	/** Forgets deliveries and returns to the startup URL/headers; queued work is abandoned. */
	reset(): void {
		this.abort();
		this.deliveries = [];
		this.config = { url: this.initial.url, headers: { ...this.initial.headers } };
	}

	/** Abandons queued deliveries and cuts the ones in flight (used on reset and close). */
	abort(): void {
		this.generation++;
		for (const req of this.inflight) req.destroy(new Error('sandbox reset or closed'));
		this.inflight.clear();
	}

	private enqueue(payload: WebhookPayload, attempt: number): void {
		const generation = this.generation;
		// Snapshot the target now: a URL change later must not redirect an earlier event.
		const target = this.getConfig();
		this.pending++;
		this.queue = this.queue
			.then(() => (generation === this.generation ? this.deliver(payload, attempt, target) : undefined))
			.catch(() => undefined)
			.finally(() => {
				this.pending--;
			});
	}

	private async deliver(payload: WebhookPayload, attempt: number, target: WebhookConfig): Promise<void> {
		const headers = { ...target.headers, 'Content-Type': 'application/json' };
		const delivery: WebhookDelivery = {
			id: this.nextId++,
			eventType: payload.event_type,
			url: target.url,
			headers,
			payload,
			attempt,
			startedAt: new Date().toISOString(),
		};
		this.deliveries.push(delivery);
		if (!target.url) {
			delivery.error = 'No webhook URL configured; nothing was sent.';
		} else {
			try {
				delivery.status = await this.post(target.url, headers, JSON.stringify(payload));
			} catch (error) {
				delivery.error = error instanceof Error ? error.message : String(error);
			}
		}
		delivery.finishedAt = new Date().toISOString();
		this.changed();
		this.log(`webhook ${payload.event_type} #${attempt} -> ${target.url ?? '(none)'}: ${delivery.status ?? delivery.error}`);
	}

	private post(url: string, headers: Record<string, string>, body: string): Promise<number> {
		return new Promise((resolve, reject) => {
			let parsed: URL;
			try {
				parsed = new URL(url);
			} catch {
				reject(new Error(`Invalid webhook URL '${url}'.`));
				return;
			}
			const transport = parsed.protocol === 'https:' ? https : http;
			// agent: false => one connection per delivery, nothing kept alive after close().
			const req = transport.request(
				parsed,
				{ method: 'POST', agent: false, headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } },
				(res) => {
					res.resume();
					res.on('end', () => resolve(res.statusCode ?? 0));
					res.on('error', reject);
				},
			);
			this.inflight.add(req);
			req.setTimeout(this.settings().webhookTimeoutMs, () =>
				req.destroy(new Error(`Webhook receiver did not answer within ${this.settings().webhookTimeoutMs} ms.`)),
			);
			req.on('error', reject);
			req.on('close', () => this.inflight.delete(req));
			req.end(body);
		});
	}
}
