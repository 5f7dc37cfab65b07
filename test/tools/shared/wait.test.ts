// The one polling helper of the tools and the e2e suites.
import { waitFor } from '../../../tools/shared/wait';

describe('waitFor', () => {
	it('returns the first truthy value of the check, checking again until then', async () => {
		let checks = 0;
		const value = await waitFor('the third check', () => ++checks >= 3 && { checks }, { timeoutMs: 2000, intervalMs: 5 });
		expect(value).toEqual({ checks: 3 });
	});

	it('times out naming what it waited for, described as last seen', async () => {
		let seen = 0;
		await expect(
			waitFor(() => `a count above 1000 (last ${seen})`, () => ++seen > 1000, { timeoutMs: 50, intervalMs: 5 }),
		).rejects.toThrow(/^timed out after 50 ms waiting for a count above 1000 \(last \d+\)$/);
		expect(seen).toBeGreaterThan(1);
	});

	it('passes on an error of the check at once', async () => {
		let checks = 0;
		await expect(
			waitFor('a check that fails', () => {
				checks++;
				throw new Error('the service exited');
			}, { timeoutMs: 2000 }),
		).rejects.toThrow('the service exited');
		expect(checks).toBe(1);
	});

	it('stops when its signal is aborted', async () => {
		const controller = new AbortController();
		setTimeout(() => controller.abort(), 20);
		await expect(waitFor('n8n to start', () => false, { timeoutMs: 5000, intervalMs: 5, signal: controller.signal })).rejects.toThrow(
			'cancelled while waiting for n8n to start',
		);
	});
});
