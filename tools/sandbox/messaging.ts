/**
 * Messaging emulator: POST /v1/messages and GET /v1/messages/{id}, templates, contacts,
 * the 24-hour window per customer, placeholders, the delivery lifecycle and its webhooks.
 * One account: every messaging key shares this state.
 */
import type { VirtualClock } from './clock';
import { HttpError, ok, type Reply, type Router } from './http';
import { fetchPreview, findLinks } from './linkPreviews';
import { newId } from './timeline';
import type {
	ContactFields,
	Conversation,
	InboundWebhookPayload,
	SandboxConfig,
	Service,
	StoredMessage,
	Template,
	TemplateCategory,
	TemplateSpec,
	TemplateStatus,
	WindowState,
} from './types';
import type { WebhookDispatcher } from './webhooks';
import { describe, invalid, isObject, objectBody, optionalBoolean, requiredString, type JsonObject } from './validate';

export const E164 = /^\+[1-9]\d{6,14}$/;
export const MESSAGE_TYPES = ['template', 'text', 'image', 'video', 'audio', 'file', 'location', 'custom'] as const;
type MessageType = (typeof MESSAGE_TYPES)[number];
const MEDIA_TYPES: readonly MessageType[] = ['image', 'video', 'audio', 'file'];
export const WINDOW_MS = 24 * 60 * 60 * 1000;

/** `{name}` or `{{name}}`; positional `{{1}}` is a template thing and is not matched. */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}|\{\s*([A-Za-z_][\w.-]*)\s*\}/g;

export const DEFAULT_TEMPLATES: TemplateSpec[] = [
	{ id: 'welcome_customer', status: 'approved', category: 'Utility', body: 'Hi {{1}}, welcome! We are glad to have you.', parameters: [{ name: 'customer name' }] },
	{
		id: 'order_update',
		status: 'approved',
		category: 'Utility',
		body: 'Hello {{1}}, your order {{2}} has been updated.',
		// A name holds a letter and an order number is digits, so swapped parameters fail.
		parameters: [
			{ name: 'customer name', pattern: '\\p{L}' },
			{ name: 'order number', pattern: '^#?[0-9]+$' },
		],
	},
	{
		id: 'event_alert',
		status: 'approved',
		category: 'Utility',
		body: 'Event alert at {{1}} on {{2}}: {{3}}',
		parameters: [{ name: 'location' }, { name: 'time' }, { name: 'description' }],
	},
	{
		id: 'appointment_reminder',
		status: 'approved',
		category: 'Utility',
		body: 'Hi {{1}}, this is a reminder of your appointment on {{2}}.',
		parameters: [{ name: 'customer name' }, { name: 'appointment time' }],
	},
	{ id: 'promo_pending', status: 'pending', category: 'Marketing', body: 'Hi {{1}}, our sale starts now!', parameters: [{ name: 'customer name' }] },
];

const TEMPLATE_STATUSES: readonly TemplateStatus[] = ['approved', 'pending', 'rejected'];
const CATEGORIES: readonly TemplateCategory[] = ['Marketing', 'Utility', 'Authentication'];

interface MessageRecord extends StoredMessage {
	deliveryTimer?: NodeJS.Timeout;
	settleDelivery?: () => void;
}

/** The account as the saved state holds it. */
export interface MessagingSnapshot {
	templates: Template[];
	contacts: Array<[phone: string, fields: ContactFields]>;
	conversations: Array<[phone: string, conversationId: string]>;
	/** Sandbox-clock milliseconds of each number's latest inbound message. */
	lastInbound: Array<[phone: string, ms: number]>;
	messages: StoredMessage[];
}

export class MessagingService {
	private templates = new Map<string, Template>();
	private contacts = new Map<string, ContactFields>();
	private conversations = new Map<string, string>();
	private lastInbound = new Map<string, number>();
	private messages = new Map<string, MessageRecord>();
	/** Scheduled `delivered` transitions, so flush() can wait for them. */
	private pendingDeliveries = new Set<Promise<void>>();
	/** Link previews being fetched, so settle() can wait for them. */
	private pendingPreviews = new Set<Promise<void>>();

	constructor(
		private readonly clock: VirtualClock,
		private readonly settings: () => SandboxConfig,
		private readonly webhooks: WebhookDispatcher,
		/** Called when something changes outside a request (a message delivered, a link previewed). */
		private readonly changed: () => void = () => undefined,
	) {
		this.reset();
	}

