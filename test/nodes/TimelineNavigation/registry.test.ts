// The operation registry drives the node and the "every operation" suites. These tests show
// the suites cannot be outrun by a new operation: one registered without its cases makes the
// table of valid calls, and the bad-input suite's coverage check, fail with its name.
import type { RegisteredOperation } from '../../../nodes/TimelineNavigation/actions/registry';
import { OPERATIONS } from '../../../nodes/TimelineNavigation/actions/registry';
import { OPERATION_CASES, operationCases, requireEveryOperation, uncovered } from '../../support/operation-cases';

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

	it('has a valid call for every registered operation, so faults and secrets are tried on each', () => {
		expect(OPERATION_CASES.map((op) => op.key)).toEqual(OPERATIONS.map((op) => op.key));
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
