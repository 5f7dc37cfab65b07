// The operation registry drives the node and the "every operation" suites. These tests show
// the suites cannot be outrun by a new operation: one registered without its cases makes the
// table of valid calls, and the bad-input suite's coverage check, fail with its name.
import type { RegisteredOperation } from '../../../nodes/shared/registry';
import { OPERATIONS } from '../../../nodes/shared/registry';
import { SERVICES } from '../../../nodes/shared/services';
import { operationCases, requireEveryOperation, uncovered, VALID_CALLS } from '../../support/operation-cases';

/** The registry as it would be after someone added Timeline → Archive and nothing else. */
function withNewOperation(): RegisteredOperation[] {
	const timeline = OPERATIONS.find((op) => op.resource.value === 'timeline')!;
	const archive: RegisteredOperation = {
		...timeline,
		key: 'timeline.archive',
		label: 'Timeline → Archive',
		operation: { ...timeline.operation, value: 'archive', name: 'Archive' },
	};
	return [...OPERATIONS, archive];
}

describe('the operation registry', () => {
	it('names every operation once, by key and by label', () => {
		expect(new Set(OPERATIONS.map((op) => op.key)).size).toBe(OPERATIONS.length);
		expect(new Set(OPERATIONS.map((op) => op.label)).size).toBe(OPERATIONS.length);
	});

	it("gives every operation its service's credential: the messaging key for messages, the timeline key for the rest", () => {
		// Which service each resource belongs to, as the two service documents split them.
		const credentialOf: Record<string, string> = {
			anchor: 'timelineNavigationApi',
			event: 'timelineNavigationApi',
			item: 'timelineNavigationApi',
			time: 'timelineNavigationApi',
			timeline: 'timelineNavigationApi',
			message: 'chatAppMessagingApi',
		};
		expect(Object.fromEntries(OPERATIONS.map((op) => [op.key, SERVICES[op.resource.service].credentialType]))).toEqual(
			Object.fromEntries(OPERATIONS.map((op) => [op.key, credentialOf[op.resource.value]])),
		);
	});

	it('has a valid call for every registered operation and none for an operation it no longer has, so faults and secrets are tried on each', () => {
		expect(Object.keys(VALID_CALLS).sort()).toEqual(OPERATIONS.map((op) => op.key).sort());
	});

	it('an operation registered without a valid call makes the table, and so every suite using it, fail with its name', () => {
		expect(() => operationCases(withNewOperation())).toThrow(
			'test/support/operation-cases.ts (valid parameters) has no case for the registered operation(s) Timeline → Archive: add one.',
		);
	});

	it('an operation registered without a bad-input case fails the bad-input suite with its name', () => {
		const covered = OPERATIONS.map((op) => op.label);
		expect(uncovered(covered, withNewOperation())).toEqual(['Timeline → Archive']);
		expect(() => requireEveryOperation('The bad-input suite', covered, withNewOperation())).toThrow(/Timeline → Archive/);
		expect(() => requireEveryOperation('The bad-input suite', covered)).not.toThrow();
	});
});