	snapshot(): MessagingSnapshot {
		return structuredClone({
			templates: [...this.templates.values()],
			contacts: [...this.contacts],
			conversations: [...this.conversations],
			lastInbound: [...this.lastInbound],
			messages: [...this.messages.values()].map(publicMessage),
		});
	}

	/** A message still `sent` when the state was saved is delivered after the usual delay. */
	restore(saved: MessagingSnapshot): void {
		this.reset();
		const copy = structuredClone(saved);
		this.templates = new Map(copy.templates.map((t) => [t.id, t]));
		this.contacts = new Map(copy.contacts);
		this.conversations = new Map(copy.conversations);
		this.lastInbound = new Map(copy.lastInbound);
		this.messages = new Map(copy.messages.map((m) => [m.message_id, m]));
		for (const message of this.messages.values()) if (message.direction === 'outbound' && message.status === 'sent') this.scheduleDelivery(message);
	}

	/**
	 * The phone's conversations: every contact and every number with a message, the most recent
	 * activity first (contacts without messages last, in the order they were stored).
	 */
	conversationList(): Conversation[] {
		const phones = [...this.contacts.keys()];
		for (const m of this.messages.values()) {
			const phone = (m.direction === 'outbound' ? m.to : m.from) as string;
			if (!phones.includes(phone)) phones.push(phone);
		}
		const conversations = phones.map((phone) => ({
			phone,
			fields: { ...(this.contacts.get(phone) ?? {}) },
			conversationId: this.conversations.get(phone) ?? null,
			window: this.windowState(phone),
			messages: this.list(phone),
		}));
		const latest = (c: Conversation) => (c.messages.length ? Date.parse(c.messages.at(-1)!.created_at) : Number.NEGATIVE_INFINITY);
		return conversations.sort((a, b) => latest(b) - latest(a));
	}

	reset(): void {
		this.cancelTimers();
		this.templates.clear();
		for (const t of DEFAULT_TEMPLATES) this.seedTemplate(t);
		this.contacts.clear();
		this.conversations.clear();
		this.lastInbound.clear();
		this.messages.clear();
	}

	/** Stops scheduled deliveries (reset and close); their waiters are released. */
	cancelTimers(): void {
		for (const message of this.messages.values()) {
			if (message.deliveryTimer) clearTimeout(message.deliveryTimer);
			message.deliveryTimer = undefined;
			message.settleDelivery?.();
		}
		this.pendingDeliveries.clear();
	}

	/** Waits until every scheduled `delivered` transition has happened and every link preview is fetched. */
	async settle(): Promise<void> {
		while (this.pendingDeliveries.size > 0 || this.pendingPreviews.size > 0) {
			await Promise.all([...this.pendingDeliveries, ...this.pendingPreviews]);
		}
	}

	/** Stored messages in the order they arrived, outbound and inbound; only those of `phone` when given. */
	list(phone?: string): StoredMessage[] {
		return [...this.messages.values()].filter((m) => phone === undefined || m.to === phone || m.from === phone).map(publicMessage);
	}

	routes(router: Router<Service>): void {
		router.add('POST', '/v1/messages', 'messaging', (ctx) => this.send(objectBody(ctx.body)));
		router.add('GET', '/v1/messages/:message_id', 'messaging', (ctx) => this.status(ctx.params.message_id));
	}

	// ---- control --------------------------------------------------------------------

	seedTemplate(input: unknown): Template {
		const body = objectBody(input);
		const id = requiredString(body, 'id');
		const status = (body.status ?? 'approved') as TemplateStatus;
		if (!TEMPLATE_STATUSES.includes(status)) throw invalid('status', `The field 'status' must be one of ${TEMPLATE_STATUSES.join(', ')}.`);
		const category = (body.category ?? 'Utility') as TemplateCategory;
		if (!CATEGORIES.includes(category)) throw invalid('category', `The field 'category' must be one of ${CATEGORIES.join(', ')}.`);
		const params = body.parameters;
		let parameters: Template['parameters'];
		if (typeof params === 'number' && Number.isInteger(params) && params >= 0) {
			parameters = Array.from({ length: params }, (_, i) => ({ name: `parameter ${i + 1}` }));
		} else if (Array.isArray(params) && params.every((p) => isObject(p) && typeof p.name === 'string')) {
			parameters = params.map((p) => ({ name: p.name as string, ...(typeof p.pattern === 'string' ? { pattern: p.pattern } : {}) }));
			for (const [i, p] of parameters.entries()) {
				if (p.pattern === undefined) continue;
				try {
					new RegExp(p.pattern, 'u');
				} catch {
					throw invalid(`parameters[${i}].pattern`, `The pattern of parameter ${i + 1} is not a valid regular expression.`);
				}
			}
		} else {
			throw invalid('parameters', "The field 'parameters' must be a count or an array of { name, pattern? }.");
		}
		const template: Template = {
			id,
			status,
			category,
			body: typeof body.body === 'string' ? body.body : parameters.map((_, i) => `{{${i + 1}}}`).join(' '),
			parameters,
		};
		this.templates.set(id, template);
		return template;
	}

