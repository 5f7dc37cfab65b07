// The lint step that stands for the release workflow's `npm ci`: it passes on this project's
// lock file and fails, naming the package, on a copy with one entry taken out (the way the
// lock file once lacked git-cliff's platform packages, and publish.yml stopped at its install).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../support/harness';

const CHECK = join(PROJECT_ROOT, 'tools', 'lint', 'lockfile.mjs');

function check(dir?: string) {
	const run = spawnSync(process.execPath, [CHECK, ...(dir ? [dir] : [])], { encoding: 'utf8' });
	return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

let copy: string;

beforeEach(() => {
	copy = mkdtempSync(join(tmpdir(), 'lockfile-check-'));
	for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(PROJECT_ROOT, file), join(copy, file));
});

afterEach(() => rmSync(copy, { recursive: true, force: true }));

it("passes on the project's package-lock.json", () => {
	expect(check()).toEqual({ status: 0, output: 'lockfile: npm ci accepts package-lock.json\n' });
});

it('fails on a lock file without one optional platform package, naming it', () => {
	const lockFile = join(copy, 'package-lock.json');
	const lock = JSON.parse(readFileSync(lockFile, 'utf8'));
	const { version } = lock.packages['node_modules/git-cliff-darwin-arm64'];
	delete lock.packages['node_modules/git-cliff-darwin-arm64'];
	writeFileSync(lockFile, JSON.stringify(lock, null, 2));

	const { status, output } = check(copy);
	expect(status).toBe(1);
	expect(output).toContain('lockfile: npm ci refuses package-lock.json, so the release workflow would stop at its install:');
	expect(output).toContain(`  Missing: git-cliff-darwin-arm64@${version} from lock file`);
});
