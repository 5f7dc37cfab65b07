// The one way the nodes talk to a service: n8n's authenticated request helper with the run's
// credential, 429 retried after Retry-After, and every failure turned into a ServiceError
// carrying the status and the service's own words.
import {
	sleep,
	type Failure as Cause,
	type IDataObject,
	type IHttpRequestMethods,
	type IHttpRequestOptions,
	type IN8nHttpFullResponse,
} from 'n8n-workflow';
import { type ServiceError, serviceFailure } from './errors';
import type { Execution } from './execution';
import { type Service, SERVICES } from './services';

/** What to ask the service. */
export interface ServiceRequest {
	method: IHttpRequestMethods;
	/** Path after `/v1`, path parameters already made safe by `pathSegment`. */
	path: string;
	body?: IDataObject;
	qs?: IDataObject;
}

/** How a node talks to the service for one item: its Request Options (Concurrency is the router's). */
export interface RequestSettings {
	timeout: number;
	maxRetries: number;
	maxRetryWait: number;
	/** The field these come from, named in hints ("Request Options"); none where the defaults apply (a poll, a list search). */
	field?: string;
	/** When the request, its 429 waits included, must be over: a poll's time under n8n's scheduler. */
	deadline?: Deadline;
}

export interface Deadline {
	/** Milliseconds since the epoch. */
	at: number;
	/** Whose limit it is, as errors name it: "the 36 s n8n gives a poll". */
	what: string;
}

/** Who asks: the run (and so the credential), the item, the operation as errors name it, the service. */
export interface RequestScope {
	readonly execution: Execution;
	readonly index: number;
	/** What the user asked for, as the editor names it, and how every error of it starts: "Time → Travel". */
	readonly label: string;
	/** Which service (and so which credential) is asked. */
	readonly service: Service;
	readonly settings: RequestSettings;
}

/** A service that echoes the key back (without "Bearer") must not put it into an error. */
function redactSecrets(text: string, secrets: string[]): string {
	return secrets.reduce((result, secret) => result.split(secret).join('****'), text);
}

interface Failure {
	status?: number;
	headers: IDataObject;
	body?: unknown;
	code?: string;
}

/** A request that failed before any answer: a network error, a timeout, a refused connection. */
function describeNetworkFailure(error: unknown): Failure {
	const candidate = error as { httpCode?: string | null; code?: string; cause?: { code?: string } };
	// n8n 1.x keeps no `cause` (see `request`) but puts the error code into `httpCode`.
	const codeInHttpCode = candidate.httpCode && !/^\d+$/.test(candidate.httpCode) ? candidate.httpCode : undefined;
	return { headers: {}, code: candidate.cause?.code ?? candidate.code ?? codeInHttpCode };
}

/** The service's own words: the first of message, error.message, error, detail, status. */
export function serviceMessageOf(body: unknown): string | undefined {
	let parsed = body;
	if (typeof body === 'string') {
		try {
			parsed = JSON.parse(body);
		} catch {
			return redactBearer(body.trim()).slice(0, 300) || undefined;
		}
	}
	if (!parsed || typeof parsed !== 'object') return undefined;
	const object = parsed as IDataObject;
	const error = object.error as IDataObject | string | undefined;
	const found = [
		object.message,
		typeof error === 'object' ? error?.message : undefined,
		typeof error === 'string' ? error : undefined,
		object.detail,
		object.status,
	].find((value) => typeof value === 'string' && value.trim() !== '');
	return found === undefined ? undefined : redactBearer(String(found));
}

/**
 * Blanks a token after "Bearer". A short lowercase word is prose, not a token ("The bearer key
 * is not valid"), and stays: it is the service's words, and no real key looks like that.
 */
function redactBearer(text: string): string {
	return text.replace(/Bearer(\s+)(\S+)/gi, (whole, _space: string, next: string) =>
		/^[a-z]{1,11}[.,;:!?)]*$/.test(next) ? whole : 'Bearer ****',
	);
}