	listTemplates(): Template[] {
		return [...this.templates.values()];
	}

	seedContact(input: unknown): { phone: string; fields: ContactFields } {
		const body = objectBody(input);
		const phone = e164(body, 'phone');
		const fields = body.fields ?? {};
		if (!isObject(fields) || !Object.values(fields).every(isPrimitive)) {
			throw invalid('fields', "The field 'fields' must be an object of strings, numbers or booleans.");
		}
		this.contacts.set(phone, { ...(fields as ContactFields) });
		return { phone, fields: { ...(fields as ContactFields) } };
	}

	/**
	 * A customer writes in: opens (or reopens) the window and emits `message.inbound`; with
	 * `history`, a message from before anyone listened: stored and the window opened, no webhook.
	 */
	inbound(input: unknown): InboundWebhookPayload {
		const body = objectBody(input);
		const from = this.customer(body, 'from');
		// A chat app sends no empty message.
		const text = requiredString(body, 'text', { what: 'what the customer writes' });
		// A message from before anyone listened (npm start's seeded one): kept, and no webhook.
		const history = optionalBoolean(body, 'history') ?? false;
		// One reading of the clock: the window closes 24 hours after the timestamp the payload carries.
		const nowMs = this.clock.nowMs();
		const now = new Date(nowMs).toISOString();
		const payload: InboundWebhookPayload = {
			event_type: 'message.inbound',
			message_id: newId('msg_in'),
			conversation_id: this.conversation(from),
			channel: 'chatapp',
			from,
			text,
			timestamp: now,
		};
		this.lastInbound.set(from, nowMs);
		this.messages.set(payload.message_id, {
			message_id: payload.message_id,
			conversation_id: payload.conversation_id,
			direction: 'inbound',
			to: null,
			from,
			message_type: 'text',
			status: 'received',
			timestamp: now,
			created_at: now,
			text,
			...(history ? { history } : {}),
		});
		if (!history) this.webhooks.emit(payload);
		return payload;
	}

	/** The recipient reads a message: `delivered` first if still pending, then `read`. */
	read(input: unknown): { message_id: string; status: string; changed: boolean } {
		const id = requiredString(objectBody(input), 'message_id');
		const message = this.outbound(id);
		if (message.status !== 'delivered' && message.status !== 'read') this.deliver(message);
		if (message.status === 'read') return { message_id: id, status: 'read', changed: false };
		this.changeStatus(message, 'read');
		return { message_id: id, status: 'read', changed: true };
	}

	stored(id: string): StoredMessage {
		const message = this.messages.get(id);
		if (!message) throw new HttpError(404, 'not_found', `No message with message_id '${id}' exists.`, 'message_id');
		return publicMessage(message);
	}

	windowState(phone: string): WindowState {
		const last = this.lastInbound.get(phone);
		const open = this.windowOpen(phone);
		return { phone, open, closesAt: last === undefined ? null : new Date(last + WINDOW_MS).toISOString() };
	}

	// ---- /v1 ------------------------------------------------------------------------

