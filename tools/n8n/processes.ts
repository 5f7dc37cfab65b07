/** Small helpers for the services the real-n8n tooling starts (polling, not fixed sleeps). */

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Throws if `signal` was aborted (a start cancelled by Ctrl-C), naming what was being waited for. */
export function throwIfAborted(signal: AbortSignal | undefined, what: string): void {
	if (signal?.aborted) throw new Error(`cancelled while waiting for ${what}`);
}

/**
 * Polls `check` every `intervalMs` until it returns a truthy value (which is returned), throws,
 * `signal` is aborted, or `timeoutMs` passes (then it throws, naming `what`).
 */
export async function waitFor<T>(
	what: string,
	timeoutMs: number,
	check: () => T | undefined | false | Promise<T | undefined | false>,
	intervalMs = 200,
	signal?: AbortSignal,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		throwIfAborted(signal, what);
		const value = await check();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await sleep(intervalMs);
	}
}
