/**
 * Fault injection for /v1 requests: answer with a status (and Retry-After), wait, answer a
 * broken JSON body, or drop the connection, for the next N (or every k-th) matching requests.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { HttpError, errorBody, sendJson, sendText } from './http';
import type { FaultKind, FaultSpec, FaultState } from './types';
import { isObject, invalid, optionalInteger } from './validate';

const KINDS: readonly FaultKind[] = ['status', 'delay', 'malformed', 'drop'];

export class FaultRegistry {
	private faults: FaultState[] = [];

	add(input: unknown): FaultState {
		const spec = validateFault(input);
		const state: FaultState = { ...spec, faultId: `flt_${randomUUID().slice(0, 8)}`, seen: 0, fired: 0 };
		this.faults.push(state);
		return state;
	}

	list(): FaultState[] {
		return this.faults.map((f) => ({ ...f }));
	}

	clear(): void {
		this.faults = [];
	}

	/** Disarms one fault. */
	remove(faultId: string): FaultState {
		const fault = this.faults.find((f) => f.faultId === faultId);
		if (!fault) throw new HttpError(404, 'not_found', `No armed fault with faultId '${faultId}' (it may have fired already).`, 'faultId');
		this.faults = this.faults.filter((f) => f !== fault);
		return { ...fault };
	}

	/** Counts the request against every matching fault; returns the first that fires. */
	take(method: string, path: string, query: Record<string, unknown> = {}, body = ''): FaultState | undefined {
		let chosen: FaultState | undefined;
		for (const fault of this.faults) {
			if (!matches(fault, method, path, query, body)) continue;
			fault.seen++;
			if (chosen) continue;
			const due = fault.everyNth ? fault.seen % fault.everyNth === 0 : true;
			if (!due) continue;
			fault.fired++;
			chosen = fault;
		}
		// Exhausted faults leave, so `list()` shows only what is still armed.
		this.faults = this.faults.filter((f) => remaining(f) > 0);
		return chosen;
	}
}

function remaining(f: FaultState): number {
	const limit = f.count ?? (f.everyNth ? Number.POSITIVE_INFINITY : 1);
	return limit - f.fired;
}

function matches(f: FaultSpec, method: string, path: string, query: Record<string, unknown>, body: string): boolean {
	if (f.method && f.method.toUpperCase() !== method) return false;
	if (f.bodyContains !== undefined && !body.includes(f.bodyContains)) return false;
	if (f.path !== undefined && f.path !== path) return false;
	if (f.pathPrefix !== undefined && !path.startsWith(f.pathPrefix)) return false;
	return Object.entries(f.query ?? {}).every(([name, value]) => query[name] === value);
}

function validateFault(input: unknown): FaultSpec {
	if (!isObject(input)) throw invalid('body', 'The fault must be a JSON object with at least `kind`.');
	const kind = input.kind;
	if (typeof kind !== 'string' || !(KINDS as readonly string[]).includes(kind)) {
		throw invalid('kind', `The field 'kind' must be one of ${KINDS.map((k) => `'${k}'`).join(', ')}.`);
	}
	for (const key of ['method', 'path', 'pathPrefix'] as const) {
		if (input[key] !== undefined && typeof input[key] !== 'string') throw invalid(key, `The field '${key}' must be a string.`);
	}
	if (input.retryAfter !== undefined && typeof input.retryAfter !== 'string' && typeof input.retryAfter !== 'number') {
		throw invalid('retryAfter', "The field 'retryAfter' must be a number of seconds or an HTTP date string.");
	}
	if (input.headers !== undefined && !isObject(input.headers)) throw invalid('headers', "The field 'headers' must be an object of strings.");
	if (input.query !== undefined && !(isObject(input.query) && Object.values(input.query).every((value) => typeof value === 'string'))) {
		throw invalid('query', "The field 'query' must be an object of strings (query parameters the request must carry).");
	}
	if (input.bodyText !== undefined && typeof input.bodyText !== 'string') throw invalid('bodyText', "The field 'bodyText' must be a string.");
	if (input.bodyContains !== undefined && typeof input.bodyContains !== 'string') throw invalid('bodyContains', "The field 'bodyContains' must be a string (text the request's body must contain).");
	return {
		...(input as unknown as FaultSpec),
		kind: kind as FaultKind,
		count: optionalInteger(input, 'count', 1),
		everyNth: optionalInteger(input, 'everyNth', 1),
		status: optionalInteger(input, 'status', 100, 599),
		delayMs: optionalInteger(input, 'delayMs', 0, 600_000),
	};
}

function defaultCode(status: number): string {
	if (status === 429) return 'rate_limited';
	if (status === 503) return 'service_unavailable';
	return 'injected_fault';
}

/**
 * Applies a fault. Returns true when the request has been answered (or dropped), false
 * when it should continue normally (kind 'delay').
 */
export async function applyFault(fault: FaultState, res: ServerResponse): Promise<boolean> {
	if (fault.delayMs) await sleep(fault.delayMs);
	switch (fault.kind) {
		case 'delay':
			return false;
		case 'drop':
			// No answer at all: the client sees a reset / socket hang up.
			res.socket?.destroy();
			return true;
		case 'malformed': {
			const broken = '{"status": "ok", "message_id": "msg_trunc';
			res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(broken.length) });
			res.end(broken);
			return true;
		}
		case 'status': {
			const status = fault.status ?? 503;
			const headers: Record<string, string> = { ...(fault.headers ?? {}) };
			if (fault.retryAfter !== undefined) headers['Retry-After'] = String(fault.retryAfter);
			if (fault.bodyText !== undefined) {
				sendText(res, status, fault.bodyText, headers);
				return true;
			}
			const body =
				fault.body ?? errorBody(defaultCode(status), `Injected fault: the sandbox answered HTTP ${status} on purpose.`);
			sendJson(res, status, body, headers);
			return true;
		}
	}
}
