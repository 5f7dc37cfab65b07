/**
 * Typed wrapper of the sandbox control surface (/_sandbox/...). Control calls are test
 * set-up, so any non-2xx answer throws with the sandbox's error message.
 */
import axios, { type AxiosInstance } from 'axios';
import http from 'node:http';
import type { PageView } from './page';
import type {
	Anomaly,
	ClockState,
	ContactFields,
	FaultSpec,
	FaultState,
	InboundWebhookPayload,
	MessageFilter,
	RecordedRequest,
	RequestFilter,
	SandboxConfig,
	SeededEvent,
	SeededEventInput,
	StoredMessage,
	Template,
	TemplateSpec,
	TravellerState,
	WebhookConfig,
	WebhookDelivery,
} from './types';

export type * from './types';

/** A recorded send's template parameters, or none when it sent no template (a text, a media…). */
export function templateParametersOf(request: RecordedRequest): string[] {
	const template = (request.body as { template?: { parameters?: unknown } } | undefined)?.template;
	return Array.isArray(template?.parameters) ? template.parameters.map(String) : [];
}

export class SandboxClient {
	private readonly http: AxiosInstance;

	/** @param baseUrl the sandbox URL, e.g. http://127.0.0.1:4010 */
	constructor(readonly baseUrl: string) {
		this.http = axios.create({
			baseURL: `${baseUrl.replace(/\/+$/, '')}/_sandbox`,
			validateStatus: () => true,
			// No keep-alive: nothing left open when a test file finishes.
			httpAgent: new http.Agent({ keepAlive: false }),
			proxy: false,
		});
	}

	/** Back to the startup state: data, config, webhook URL, clock, faults and log. */
	async reset(): Promise<void> {
		await this.call('POST', '/reset');
	}

	async config(): Promise<SandboxConfig> {
		return this.call('GET', '/config');
	}

	async configure(changes: Partial<SandboxConfig>): Promise<SandboxConfig> {
		return this.call('POST', '/config', changes);
	}

	async setRepeatDeliveries(n: number): Promise<SandboxConfig> {
		return this.configure({ repeatDeliveries: n });
	}

	async setWebhook(url: string | null, headers: Record<string, string> = {}): Promise<WebhookConfig> {
		return this.call('POST', '/webhook', { url, headers });
	}

	async webhook(): Promise<WebhookConfig> {
		return this.call('GET', '/webhook');
	}

	/** Waits for scheduled deliveries and the webhook queue, then lists all deliveries. */
	async flushWebhooks(): Promise<WebhookDelivery[]> {
		return this.call('POST', '/webhooks/flush');
	}

	/** Deliveries so far; with `wait` (the default) pending ones finish first. */
	async webhookDeliveries(options: { wait?: boolean } = {}): Promise<WebhookDelivery[]> {
		return this.call('GET', `/webhooks/deliveries${options.wait === false ? '' : '?wait=1'}`);
	}

	async seedTemplate(template: TemplateSpec): Promise<Template> {
		return this.call('POST', '/templates', template);
	}

	async templates(): Promise<Template[]> {
		return this.call('GET', '/templates');
	}

	async seedContact(phone: string, fields: ContactFields): Promise<{ phone: string; fields: ContactFields }> {
		return this.call('POST', '/contacts', { phone, fields });
	}

	/**
	 * The customer writes in: opens their 24-hour window and emits `message.inbound` (with
	 * `history`, no webhook: a message from before anyone listened).
	 */
	async inbound(from: string, text: string, options: { history?: boolean } = {}): Promise<InboundWebhookPayload> {
		return this.call('POST', '/inbound', { from, text, ...options });
	}

	/** The recipient reads the message: emits a `read` status webhook. */
	async read(messageId: string): Promise<{ message_id: string; status: string; changed: boolean }> {
		return this.call('POST', '/read', { message_id: messageId });
	}

