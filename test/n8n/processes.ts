/** Small helpers for the services the real-n8n tooling starts (polling, not fixed sleeps). */

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls `check` every `intervalMs` until it returns a truthy value (which is returned), throws,
 * or `timeoutMs` passes (then it throws, naming `what`).
 */
export async function waitFor<T>(
	what: string,
	timeoutMs: number,
	check: () => T | undefined | false | Promise<T | undefined | false>,
	intervalMs = 200,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await sleep(intervalMs);
	}
}
