/**
 * The compatibility matrix's results and the tables made from them. The smoke
 * (test/compat/smoke.compat.test.ts) writes one file per n8n version into .artifacts/compat/;
 * `npm run test:compat` (run.ts) merges them into docs/compatibility.json, the last results, and
 * writes the tables between the `compat:` markers of README.md and docs/compatibility.md.
 * test/tools/compat/docs.test.ts checks the documents against that file.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { MATRIX } from '../n8n/versions';

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
export const RESULTS_FILE = path.join(PROJECT_ROOT, 'docs', 'compatibility.json');
export const DOCUMENTS = { readme: path.join(PROJECT_ROOT, 'README.md'), compatibility: path.join(PROJECT_ROOT, 'docs', 'compatibility.md') };

/** What a check gave when it worked (anything else is what the user saw instead). */
export const WORKS = 'works';

export interface CheckResults {
	id: string;
	/** The table's column. */
	title: string;
	/** What it gave, by package name. */
	outcomes: Record<string, string>;
}

/** One n8n version's run of the smoke. */
export interface VersionResults {
	n8n: string;
	node: string;
	/** When the run started (ISO). */
	ranAt: string;
	/** Whether the smoke passed: each check gave what this version must give. */
	passed: boolean;
	checks: CheckResults[];
}

/** The smoke's results file for one version. */
export function compatResultFile(version: string): string {
	return path.join(PROJECT_ROOT, '.artifacts', 'compat', `${version}.json`);
}

/** The last results of every version run so far, in the matrix's order. */
export function readResults(file = RESULTS_FILE): VersionResults[] {
	return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { versions: VersionResults[] }).versions : [];
}

/** `previous` with `latest` put in place of the same versions', kept to the matrix's versions and order. */
export function mergeResults(previous: VersionResults[], latest: VersionResults[]): VersionResults[] {
	const byVersion = new Map([...previous, ...latest].map((entry) => [entry.n8n, entry]));
	return MATRIX.flatMap(({ n8n }) => byVersion.get(n8n) ?? []);
}

/** The packages' short names in the table. */
const SHORT: Record<string, string> = {
	'n8n-nodes-timeline-navigation': 'combined',
	'n8n-nodes-chat-app-messaging': 'messaging',
	'n8n-nodes-timeline-navigation-service': 'timeline',
};
const short = (name: string) => SHORT[name] ?? name;

/**
 * A cell's words for what a check gave: ✓; "says: needs n8n 1.107" for the node's refusal; on a
 * version whose smoke passed, any other answer was the one expected there (n8n's own refusal),
 * else a failure.
 */
function cellWords(outcome: string, passed: boolean): string {
	if (outcome === WORKS) return '✓';
	const needs = outcome.match(/needs n8n ([\d.]+) or newer/);
	if (needs) return `says: needs n8n ${needs[1]}`;
	return passed ? 'n8n refuses' : '✗';
}

function cell(check: CheckResults | undefined, passed: boolean): string {
	if (!check) return '—';
	const outcomes = Object.entries(check.outcomes);
	const words = new Set(outcomes.map(([, outcome]) => cellWords(outcome, passed)));
	if (words.size === 1) return [...words][0];
	return outcomes.map(([name, outcome]) => `${short(name)} ${cellWords(outcome, passed)}`).join(', ');
}

const day = (iso: string) => iso.slice(0, 10);

/** The columns, in the order the last run gave them. */
function columns(results: VersionResults[]): Array<{ id: string; title: string }> {
	const seen = new Map<string, string>();
	for (const version of results) for (const check of version.checks) if (!seen.has(check.id)) seen.set(check.id, check.title);
	return [...seen].map(([id, title]) => ({ id, title }));
}

/** The matrix as a Markdown table: a row per version, a column per check, ✓ where every package that has it passed. */
export function resultsTable(results: VersionResults[]): string {
	const cols = columns(results);
	const role = (n8n: string) => MATRIX.find((entry) => entry.n8n === n8n)?.role;
	const rows = results.map((version) => {
		const name = role(version.n8n) ? `**${version.n8n}** (${role(version.n8n)})` : version.n8n;
		return `| ${name} | ${version.node} | ${cols.map((col) => cell(version.checks.find((check) => check.id === col.id), version.passed)).join(' | ')} |`;
	});
	return [`| n8n | Node | ${cols.map((col) => col.title).join(' | ')} |`, `|---|---|${cols.map(() => '---').join('|')}|`, ...rows].join('\n');
}

