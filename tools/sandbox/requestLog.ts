/**
 * Log of every /v1 request, written before faults and authentication run so tests can
 * assert on what actually arrived. Credentials are masked, and any configured key is
 * scrubbed from every field (a key pasted into a body or query must not leak either).
 */
import { MASK, maskAuthorization } from './keys';
import type { RecordedRequest, RequestFilter } from './types';

/** Headers whose whole value is a credential. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'api-key']);
/** An answer's body is kept up to this many characters. */
const MAX_ANSWER_CHARS = 4000;

/** The log as the saved state holds it. */
export interface RequestLogSnapshot {
	entries: RecordedRequest[];
	nextId: number;
}

export class RequestLog {
	private entries: RecordedRequest[] = [];
	private nextId = 1;

	constructor(private readonly secrets: () => string[]) {}

	record(entry: Omit<RecordedRequest, 'id' | 'headers'> & { headers: Record<string, string | string[] | undefined> }): RecordedRequest {
		const headers: Record<string, string | string[]> = {};
		for (const [name, value] of Object.entries(entry.headers)) {
			if (value === undefined) continue;
			headers[name] = SECRET_HEADERS.has(name.toLowerCase())
				? Array.isArray(value)
					? value.map(maskAuthorization)
					: maskAuthorization(value)
				: value;
		}
		const recorded = this.scrub({ ...entry, id: this.nextId++, headers });
		this.entries.push(recorded);
		return recorded;
	}

	list(filter: RequestFilter = {}): RecordedRequest[] {
		const method = filter.method?.toUpperCase();
		return this.entries.filter(
			(e) =>
				(!method || e.method === method) &&
				(!filter.path || e.path === filter.path) &&
				(!filter.pathPrefix || e.path.startsWith(filter.pathPrefix)),
		);
	}

	clear(): void {
		this.entries = [];
	}

	/** Records the answer's body (scrubbed like the request), parsed when it is JSON. */
	answer(entry: RecordedRequest, body: string): void {
		let response: unknown = body;
		if (body.length > MAX_ANSWER_CHARS) response = `${body.slice(0, MAX_ANSWER_CHARS)}... [${body.length} characters]`;
		else {
			try {
				response = JSON.parse(body);
			} catch {
				// a text answer, or a JSON one cut short by a fault: kept as text
			}
		}
		const scrubbed = this.scrub({ ...entry, response });
		entry.response = scrubbed.response;
	}

	/** At most the latest `limit` requests. */
	snapshot(limit: number): RequestLogSnapshot {
		return structuredClone({ entries: this.entries.slice(-limit), nextId: this.nextId });
	}

	restore(saved: RequestLogSnapshot): void {
		const copy = structuredClone(saved);
		this.entries = copy.entries;
		this.nextId = copy.nextId;
	}

	/** Round-trips through JSON to replace key strings wherever they hide. */
	private scrub(entry: RecordedRequest): RecordedRequest {
		let text = JSON.stringify(entry);
		for (const secret of this.secrets()) {
			if (!secret) continue;
			text = text.split(JSON.stringify(secret).slice(1, -1)).join(MASK);
		}
		return JSON.parse(text) as RecordedRequest;
	}
}
