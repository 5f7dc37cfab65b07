/**
 * Public types of the sandbox: shared by the server modules and by SandboxClient, so tests
 * and the server agree on every control-surface shape. Control-surface JSON is camelCase
 * (it is ours); the emulated /v1 APIs keep the services' snake_case.
 */

export type Service = 'timeline' | 'messaging';

/** One /v1 request as it arrived. The credential is masked and no key appears anywhere. */
export interface RecordedRequest {
	id: number;
	/** Wall-clock time of arrival, ISO 8601. */
	time: string;
	/** Sandbox (virtual clock) time of arrival, ISO 8601. */
	sandboxTime: string;
	method: string;
	/** Path as received, without the query string (not URL-decoded). */
	path: string;
	query: Record<string, string | string[]>;
	/** Lower-cased header names; Authorization becomes `Bearer ****`. */
	headers: Record<string, string | string[]>;
	/** Parsed JSON when the body is JSON, the raw text otherwise, null when empty. */
	body: unknown;
	service: Service | null;
	/** Status code the sandbox answered with (absent until answered, or when dropped). */
	responseStatus?: number;
	/** Kind of injected fault applied to this request, if any. */
	fault?: FaultKind;
	/** The answer's body (parsed JSON, else its text, cut after 4,000 characters); absent until answered, or when dropped. */
	response?: unknown;
}

export interface RequestFilter {
	method?: string;
	/** Exact path match. */
	path?: string;
	/** Path prefix match. */
	pathPrefix?: string;
}

export type FaultKind = 'status' | 'delay' | 'malformed' | 'drop';

/**
 * A fault applied to the next matching /v1 requests, before authentication. Match on
 * `method` (any when absent) and `path` (exact) or `pathPrefix` (any path when both absent), and
 * optionally `query` and `bodyContains`.
 */
export interface FaultSpec {
	kind: FaultKind;
	method?: string;
	path?: string;
	pathPrefix?: string;
	/** Query parameters the request must carry, each with this exact value. */
	query?: Record<string, string>;
	/** Text the request's body must contain, as sent (one customer's send among others, say). */
	bodyContains?: string;
	/** How many times the fault fires. Default 1; unlimited when `everyNth` is set without it. */
	count?: number;
	/** Fire on every k-th matching request only (10 => 10 %), for soak tests. */
	everyNth?: number;
	/** kind 'status': the status code to answer (default 503). */
	status?: number;
	/** kind 'status': value of the Retry-After header (seconds or an HTTP date). */
	retryAfter?: number | string;
	/** kind 'status': the JSON body (default: an error body with code rate_limited / service_unavailable / injected_fault). */
	body?: unknown;
	/**
	 * kind 'status': a body sent verbatim instead of JSON, as `text/plain` (a `Content-Type` in
	 * `headers` wins); `''` answers with no body and no `Content-Type`. Takes precedence over `body`.
	 */
	bodyText?: string;
	/** kind 'status': extra response headers. */
	headers?: Record<string, string>;
	/** Wait this long first. For kind 'delay' the request is then answered normally. */
	delayMs?: number;
}

export interface FaultState extends FaultSpec {
	faultId: string;
	/** Matching requests seen so far. */
	seen: number;
	/** Times it fired so far. */
	fired: number;
}

export type TemplateStatus = 'approved' | 'pending' | 'rejected';
export type TemplateCategory = 'Marketing' | 'Utility' | 'Authentication';

export interface TemplateParameterSpec {
	/** What the parameter holds, used in error messages ("order number"). */
	name: string;
	/** Optional regular expression (unicode flag) the value must match. */
	pattern?: string;
}

export interface TemplateSpec {
	id: string;
	status?: TemplateStatus;
	category?: TemplateCategory;
	/** Text with positional placeholders {{1}}, {{2}} ...; used to render the stored text. */
	body?: string;
	/** A count, or one spec per positional placeholder. */
	parameters: number | TemplateParameterSpec[];
}

export interface Template {
	id: string;
	status: TemplateStatus;
	category: TemplateCategory;
	body: string;
	parameters: TemplateParameterSpec[];
}

export type ContactFields = Record<string, string | number | boolean>;

export interface StatusWebhookPayload {
	event_type: 'message.status';
	message_id: string;
	conversation_id: string;
	channel: 'chatapp';
	to: string;
	status: string;
	timestamp: string;
}

export interface InboundWebhookPayload {
	event_type: 'message.inbound';
	message_id: string;
	conversation_id: string;
	channel: 'chatapp';
	from: string;
	text: string;
	timestamp: string;
}

