/**
 * The sandbox's world in a file, for a sandbox that should outlast its process (`npm start`'s):
 * timelines, events, anomalies, travellers, templates, contacts, windows, messages, webhook
 * deliveries, the request log, the settings and the clock, with their ids. Saved a moment after
 * each change (at most five times a second) and on close, by writing a new file and renaming it
 * over the old one, so a crash leaves the previous save whole. Faults are not kept: they are for
 * the next calls of this run. A sandbox without a state file (every test's) keeps nothing.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { MessagingSnapshot } from './messaging';
import type { RequestLogSnapshot } from './requestLog';
import type { TimelineSnapshot } from './timeline';
import type { SandboxConfig } from './types';
import type { WebhookSnapshot } from './webhooks';

const STATE_VERSION = 1;
/** The request log and the webhook deliveries keep their latest this many entries in the file. */
export const SAVED_LOG_LIMIT = 5000;
const SAVE_AFTER_MS = 200;

export interface SavedState {
	version: typeof STATE_VERSION;
	savedAt: string;
	clockOffsetMs: number;
	config: SandboxConfig;
	timeline: TimelineSnapshot;
	messaging: MessagingSnapshot;
	webhooks: WebhookSnapshot;
	requests: RequestLogSnapshot;
}

export type StateContent = Omit<SavedState, 'version' | 'savedAt'>;

const PARTS: Array<keyof StateContent> = ['clockOffsetMs', 'config', 'timeline', 'messaging', 'webhooks', 'requests'];

export class StateFile {
	private timer?: NodeJS.Timeout;
	private stopped = false;

	constructor(
		readonly file: string,
		private readonly content: () => StateContent,
	) {}

	/**
	 * The saved state, if there is one. A file that cannot be read as one (another version, cut
	 * short, edited by hand) is moved aside to `<file>.unreadable` and `problem` says why.
	 */
	load(): { state?: SavedState; problem?: string } {
		if (!fs.existsSync(this.file)) return {};
		let reason: string;
		try {
			const state = JSON.parse(fs.readFileSync(this.file, 'utf8')) as SavedState;
			if (state?.version === STATE_VERSION && PARTS.every((part) => state[part] !== undefined)) return { state };
			reason = `it is not a version-${STATE_VERSION} state of the sandbox`;
		} catch (error) {
			reason = (error as Error).message;
		}
		const aside = `${this.file}.unreadable`;
		fs.renameSync(this.file, aside);
		return { problem: `${this.file} could not be read (${reason}); it was moved to ${aside} and the sandbox starts afresh` };
	}

	/** Forgets the saved state (a fresh start asked for). */
	discard(): void {
		fs.rmSync(this.file, { force: true });
	}

	/** Saves a moment later; changes meanwhile go into the same save. */
	changed(): void {
		if (this.timer || this.stopped) return;
		this.timer = setTimeout(() => {
			this.timer = undefined;
			this.save();
		}, SAVE_AFTER_MS);
		this.timer.unref();
	}

	save(): void {
		const state: SavedState = { version: STATE_VERSION, savedAt: new Date().toISOString(), ...this.content() };
		fs.mkdirSync(path.dirname(this.file), { recursive: true });
		const partial = `${this.file}.${process.pid}.tmp`;
		fs.writeFileSync(partial, JSON.stringify(state));
		fs.renameSync(partial, this.file);
	}

	/** The last save, now; nothing is saved after it. */
	close(): void {
		if (this.stopped) return;
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
		this.save();
		this.stopped = true;
	}
}