	/**
	 * Stored messages (outbound and inbound) in arrival order, with their links and what the
	 * link-preview bot fetched; by default once the bot has finished.
	 */
	async messages(filter: MessageFilter = {}): Promise<StoredMessage[]> {
		const query = new URLSearchParams();
		if (filter.phone) query.set('phone', filter.phone);
		if (filter.wait === false) query.set('wait', '0');
		return this.call('GET', `/messages${query.size ? `?${query}` : ''}`);
	}

	/** A message as stored, including the resolved text and the original request. */
	async message(messageId: string): Promise<StoredMessage> {
		return this.call('GET', `/messages/${encodeURIComponent(messageId)}`);
	}

	async window(phone: string): Promise<{ phone: string; open: boolean; closesAt: string | null }> {
		return this.call('GET', `/window/${encodeURIComponent(phone)}`);
	}

	async advanceClock(ms: number): Promise<ClockState> {
		return this.call('POST', '/clock', { advanceMs: ms });
	}

	async setClock(iso: string): Promise<ClockState> {
		return this.call('POST', '/clock', { set: iso });
	}

	/** Sandbox time (ISO 8601). */
	async now(): Promise<string> {
		return (await this.call<ClockState>('GET', '/clock')).now;
	}

	async setBusinessConnected(connected: boolean): Promise<void> {
		await this.call('POST', '/business', { connected });
	}

	async injectFault(fault: FaultSpec): Promise<FaultState> {
		return this.call('POST', '/faults', fault);
	}

	async faults(): Promise<FaultState[]> {
		return this.call('GET', '/faults');
	}

	async clearFaults(): Promise<void> {
		await this.call('DELETE', '/faults');
	}

	async requests(filter: RequestFilter = {}): Promise<RecordedRequest[]> {
		return this.call('GET', '/requests', undefined, filter);
	}

	async clearRequests(): Promise<void> {
		await this.call('DELETE', '/requests');
	}

	/** Each timeline key's traveller (paused, current time, location, timeline), keys by index. */
	async travellers(): Promise<TravellerState[]> {
		return this.call('GET', '/travellers');
	}

	async seedEvent(event: SeededEventInput): Promise<SeededEvent> {
		return this.call('POST', '/events', event);
	}

	/** Changes a seeded event (time, description or location), as a time traveller might. */
	async modifySeededEvent(seedId: string, changes: Partial<SeededEventInput>): Promise<SeededEvent> {
		return this.call('PATCH', `/events/${encodeURIComponent(seedId)}`, changes);
	}

	async removeSeededEvent(seedId: string): Promise<SeededEvent> {
		return this.call('DELETE', `/events/${encodeURIComponent(seedId)}`);
	}

	/** An anomaly in a timeline, as if the service had detected it (type default paradox, time default now). */
	async addAnomaly(anomaly: { timelineId: string; description: string; type?: Anomaly['type']; time?: string }): Promise<Anomaly> {
		return this.call('POST', '/anomalies', anomaly);
	}

	async removeAnomaly(anomalyId: string): Promise<Anomaly> {
		return this.call('DELETE', `/anomalies/${encodeURIComponent(anomalyId)}`);
	}

	/** Delivers a recorded webhook delivery's payload once more (a repeat). */
	async repeatDelivery(deliveryId: number): Promise<{ deliveryId: number; eventType: string; attempt: number }> {
		return this.call('POST', '/webhooks/repeat', { deliveryId });
	}

	async removeFault(faultId: string): Promise<FaultState> {
		return this.call('DELETE', `/faults/${encodeURIComponent(faultId)}`);
	}

	/** Everything the sandbox's page shows (its conversations, locations, timelines, faults, the latest requests and deliveries). */
	async view(): Promise<PageView> {
		return this.call('GET', '/view');
	}

	private async call<T>(method: string, path: string, data?: unknown, params?: object): Promise<T> {
		const res = await this.http.request({ method, url: path, data, params });
		if (res.status < 200 || res.status >= 300) {
			const message = res.data?.error?.message ?? JSON.stringify(res.data);
			throw new Error(`Sandbox control ${method} ${path} failed with ${res.status}: ${message}`);
		}
		return res.data as T;
	}
}