export type WebhookPayload = StatusWebhookPayload | InboundWebhookPayload;

export interface WebhookDelivery {
	id: number;
	eventType: string;
	/** null when no webhook URL was configured (the delivery is recorded, nothing is sent). */
	url: string | null;
	/** Headers sent (configured extra headers plus Content-Type). */
	headers: Record<string, string>;
	payload: WebhookPayload;
	/** 1 for the first delivery, 2.. for at-least-once repeats of the same payload. */
	attempt: number;
	/** Status code the receiver answered with. */
	status?: number;
	/** Why the delivery failed (connection refused, timeout, no URL configured). */
	error?: string;
	startedAt: string;
	finishedAt?: string;
}

export interface SandboxConfig {
	/** Shape of GET /v1/timelines: `{"timelines":[...]}` ('object') or a bare array ('array'). */
	timelinesListShape: 'object' | 'array';
	/** Extra deliveries of every webhook (at-least-once simulation). 0 = deliver once. */
	repeatDeliveries: number;
	/** Real milliseconds between a send and its `delivered` status. */
	deliveryDelayMs: number;
	/** Real milliseconds a webhook receiver gets to answer. */
	webhookTimeoutMs: number;
	businessConnected: boolean;
	/** Fetch (GET) every http(s) link in each accepted message, as a chat app's link-preview bot does. */
	linkPreviews: boolean;
	/** Real milliseconds between accepting a message and the bot's first fetch (a chat app draws the preview when the message reaches the phone). */
	linkPreviewDelayMs: number;
}

export interface WebhookConfig {
	url: string | null;
	headers: Record<string, string>;
}

export interface SeededEventInput {
	location: string;
	time: string;
	description: string;
}

/** An event the sandbox lists at a location for every key; `seed_id` is for changing it later. */
export interface SeededEvent extends SeededEventInput {
	seed_id: string;
}

/** A message as the sandbox stores it (GET /_sandbox/messages/{id}). */
export interface StoredMessage {
	message_id: string;
	conversation_id: string;
	direction: 'outbound' | 'inbound';
	to: string | null;
	from: string | null;
	message_type: string;
	status: string;
	/** Time of the latest status change (sandbox clock). */
	timestamp: string;
	created_at: string;
	/** Resolved text (text messages), rendered template text, or the inbound text. */
	text?: string;
	/** Placeholders left unresolved in `text`. */
	unresolved_placeholders?: string[];
	template?: { id: string; parameters: string[] };
	/** The send request body exactly as received (unknown fields included). */
	request?: Record<string, unknown>;
	/** An inbound message seeded as history (POST /_sandbox/inbound with `history`): no webhook was sent for it. */
	history?: true;
	/** The http(s) links in `text`, in order (outbound messages). */
	links?: string[];
	/** What the link-preview bot fetched, one entry per link (with the setting `linkPreviews`). */
	previews?: LinkPreview[];
}

/** One fetch of a link by the sandbox's link-preview bot. */
export interface LinkPreview {
	url: string;
	userAgent: string;
	startedAt: string;
	finishedAt?: string;
	/** The status the link answered with (redirects are not followed). */
	status?: number;
	contentType?: string;
	/** The page's <title>, as a preview card would show it. */
	title?: string;
	/** Why the fetch failed (connection refused, timeout). */
	error?: string;
}

export interface MessageFilter {
	/** Only messages to (or from) this number. */
	phone?: string;
	/** Wait until the link-preview bot has finished with every message first (default true). */
	wait?: boolean;
}

/** A key's traveller as GET /_sandbox/travellers shows it (the key by its place in the accepted timeline keys). */
export interface TravellerState {
	keyIndex: number;
	paused: boolean;
	/** The traveller's current time (ISO 8601): the frozen moment while paused. */
	currentTime: string;
	location: string;
	timelineId: string | null;
}

/** An anomaly as GET /v1/monitor-timeline lists it. */
export interface Anomaly {
	anomaly_id: string;
	type: 'rewind' | 'paradox';
	/** The moment the anomaly touches. */
	time: string;
	description: string;
	detected_at: string;
}

/** A conversation as the page's phone shows it: one per contact and per number with messages. */
export interface Conversation {
	phone: string;
	/** The contact's stored fields ({} for a number that is not a contact). */
	fields: ContactFields;
	conversationId: string | null;
	window: WindowState;
	/** Outbound and inbound, in arrival order. */
	messages: StoredMessage[];
}

export interface WindowState {
	phone: string;
	open: boolean;
	closesAt: string | null;
}

export interface ClockState {
	now: string;
	offsetMs: number;
}