/** Seconds to wait from a Retry-After header (delta seconds or an HTTP date). */
export function parseRetryAfter(value: unknown, now = Date.now()): number | undefined {
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.min(Math.ceil(Number(text)), Number.MAX_SAFE_INTEGER);
	// An HTTP date always names its month; without letters, Date.parse would read "1.5" or "-1" as a year.
	if (!/[a-z]/i.test(text)) return undefined;
	const date = Date.parse(text);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, Math.ceil((date - now) / 1000));
}

const HINTS: Record<number, string> = {
	400: 'The service refused the request as invalid: check the fields named in the message.',
	403: 'The key is valid but not allowed to do this.',
	404: 'Nothing exists at that ID or path: check the ID (and the credential\'s Base URL).',
	409: 'The request conflicts with the current state.',
	413: 'The request is too large for the service.',
	422: 'The service understood the request but will not act on it: see its message.',
	429: 'The service is rate limiting: lower "Concurrency" in Request Options, or raise "Max Retries on Rate Limit".',
};

function hintFor(status: number | undefined, service: Service): string {
	if (status === undefined) return '';
	if (status === 401) {
		return `The service refused the key: open the credential and enter its ${SERVICES[service].keyLabel} again.`;
	}
	if (HINTS[status]) return HINTS[status];
	if (status >= 500) {
		return 'The service failed. The request was not repeated automatically because it may have been acted on; check before running it again.';
	}
	return '';
}

const isTimeout = (code: string | undefined) => code === 'ECONNABORTED' || code === 'ETIMEDOUT';

function networkMessage(code: string | undefined): string {
	if (isTimeout(code)) return 'no answer within the timeout (the request may still have been acted on)';
	if (code === 'ECONNRESET' || code === 'EPIPE') {
		return 'the connection was closed before an answer arrived (the request may or may not have been acted on)';
	}
	// In words, never the code itself: NodeApiError replaces any message that names a Node.js
	// error code (ECONNREFUSED, ...) with a generic text, losing the operation and the item.
	const unreachable: Record<string, string> = {
		ECONNREFUSED: 'the connection was refused',
		ENOTFOUND: 'the host name is unknown',
		EAI_AGAIN: 'the host name could not be looked up',
		EHOSTUNREACH: 'the host is unreachable',
		EADDRNOTAVAIL: 'the address is not available',
	};
	if (code !== undefined && unreachable[code]) {
		return `the service could not be reached (${unreachable[code]}): check the Base URL of the credential`;
	}
	if (code === 'INVALID_JSON') return 'the service answered with a body that is not valid JSON';
	return code && /^[A-Z_]+$/.test(code) && !/^E[A-Z]+$/.test(code) ? `the request failed (${code})` : 'the request failed before an answer arrived';
}

/** `note` ends the message (what the node did about it), `extra` goes into the description. */
function serviceError(
	scope: RequestScope,
	failure: Failure,
	{ extra = '', note = '', secrets = [] }: { extra?: string; note?: string; secrets?: string[] } = {},
): ServiceError {
	const said = serviceMessageOf(failure.body);
	const serviceMessage = said === undefined ? undefined : redactSecrets(said, secrets);
	const what =
		failure.status !== undefined
			? `the service answered HTTP ${failure.status}${serviceMessage ? `: ${serviceMessage}` : ''}`
			: networkMessage(failure.code);
	return serviceFailure(scope, {
		what,
		note,
		description: [hintFor(failure.status, scope.service), extra].filter(Boolean).join(' '),
		status: failure.status,
		serviceMessage,
		failure: causeOf(failure),
	});
}

/** Why it failed, in the words n8n's poll scheduler backs off by: a wait helps, or someone must act. */
function causeOf({ status, headers, code }: Failure): Cause | undefined {
	if (status === 429) {
		const seconds = parseRetryAfter(headers['retry-after']);
		return { cause: 'rate-limited', ...(seconds !== undefined && { retryAfterMs: seconds * 1000 }) };
	}
	if (status === 401) return { cause: 'credential-invalid' };
	if ((status === undefined && code !== 'INVALID_JSON') || (status !== undefined && status >= 500)) return { cause: 'temporarily-unavailable' };
	return undefined;
}

