/**
 * Peak resident memory of a process and its descendants (n8n's main process and its
 * task-runner child), from /proc/<pid>/status VmRSS, sampled every ~100 ms. The main
 * process's peak is also read exactly: its high-water mark (VmHWM) is reset when sampling
 * starts (writing 5 to /proc/<pid>/clear_refs) and read when it stops.
 */
import * as fs from 'node:fs';

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
	try {
		const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
		const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status);
		return match ? Number(match[1]) : undefined;
	} catch {
		return undefined;
	}
}

const rssKb = (pid: number) => statusKb(pid, 'VmRSS');

/** Resets the process's VmHWM to its current RSS; false where the kernel does not allow it. */
function resetPeak(pid: number): boolean {
	try {
		fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
		return true;
	} catch {
		return false;
	}
}

/** Direct and indirect children of `root`, from /proc/<pid>/task/<tid>/children. */
function descendants(root: number): number[] {
	const out: number[] = [];
	const queue = [root];
	while (queue.length > 0) {
		const pid = queue.shift()!;
		let tasks: string[] = [];
		try {
			tasks = fs.readdirSync(`/proc/${pid}/task`);
		} catch {
			continue;
		}
		for (const tid of tasks) {
			try {
				const kids = fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
				for (const k of kids ? kids.split(/\s+/) : []) {
					out.push(Number(k));
					queue.push(Number(k));
				}
			} catch {
				// task gone
			}
		}
	}
	return out;
}

export interface MemoryPeak {
	/** Peak VmRSS of the main process, MB. */
	mainMb: number;
	/** Peak summed VmRSS of its descendants (the task runner), MB. */
	childrenMb: number;
	/** Peak of main + children at the same sample, MB. */
	totalMb: number;
	/** The main process's exact peak (VmHWM since start), MB; undefined where it cannot be reset. */
	mainPeakMb?: number;
	/** The main process's RSS when sampling started, MB. */
	mainStartMb: number;
	samples: number;
}

export class MemorySampler {
	private timer?: NodeJS.Timeout;
	private children: number[] = [];
	private lastScan = 0;
	private peak = { main: 0, children: 0, total: 0, samples: 0 };
	private startKb = 0;
	private exactPeak = false;

	constructor(private readonly pid: number, private readonly intervalMs = 100) {}

	start(): this {
		this.peak = { main: 0, children: 0, total: 0, samples: 0 };
		this.startKb = rssKb(this.pid) ?? 0;
		this.exactPeak = resetPeak(this.pid);
		this.sample();
		this.timer = setInterval(() => this.sample(), this.intervalMs);
		return this;
	}

	private sample(): void {
		const now = Date.now();
		if (now - this.lastScan > 1000) {
			this.children = descendants(this.pid);
			this.lastScan = now;
		}
		const main = rssKb(this.pid) ?? 0;
		const children = this.children.reduce((sum, pid) => sum + (rssKb(pid) ?? 0), 0);
		this.peak.main = Math.max(this.peak.main, main);
		this.peak.children = Math.max(this.peak.children, children);
		this.peak.total = Math.max(this.peak.total, main + children);
		this.peak.samples++;
	}

	stop(): MemoryPeak {
		if (this.timer) clearInterval(this.timer);
		this.sample();
		const mb = (kb: number) => Math.round(kb / 1024);
		const hwm = this.exactPeak ? statusKb(this.pid, 'VmHWM') : undefined;
		return {
			mainPeakMb: hwm === undefined ? undefined : mb(Math.max(hwm, this.peak.main)),
			mainStartMb: mb(this.startKb),
			mainMb: mb(this.peak.main),
			childrenMb: mb(this.peak.children),
			totalMb: mb(this.peak.total),
			samples: this.peak.samples,
		};
	}
}
