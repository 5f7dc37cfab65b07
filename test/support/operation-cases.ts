// The operations the "every operation" suites (faults, bad input, secrets) iterate: taken from
// the node's registry, each with one set of valid parameters and the request it sends. A
// registered operation without an entry here (or without a case in a suite that asks for one
// per operation) makes those suites fail to load, naming it: a new operation cannot slip past them.
import type { IDataObject } from 'n8n-workflow';
import { OPERATIONS, type RegisteredOperation } from '../../nodes/shared/registry';
import type { Service } from '../../nodes/shared/services';

export const CUSTOMER = '+14155550123';

export interface OperationCase {
	/** `resource.operation`, as the registry keys it. */
	key: string;
	/** As the node names it in errors: "Time → Travel". */
	label: string;
	resource: string;
	operation: string;
	service: Service;
	/** Parameters that make a valid request. */
	parameters: IDataObject;
	/** Method and path prefix of the request the operation sends. */
	method: string;
	path: string;
}

type ValidCall = Pick<OperationCase, 'parameters' | 'method' | 'path'>;

const locator = (value: string) => ({ __rl: true, mode: 'id', value });

/** Template parameters as "One by One" stores them: `{ placeholder1: { value }, placeholder2: ... }`. */
export function listedParameters(values: string[]): Record<string, { value: string }> {
	return Object.fromEntries(values.map((value, index) => [`placeholder${index + 1}`, { value }]));
}

/** Written by hand, one entry per operation: the registry's keys are compared with these, not derived. */
export const VALID_CALLS: Record<string, ValidCall> = {
	'time.travel': { method: 'POST', path: '/v1/travel', parameters: { destinationTime: '2030-01-01T00:00:00Z', location: 'Alexandria' } },
	'time.pause': { method: 'POST', path: '/v1/pause-time', parameters: {} },
	'time.resume': { method: 'POST', path: '/v1/resume-time', parameters: {} },
	'time.fastForward': { method: 'POST', path: '/v1/fast-forward', parameters: { durationAmount: 2, durationUnit: 'hours' } },
	'time.rewind': { method: 'POST', path: '/v1/rewind', parameters: { durationAmount: 15, durationUnit: 'minutes' } },
	'anchor.set': { method: 'POST', path: '/v1/set-anchor', parameters: { timestamp: '2026-05-01T09:30:00Z', description: 'start' } },
	'anchor.create': { method: 'POST', path: '/v1/anchors', parameters: { timestamp: '2026-05-01T09:30:00Z' } },
	'anchor.returnTo': { method: 'POST', path: '/v1/travels', parameters: { anchorId: 'anc_1' } },
	'event.monitor': {
		method: 'GET',
		path: '/v1/monitor-events',
		parameters: { location: 'Rome', rangeStart: '2026-01-01T00:00:00Z', rangeEnd: '2026-02-01T00:00:00Z' },
	},
	'event.manipulate': {
		method: 'POST',
		path: '/v1/events',
		parameters: { timelineId: locator('tl_1'), eventAction: 'add', eventTime: '2026-01-01T00:00:00Z', description: 'x' },
	},
	'timeline.getAll': { method: 'GET', path: '/v1/timelines', parameters: { returnAll: true } },
	'timeline.create': { method: 'POST', path: '/v1/timelines', parameters: { name: 'Main line' } },
	'timeline.delete': { method: 'DELETE', path: '/v1/timeline/', parameters: { timelineId: locator('tl_1') } },
	'timeline.travelTo': { method: 'POST', path: '/v1/travels', parameters: { timelineId: locator('tl_1') } },
	'timeline.checkParadoxes': { method: 'POST', path: '/v1/paradox-checks', parameters: { timelineId: locator('tl_1') } },
	'timeline.monitorAnomalies': {
		method: 'GET',
		path: '/v1/monitor-timeline',
		parameters: { timelineId: locator('tl_1'), outputMode: 'response' },
	},
	'item.register': { method: 'POST', path: '/v1/items', parameters: { timelineId: locator('tl_1'), name: 'Compass' } },
	'message.sendText': { method: 'POST', path: '/v1/messages', parameters: { to: CUSTOMER, text: 'Hello' } },
	'message.sendTemplate': {
		method: 'POST',
		path: '/v1/messages',
		parameters: { to: CUSTOMER, templateId: 'welcome_customer', parametersInput: 'list', templateParameters: listedParameters(['Ada']) },
	},
	'message.sendMedia': { method: 'POST', path: '/v1/messages', parameters: { to: CUSTOMER, mediaType: 'image', mediaUrl: 'https://example.com/a.jpg' } },
	'message.sendLocation': { method: 'POST', path: '/v1/messages', parameters: { to: CUSTOMER, latitude: 41.9, longitude: 12.5 } },
	'message.sendCustom': { method: 'POST', path: '/v1/messages', parameters: { to: CUSTOMER, customPayload: '{"type":"poll"}' } },
	'message.getStatus': { method: 'GET', path: '/v1/messages/', parameters: { messageId: 'msg_1' } },
	'message.sendAndWait': { method: 'POST', path: '/v1/messages', parameters: { to: CUSTOMER, message: 'Approve the refund?' } },
};

/** The registered operations that `covered` (keys or labels) does not cover, by label. */
export function uncovered(covered: Iterable<string>, registered: RegisteredOperation[] = OPERATIONS): string[] {
	const have = new Set(covered);
	return registered.filter((op) => !have.has(op.key) && !have.has(op.label)).map((op) => op.label);
}

/** Throws, naming them, when registered operations have no case in `suite`. */
export function requireEveryOperation(suite: string, covered: Iterable<string>, registered: RegisteredOperation[] = OPERATIONS): void {
	const missing = uncovered(covered, registered);
	if (missing.length > 0) {
		throw new Error(`${suite} has no case for the registered operation(s) ${missing.join(', ')}: add one.`);
	}
}

/** One case per registered operation, in the registry's order. */
export function operationCases(registered: RegisteredOperation[] = OPERATIONS, valid: Record<string, ValidCall> = VALID_CALLS): OperationCase[] {
	requireEveryOperation('test/support/operation-cases.ts (valid parameters)', Object.keys(valid), registered);
	return registered.map((op) => ({
		key: op.key,
		label: op.label,
		resource: op.resource.value,
		operation: op.operation.value,
		service: op.resource.service,
		...valid[op.key],
	}));
}

export const OPERATION_CASES = operationCases();

export function operationCase(label: string): OperationCase {
	const found = OPERATION_CASES.find((op) => op.label === label);
	if (!found) throw new Error(`No operation "${label}" in the registry`);
	return found;
}