/** Parses what the service sent back; an answer that is not JSON is an error, not data. */
function parseAnswer(scope: RequestScope, answer: unknown): IDataObject | IDataObject[] {
	if (answer === undefined || answer === null || answer === '') return {};
	if (typeof answer === 'string') {
		try {
			return JSON.parse(answer) as IDataObject;
		} catch {
			throw serviceError(
				scope,
				{ status: undefined, headers: {}, code: 'INVALID_JSON' },
				{ extra: 'The service answered with a body that is not valid JSON; nothing was parsed from it.' },
			);
		}
	}
	return answer as IDataObject;
}

/**
 * Asks the service through n8n's authenticated HTTP helper. A 429 is retried after its
 * Retry-After (bounded by Request Options), since the service did not act on it; nothing
 * else is retried, so a message is never sent twice.
 */
export async function request(scope: RequestScope, ask: ServiceRequest): Promise<IDataObject | IDataObject[]> {
	const { execution, service, settings } = scope;
	const { baseUrl, secrets, decrypted } = await execution.credential(service);
	// Every status comes back as an answer, with its body and headers, instead of as a thrown
	// error: n8n 1.x wraps a failed request in a NodeApiError that drops the response (its
	// error classes reset `cause`; only the status survives, as `httpCode`), so the service's
	// words and Retry-After would be lost there. Only network failures still throw.
	const options: IHttpRequestOptions = {
		method: ask.method,
		url: `${baseUrl}${ask.path}`,
		json: true,
		ignoreHttpStatusErrors: true,
		returnFullResponse: true,
	};
	if (ask.body !== undefined) options.body = ask.body;
	if (ask.qs !== undefined) options.qs = ask.qs;

	const n8n = execution.n8n;
	const { deadline } = settings;
	const timeLeft = () => (deadline ? deadline.at - Date.now() : Infinity);
	for (let attempt = 0; ; attempt++) {
		// Within a deadline, the request gets what is left of it (at least a second).
		const timeout = Math.min(settings.timeout, Math.max(1000, timeLeft()));
		let response: IN8nHttpFullResponse;
		try {
			response = (await n8n.helpers.httpRequestWithAuthentication.call(n8n, SERVICES[service].credentialType, { ...options, timeout }, {
				credentialsDecrypted: decrypted,
			})) as IN8nHttpFullResponse;
		} catch (error) {
			const failure = describeNetworkFailure(error);
			const cutShort = deadline && isTimeout(failure.code) && timeout < settings.timeout;
			const extra = !isTimeout(failure.code) ? '' : cutShort ? `The request had what was left of ${deadline.what}.` : settings.field ? `If the service is slow, raise "Timeout" in ${settings.field}.` : '';
			throw serviceError(scope, failure, { extra, secrets });
		}
		if (response.statusCode >= 200 && response.statusCode < 300) return parseAnswer(scope, response.body);
		const failure: Failure = { status: response.statusCode, headers: response.headers ?? {}, body: response.body };
		if (failure.status === 429 && attempt < settings.maxRetries) {
			const asked = parseRetryAfter(failure.headers['retry-after']);
			const wait = asked ?? 2 ** attempt;
			const waitText = `${asked === undefined ? 'the next retry would wait' : 'the service asked to wait'} ${wait} s`;
			if (wait > settings.maxRetryWait) {
				const tooLong = `not retried: ${waitText}, longer than "Max Retry Wait" (${settings.maxRetryWait} s)`;
				const extra = settings.field ? `Raise "Max Retry Wait" in ${settings.field} to wait that long, or run the workflow later.` : '';
				throw serviceError(scope, failure, { extra, note: tooLong, secrets });
			}
			// A retry needs its wait and a second for the answer before the deadline.
			if (deadline && wait * 1000 + 1000 > timeLeft()) {
				throw serviceError(scope, failure, { note: `not retried: ${waitText}, past the end of ${deadline.what}`, secrets });
			}
			await sleep(wait * 1000);
			continue;
		}
		const gaveUp = failure.status === 429 ? `gave up after ${attempt} ${attempt === 1 ? 'retry' : 'retries'} ("Max Retries on Rate Limit" is ${settings.maxRetries})` : '';
		throw serviceError(scope, failure, { note: gaveUp, secrets });
	}
}