	private send(body: JsonObject): Reply {
		if (!this.settings().businessConnected) {
			throw new HttpError(
				403,
				'business_account_not_connected',
				'Business account not connected: connect a business account to the chat-app channel before sending messages.',
			);
		}
		const channel = body.channel;
		if (channel === undefined || channel === null || channel === '') throw invalid('channel', "The field 'channel' is required and must be 'chatapp'.");
		if (channel !== 'chatapp') throw invalid('channel', `The field 'channel' must be 'chatapp'; got ${describe(channel)}.`);
		const to = e164(body, 'to');
		const type = body.message_type;
		const typeList = MESSAGE_TYPES.map((t) => `'${t}'`).join(', ');
		if (type === undefined || type === null || type === '') throw invalid('message_type', `The field 'message_type' is required: one of ${typeList}.`);
		if (typeof type !== 'string' || !(MESSAGE_TYPES as readonly string[]).includes(type)) {
			throw invalid('message_type', `The field 'message_type' must be one of ${typeList}; got ${describe(type)}.`);
		}
		const messageType = type as MessageType;
		const injected = injectedFields(body);
		let text: string | undefined;
		let unresolved: string[] | undefined;
		let template: StoredMessage['template'];
		if (messageType === 'template') {
			const checked = this.checkTemplate(body.template);
			template = { id: checked.template.id, parameters: checked.parameters };
			text = checked.template.body.replace(/\{\{\s*(\d+)\s*\}\}/g, (all, n: string) => checked.parameters[Number(n) - 1] ?? all);
		} else {
			validateFreeForm(messageType, body);
			// Templates always pass; everything else needs the customer's open window.
			if (!this.windowOpen(to)) {
				throw new HttpError(
					422,
					'window_closed',
					`The 24-hour customer service window for ${to} is closed: free-form messages are allowed only within 24 hours of the customer's last inbound message. Send an approved template instead.`,
					'message_type',
				);
			}
			if (messageType === 'text') {
				const resolved = resolvePlaceholders(body.text as string, injected, this.contacts.get(to) ?? {});
				text = resolved.text;
				unresolved = resolved.unresolved;
			}
		}
		const now = this.clock.nowIso();
		const message: MessageRecord = {
			message_id: newId('msg'),
			conversation_id: this.conversation(to),
			direction: 'outbound',
			to,
			from: null,
			message_type: messageType,
			status: 'sent',
			timestamp: now,
			created_at: now,
			...(text !== undefined ? { text } : {}),
			...(unresolved !== undefined ? { unresolved_placeholders: unresolved } : {}),
			...(template ? { template } : {}),
			request: structuredClone(body),
			links: findLinks(text ?? ''),
		};
		this.messages.set(message.message_id, message);
		this.scheduleDelivery(message);
		if (this.settings().linkPreviews) this.previewLinks(message);
		return ok({ message_id: message.message_id, conversation_id: message.conversation_id });
	}

	private status(id: string): Reply {
		const m = this.outbound(id);
		return ok({
			message_id: m.message_id,
			conversation_id: m.conversation_id,
			to: m.to,
			message_type: m.message_type,
			status: m.status,
			timestamp: m.timestamp,
			...(m.text !== undefined ? { text: m.text } : {}),
		});
	}

	private checkTemplate(value: unknown): { template: Template; parameters: string[] } {
		if (!isObject(value)) throw invalid('template', "The field 'template' is required for message_type 'template': an object with 'id' and 'parameters'.");
		const id = requiredString(value, 'id', { parent: 'template', what: 'the template identifier' });
		const params = value.parameters ?? [];
		if (!Array.isArray(params)) throw invalid('template.parameters', "The field 'template.parameters' must be an array of strings, in the order of the template's placeholders.");
		params.forEach((p, i) => {
			if (typeof p !== 'string') throw invalid(`template.parameters[${i}]`, `Template parameter {{${i + 1}}} must be a string; got ${describe(p)}.`);
		});
		const template = this.templates.get(id);
		if (!template) throw new HttpError(422, 'template_not_found', `The template '${id}' does not exist in this account.`, 'template.id');
		if (template.status !== 'approved') {
			throw new HttpError(422, 'template_not_approved', `The template '${id}' is not approved (status: ${template.status}); only approved templates can be sent.`, 'template.id');
		}
		const values = params as string[];
		const expected = template.parameters;
		const names = expected.map((p, i) => `{{${i + 1}}} ${p.name}`).join(', ');
		const paramError = (message: string) => new HttpError(422, 'template_parameters', message, 'template.parameters');
		if (values.length < expected.length) {
			const i = values.length;
			throw paramError(`Template '${id}' expects ${expected.length} parameter(s) in this order: ${names}; got ${values.length}. Parameter {{${i + 1}}} (${expected[i].name}) is missing.`);
		}
		if (values.length > expected.length) {
			throw paramError(`Template '${id}' expects ${expected.length} parameter(s) in this order: ${names}; got ${values.length}. Parameter {{${expected.length + 1}}} is extra.`);
		}
		values.forEach((v, i) => {
			const spec = expected[i];
			if (v.trim() === '') throw paramError(`Template '${id}' parameter {{${i + 1}}} (${spec.name}) is empty.`);
			if (spec.pattern && !new RegExp(spec.pattern, 'u').test(v)) {
				throw paramError(
					`Template '${id}' parameter {{${i + 1}}} (${spec.name}) does not look like a ${spec.name}: ${describe(v)}. Parameters may be missing or out of order; expected order: ${names}.`,
				);
			}
		});
		return { template, parameters: values };
	}

