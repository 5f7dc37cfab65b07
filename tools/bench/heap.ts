/**
 * The bench's hold on the heap of its n8n (n8n-heap-preload.ts runs inside it): a full garbage
 * collection before every send run, so that what a run adds to n8n's peak memory is its own and
 * not what the runs before it left behind; and with `--heap-profile`, V8's sampling heap profile
 * of each run, summarised here (what the run allocated per item, by part of the stack, and under
 * this package's own functions). `tsx tools/bench/heap.ts <dir>` re-reads the profiles.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

import { frameLabel, groupOf, INSTALLED } from './profile';

export interface N8nHeap {
	/** A full collection: n8n's main process starts the next run from its live objects only. */
	collectGarbage(): Promise<void>;
	startSampling(): Promise<void>;
	/** Stops the sampling and writes the profile to `file`. */
	stopSampling(file: string): Promise<void>;
}

/** Where --heap-profile writes each send run's profile. */
export const heapProfileDir = (cfg: { outDir: string }) => path.join(cfg.outDir, 'heap');

/**
 * What n8n's environment needs for the preload to answer on `socket`: for the server process
 * alone (startN8n's `serverEnv`), not for the CLI commands and helper processes run beside it.
 */
export function heapControlEnv(socket: string): Record<string, string> {
	const preload = pathToFileURL(path.join(__dirname, 'n8n-heap-preload.ts')).href;
	// The project has no "type": Node reads the file as an ES module after a warning, which is silenced.
	return { NODE_OPTIONS: `--import=${preload} --disable-warning=MODULE_TYPELESS_PACKAGE_JSON`, BENCH_HEAP_SOCKET: socket };
}

/**
 * A socket path of its own for one n8n (a Unix socket path must stay under about 100 characters),
 * cleared of a leftover (a killed run whose pid this one has): the preload never removes a file
 * it did not create.
 */
export function heapSocketPath(name: string): string {
	const socket = path.join(os.tmpdir(), `bench-heap-${process.pid}-${name}.sock`);
	fs.rmSync(socket, { force: true });
	return socket;
}

export function n8nHeap(socket: string): N8nHeap {
	const ask = async (route: string) =>
		await new Promise<void>((resolve, reject) => {
			const request = http.request({ socketPath: socket, method: 'POST', path: route }, (response) => {
				let body = '';
				response.on('data', (chunk: Buffer) => (body += chunk.toString()));
				response.on('end', () => (response.statusCode === 204 ? resolve() : reject(new Error(`n8n's heap control: ${route} → ${response.statusCode} ${body}`))));
			});
			request.on('error', (error) => reject(new Error(`n8n's heap control (${socket}): ${error.message}`)));
			request.end();
		});
	return {
		collectGarbage: async () => await ask('/gc'),
		startSampling: async () => await ask('/sampling/start'),
		stopSampling: async (file) => await ask(`/sampling/stop?file=${encodeURIComponent(file)}`),
	};
}

interface SamplingNode {
	callFrame: { functionName: string; url: string; lineNumber: number };
	selfSize: number;
	children: SamplingNode[];
}

/** One run's profile: bytes allocated by part of the stack, and under each of this package's functions (inclusive). */
function allocations(file: string): { total: number; groups: Map<string, number>; ours: Map<string, number> } {
	const head = (JSON.parse(fs.readFileSync(file, 'utf8')) as { head: SamplingNode }).head;
	const groups = new Map<string, number>();
	const ours = new Map<string, number>();
	let total = 0;
	const add = (map: Map<string, number>, key: string, bytes: number) => map.set(key, (map.get(key) ?? 0) + bytes);
	const walk = (node: SamplingNode, ownFrames: string[]) => {
		const { url } = node.callFrame;
		const frames = url.includes(INSTALLED) ? [...new Set([...ownFrames, frameLabel(node.callFrame)])] : ownFrames;
		total += node.selfSize;
		add(groups, groupOf(url), node.selfSize);
		for (const frame of frames) add(ours, frame, node.selfSize);
		for (const child of node.children) walk(child, frames);
	};
	walk(head, []);
	return { total, groups, ours };
}

/** heap-profile.md: per variant (the rounds together), what a run allocated per item and where. */
export function summariseHeapProfiles(dir: string, itemsPerRun: number): string {
	const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.heapprofile')).sort() : [];
	if (files.length === 0) return `No .heapprofile in ${dir}\n`;
	const byVariant = new Map<string, string[]>();
	for (const file of files) {
		const variant = file.replace(/-r\d+\.heapprofile$/, '');
		byVariant.set(variant, [...(byVariant.get(variant) ?? []), file]);
	}
	const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
	const out = [
		"# What n8n's main process allocated during each send run",
		'',
		`V8's sampling heap profile (every allocation, collected or not), per item of a ${itemsPerRun}-item run, the rounds averaged.`,
		'',
	];
	for (const [variant, runs] of byVariant) {
		const profiles = runs.map((file) => allocations(path.join(dir, file)));
		const perItem = (bytes: number) => bytes / runs.length / itemsPerRun;
		const merged = (pick: (p: ReturnType<typeof allocations>) => Map<string, number>) => {
			const sum = new Map<string, number>();
			for (const profile of profiles) for (const [key, bytes] of pick(profile)) sum.set(key, (sum.get(key) ?? 0) + bytes);
			return [...sum.entries()].sort((a, b) => b[1] - a[1]);
		};
		const total = profiles.reduce((sum, p) => sum + p.total, 0);
		out.push(`## ${variant}: ${kb(perItem(total))} per item (${runs.length} runs)`, '', 'By part of the stack:', '');
		for (const [group, bytes] of merged((p) => p.groups).slice(0, 10)) out.push(`- ${group}: ${kb(perItem(bytes))}`);
		const ours = merged((p) => p.ours).slice(0, 15);
		if (ours.length > 0) {
			out.push('', 'Under this package\'s functions (inclusive: everything they call, n8n\'s parameter reads and requests included):', '');
			for (const [frame, bytes] of ours) out.push(`- ${frame}: ${kb(perItem(bytes))}`);
		}
		out.push('');
	}
	return out.join('\n') + '\n';
}

if (require.main === module) {
	const [dir = path.join(__dirname, '..', '..', '.artifacts', 'bench', 'heap'), items = '2000'] = process.argv.slice(2);
	process.stdout.write(summariseHeapProfiles(dir, Number(items)));
}
