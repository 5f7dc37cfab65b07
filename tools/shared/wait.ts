// Waiting, for the tools and the tests alike (it sits in tools/ because tools do not import
// test/): a pause is node:timers/promises' setTimeout; "wait until" is waitFor, which polls a
// condition against a deadline instead of sleeping for a guessed time.
import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitOptions {
	timeoutMs: number;
	/** Between two checks; default 200 ms. */
	intervalMs?: number;
	/** Ends the wait early (a start cancelled by Ctrl-C). */
	signal?: AbortSignal;
}

/** Throws if `signal` was aborted (a start cancelled by Ctrl-C), naming what was being waited for. */
export function throwIfAborted(signal: AbortSignal | undefined, what: string): void {
	if (signal?.aborted) throw new Error(`cancelled while waiting for ${what}`);
}

/**
 * Polls `check` until it returns a truthy value (which is returned), throws, `signal` is
 * aborted, or `timeoutMs` passes; then it throws, naming `what` (a function is called then, so
 * the message can describe the state last seen).
 */
export async function waitFor<T>(
	what: string | (() => string),
	check: () => T | undefined | false | Promise<T | undefined | false>,
	{ timeoutMs, intervalMs = 200, signal }: WaitOptions,
): Promise<T> {
	const describe = typeof what === 'function' ? what : () => what;
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		throwIfAborted(signal, describe());
		const value = await check();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${describe()}`);
		await sleep(intervalMs);
	}
}
