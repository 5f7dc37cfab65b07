/**
 * Summarises V8 CPU profiles (`--cpu-prof`) of the n8n process: self time by module group
 * (this package, n8n-core, n8n-workflow, the HTTP stack, ...) and by function, plus the
 * inclusive time of this package's functions. `npm run bench -- --profile` writes the
 * profiles and this summary; `tsx tools/bench/profile.ts <dir>` re-reads them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	hitCount?: number;
	children?: number[];
}
interface CpuProfile {
	nodes: ProfileNode[];
	samples: number[];
	timeDeltas: number[];
	startTime: number;
	endTime: number;
}

const PACKAGE = 'n8n-nodes-timeline-navigation';
/** The package as n8n loads it (the runtime's own folder may carry the package's name too). */
export const INSTALLED = `node_modules/${PACKAGE}/`;

/** Which part of the stack a script belongs to. */
export function groupOf(url: string): string {
	if (!url) return '(native / V8)';
	if (url.includes(INSTALLED)) return `this package (${PACKAGE})`;
	if (url.includes('node_modules/n8n-nodes-bench-ceiling/')) return 'the ceiling fixture';
	const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url.replace(/.*\.n8n-runtime\/n8n\//, ''));
	if (m) {
		const name = m[1];
		if (/^(axios|follow-redirects|form-data|proxy-from-env|undici|agent-base|http-proxy-agent|https-proxy-agent)$/.test(name)) return `HTTP client (${name})`;
		if (/^(typeorm|sqlite3|@n8n\/typeorm|@n8n\/db)$/.test(name)) return `database (${name})`;
		if (/^(n8n-workflow|n8n-core|n8n|n8n-nodes-base|@n8n\/[^/]+)$/.test(name)) return name;
		return `other: ${name}`;
	}
	if (url.startsWith('node:')) return `Node.js (${url.split('/')[0]})`;
	return url.length > 60 ? '…' + url.slice(-60) : url;
}

function shortUrl(url: string): string {
	const pkg = url.indexOf(INSTALLED);
	if (pkg >= 0) return url.slice(pkg + INSTALLED.length);
	const nm = url.lastIndexOf('node_modules/');
	return nm >= 0 ? url.slice(nm + 13) : url;
}

/** A function as the summaries name it: its name, file and line. */
export function frameLabel({ functionName, url, lineNumber }: { functionName: string; url: string; lineNumber: number }): string {
	return `${functionName || '(anonymous)'} ${shortUrl(url)}:${lineNumber + 1}`;
}

export function summariseProfiles(dir: string): string {
	const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')) : [];
	if (files.length === 0) return `No .cpuprofile in ${dir}\n`;
	const out: string[] = ['# CPU profile of n8n during the bench', ''];
	for (const file of files) {
		const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
		const byId = new Map(profile.nodes.map((n) => [n.id, n]));
		const parent = new Map<number, number>();
		for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
		const self = new Map<number, number>();
		profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
		const total = [...self.values()].reduce((a, b) => a + b, 0);
		if (total < 1000) continue; // the task runner or a short CLI: nothing to learn

		const groups = new Map<string, number>();
		const fns = new Map<string, number>();
		const pkgInclusive = new Map<string, number>();
		for (const [id, ms] of self) {
			const node = byId.get(id)!;
			const { functionName, url } = node.callFrame;
			if (functionName === '(idle)') continue;
			const g = groupOf(url);
			groups.set(g, (groups.get(g) ?? 0) + ms);
			const fn = frameLabel(node.callFrame);
			fns.set(fn, (fns.get(fn) ?? 0) + ms);
			// Inclusive time of this package's frames: walk up once per distinct frame.
			const seen = new Set<string>();
			for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
				const f = byId.get(cur)!.callFrame;
				if (!f.url.includes(INSTALLED)) continue;
				const key = frameLabel(f);
				if (seen.has(key)) continue;
				seen.add(key);
				pkgInclusive.set(key, (pkgInclusive.get(key) ?? 0) + ms);
			}
		}
		const idle = [...self.entries()]
			.filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)')
			.reduce((a, [, v]) => a + v, 0);
		const busy = total - idle;
		const pct = (ms: number) => `${((ms / busy) * 100).toFixed(1)} %`;
		const top = (m: Map<string, number>, n: number) =>
			[...m.entries()].filter(([k]) => !k.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, n);
		out.push(`## ${file}: ${(total / 1000).toFixed(1)} s profiled, ${(busy / 1000).toFixed(1)} s on CPU`, '');
		out.push('Self time by part of the stack (share of CPU time):', '');
		for (const [g, ms] of top(groups, 15)) out.push(`- ${g}: ${(ms / 1000).toFixed(2)} s (${pct(ms)})`);
		out.push('', 'Top functions by self time:', '');
		for (const [f, ms] of top(fns, 25)) out.push(`- ${f}: ${ms.toFixed(0)} ms (${pct(ms)})`);
		out.push('', 'This package, inclusive time (its frames and everything they call):', '');
		for (const [f, ms] of top(pkgInclusive, 20)) out.push(`- ${f}: ${ms.toFixed(0)} ms (${pct(ms)})`);
		out.push('');
	}
	return out.join('\n') + '\n';
}

if (require.main === module) {
	process.stdout.write(summariseProfiles(process.argv[2] ?? path.join(__dirname, '..', '..', '.artifacts', 'bench', 'profile')));
}