/** Where a check gave anything but WORKS: the version, the package and the words, as the user read them. */
export function resultsDetails(results: VersionResults[]): string {
	const lines = results.flatMap((version) =>
		version.checks.flatMap((check) =>
			Object.entries(check.outcomes)
				.filter(([, outcome]) => outcome !== WORKS)
				.map(([name, outcome]) => `- n8n ${version.n8n}, ${check.title}, ${name}: "${outcome.replace(/\s+/g, ' ')}"`),
		),
	);
	return lines.length > 0 ? lines.join('\n') : '- none: every check worked on every version';
}

/** The oldest version of the matrix (at or above the package's floor) from which `check` worked for every package on every later version. */
function floorOf(results: VersionResults[], id: string): string | undefined {
	const belowTheFloor = new Set(MATRIX.filter((entry) => entry.role === 'below the floor').map((entry) => entry.n8n));
	let floor: string | undefined;
	for (const version of [...results].reverse().filter((entry) => !belowTheFloor.has(entry.n8n))) {
		const check = version.checks.find((c) => c.id === id);
		if (!check || !Object.values(check.outcomes).every((outcome) => outcome === WORKS)) break;
		floor = version.n8n;
	}
	return floor;
}

/** The run's line: when, which versions, on which Node. */
export function resultsHeading(results: VersionResults[]): string {
	const days = [...new Set(results.map((version) => day(version.ranAt)))].sort();
	const when = days.length > 1 ? `${days[0]} to ${days.at(-1)}` : days[0];
	const failed = results.filter((version) => !version.passed).map((version) => version.n8n);
	return (
		`Measured by \`npm run test:compat\` on ${when}, on ${results.length} n8n versions (${results[0]?.n8n} to ${results.at(-1)?.n8n}), ` +
		`each package installed with \`npm install <package> --legacy-peer-deps\` in n8n's user folder` +
		(failed.length > 0 ? `; the smoke failed on ${failed.join(', ')}.` : '.')
	);
}

/** Each check's oldest version of the matrix from which it works on every version after. */
export function featureFloors(results: VersionResults[]): string {
	return columns(results)
		.map((col) => `${col.title}: ${floorOf(results, col.id) ?? 'not on the newest version'}`)
		.join('; ');
}

/** `document` with the text between `<!-- compat:<name> -->` and `<!-- /compat:<name> -->` replaced by `content`. */
export function withGenerated(document: string, name: string, content: string): string {
	const start = `<!-- compat:${name} -->`;
	const end = `<!-- /compat:${name} -->`;
	const from = document.indexOf(start);
	const to = document.indexOf(end);
	if (from === -1 || to < from) throw new Error(`the document has no ${start} … ${end} block`);
	return `${document.slice(0, from + start.length)}\n${content}\n${document.slice(to)}`;
}

/** The generated blocks of each document, from `results`. */
export function generatedBlocks(results: VersionResults[]): Record<keyof typeof DOCUMENTS, Record<string, string>> {
	const table = resultsTable(results);
	const heading = resultsHeading(results);
	const floors = `The oldest version of the list from which each works on every later one: ${featureFloors(results)}.`;
	return {
		readme: { table: `${heading}\n\n${table}\n\n${floors}` },
		compatibility: { table: `${heading}\n\n${table}\n\n${floors}`, details: resultsDetails(results) },
	};
}

/** Writes the results file and the documents' generated blocks. */
export function writeResults(results: VersionResults[]): void {
	fs.writeFileSync(RESULTS_FILE, JSON.stringify({ versions: results }, null, 2) + '\n');
	const blocks = generatedBlocks(results);
	for (const [document, file] of Object.entries(DOCUMENTS) as Array<[keyof typeof DOCUMENTS, string]>) {
		let text = fs.readFileSync(file, 'utf8');
		for (const [name, content] of Object.entries(blocks[document])) text = withGenerated(text, name, content);
		fs.writeFileSync(file, text);
	}
}