	// ---- lifecycle ------------------------------------------------------------------

	/** The preview bot: every link of the message, one after the other, right after it is accepted. */
	private previewLinks(message: MessageRecord): void {
		message.previews = [];
		const delayMs = this.settings().linkPreviewDelayMs;
		const fetching = (async () => {
			if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
			for (const link of message.links ?? []) message.previews!.push(await fetchPreview(link));
			this.changed();
		})();
		const tracked = fetching.finally(() => this.pendingPreviews.delete(tracked));
		this.pendingPreviews.add(tracked);
	}

	private scheduleDelivery(message: MessageRecord): void {
		let settle!: () => void;
		const done = new Promise<void>((resolve) => (settle = resolve));
		const wrapped = done.finally(() => this.pendingDeliveries.delete(wrapped));
		this.pendingDeliveries.add(wrapped);
		message.settleDelivery = () => {
			message.settleDelivery = undefined;
			settle();
		};
		message.deliveryTimer = setTimeout(() => this.deliver(message), this.settings().deliveryDelayMs);
	}

	private deliver(message: MessageRecord): void {
		if (message.deliveryTimer) clearTimeout(message.deliveryTimer);
		message.deliveryTimer = undefined;
		if (message.status === 'sent') this.changeStatus(message, 'delivered');
		message.settleDelivery?.();
	}

	/** Every status change emits one `message.status` webhook with exactly the documented fields. */
	private changeStatus(message: MessageRecord, status: string): void {
		message.status = status;
		message.timestamp = this.clock.nowIso();
		this.webhooks.emit({
			event_type: 'message.status',
			message_id: message.message_id,
			conversation_id: message.conversation_id,
			channel: 'chatapp',
			to: message.to as string,
			status,
			timestamp: message.timestamp,
		});
		this.changed();
	}

	// ---- helpers --------------------------------------------------------------------

	/** A customer by E.164 number, or by a contact's `first_name` or `name` (any case). */
	private customer(body: JsonObject, field: string): string {
		const value = body[field];
		if (typeof value !== 'string' || value === '' || /^[+\d\s()-]+$/.test(value)) return e164(body, field);
		const wanted = value.trim().toLowerCase();
		const found = [...this.contacts].find(([, fields]) => [fields.first_name, fields.name].some((n) => typeof n === 'string' && n.toLowerCase() === wanted));
		if (found) return found[0];
		const names = [...this.contacts.values()].map((f) => f.first_name ?? f.name).filter((n) => typeof n === 'string');
		throw invalid(
			field,
			`No contact named ${describe(value)}: give an E.164 number such as +14155550123${names.length ? `, or the name of a contact: ${names.join(', ')}` : ''}.`,
		);
	}

	private outbound(id: string): MessageRecord {
		const message = this.messages.get(id);
		if (!message || message.direction !== 'outbound') {
			throw new HttpError(404, 'not_found', `No message with message_id '${id}' exists.`, 'message_id');
		}
		return message;
	}

	private conversation(phone: string): string {
		let id = this.conversations.get(phone);
		if (!id) {
			id = newId('conv');
			this.conversations.set(phone, id);
		}
		return id;
	}

	/** Open for 24 sandbox hours after the latest inbound message; closed at exactly 24 h. */
	private windowOpen(phone: string): boolean {
		const last = this.lastInbound.get(phone);
		return last !== undefined && this.clock.nowMs() - last < WINDOW_MS;
	}
}

