/**
 * The sandbox clock: real time plus an offset that the control surface moves, so tests can
 * let 24 hours pass in a millisecond while time still flows normally between calls.
 */
import type { ClockState } from './types';

export class VirtualClock {
	private offsetMs = 0;

	nowMs(): number {
		return Date.now() + this.offsetMs;
	}

	nowIso(): string {
		return new Date(this.nowMs()).toISOString();
	}

	/** Moves the clock forward (or back with a negative value). */
	advance(ms: number): ClockState {
		this.offsetMs += ms;
		return this.state();
	}

	/** Jumps to an absolute moment. */
	set(ms: number): ClockState {
		this.offsetMs = ms - Date.now();
		return this.state();
	}

	reset(): void {
		this.offsetMs = 0;
	}

	/** Back to a saved offset: the sandbox's time went on while it was stopped, as real time did. */
	restore(offsetMs: number): void {
		this.offsetMs = offsetMs;
	}

	state(): ClockState {
		return { now: this.nowIso(), offsetMs: this.offsetMs };
	}
}