function isPrimitive(v: unknown): boolean {
	return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

function e164(body: JsonObject, field: string): string {
	const value = body[field];
	const hint = 'an E.164 number: a leading +, the country code and the number, digits only, such as +14155550123';
	if (value === undefined || value === null || value === '') throw invalid(field, `The field '${field}' is required: ${hint}.`);
	if (typeof value !== 'string' || !E164.test(value)) throw invalid(field, `The field '${field}' must be ${hint}; got ${describe(value)}.`);
	return value;
}

function injectedFields(body: JsonObject): ContactFields {
	const value = body.injected_fields;
	if (value === undefined || value === null) return {};
	if (!isObject(value)) throw invalid('injected_fields', "The field 'injected_fields' must be an object mapping placeholder names to values.");
	for (const [name, v] of Object.entries(value)) {
		if (!isPrimitive(v)) throw invalid(`injected_fields.${name}`, `The injected field '${name}' must be a string, number or boolean; got ${describe(v)}.`);
	}
	return value as ContactFields;
}

/** Checks the object that goes with a free-form message_type. */
function validateFreeForm(type: MessageType, body: JsonObject): void {
	if (type === 'text') {
		const text = body.text;
		if (typeof text !== 'string' || text.trim() === '') {
			throw invalid('text', `The field 'text' is required for message_type 'text': a non-empty string${text === undefined ? '' : `; got ${describe(text)}`}.`);
		}
		return;
	}
	if (MEDIA_TYPES.includes(type)) {
		const media = body[type];
		if (!isObject(media)) throw invalid(type, `The field '${type}' is required for message_type '${type}': an object with 'url'.`);
		const url = requiredString(media, 'url', { parent: type, what: 'an http or https URL' });
		let parsed: URL | undefined;
		try {
			parsed = new URL(url);
		} catch {
			parsed = undefined;
		}
		if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
			throw invalid(`${type}.url`, `The field '${type}.url' must be an http or https URL; got ${describe(url)}.`);
		}
		return;
	}
	if (type === 'location') {
		const loc = body.location;
		if (!isObject(loc)) throw invalid('location', "The field 'location' is required for message_type 'location': an object with 'latitude', 'longitude', 'name' and 'address'.");
		coordinate(loc, 'latitude', 90);
		coordinate(loc, 'longitude', 180);
		for (const key of ['name', 'address']) {
			if (loc[key] !== undefined && loc[key] !== null && typeof loc[key] !== 'string') {
				throw invalid(`location.${key}`, `The field 'location.${key}' must be a string; got ${describe(loc[key])}.`);
			}
		}
		if (loc.live !== undefined && loc.live !== false) {
			throw invalid('location.live', 'Live locations are not supported: send a static location (latitude, longitude, name, address).');
		}
		return;
	}
	// custom: any JSON object, passed through unchanged.
	if (!isObject(body.custom)) throw invalid('custom', `The field 'custom' is required for message_type 'custom': a JSON object${body.custom === undefined ? '' : `; got ${describe(body.custom)}`}.`);
}

function coordinate(loc: JsonObject, key: 'latitude' | 'longitude', limit: number): void {
	const v = loc[key];
	if (typeof v !== 'number' || !Number.isFinite(v) || v < -limit || v > limit) {
		throw invalid(`location.${key}`, `The field 'location.${key}' must be a number from -${limit} to ${limit}; got ${v === undefined ? 'nothing' : describe(v)}.`);
	}
}

/** injected_fields win over the contact's stored fields; unknown names stay as written. */
export function resolvePlaceholders(text: string, injected: ContactFields, contact: ContactFields): { text: string; unresolved: string[] } {
	const unresolved: string[] = [];
	const resolved = text.replace(PLACEHOLDER, (all, doubled: string | undefined, single: string | undefined) => {
		const name = (doubled ?? single) as string;
		const value = Object.prototype.hasOwnProperty.call(injected, name)
			? injected[name]
			: Object.prototype.hasOwnProperty.call(contact, name)
				? contact[name]
				: undefined;
		if (value === undefined) {
			if (!unresolved.includes(name)) unresolved.push(name);
			return all;
		}
		return String(value);
	});
	return { text: resolved, unresolved };
}

function publicMessage(m: MessageRecord): StoredMessage {
	const copy: Partial<MessageRecord> = { ...m };
	delete copy.deliveryTimer;
	delete copy.settleDelivery;
	return structuredClone(copy) as StoredMessage;
}
