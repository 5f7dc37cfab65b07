/**
 * n8n's own gate before it verifies a community package, @n8n/scan-community-package, on what
 * this project publishes: its source leg (package.json, nodes/, credentials/) and the tarball leg
 * of each of the three packages (the packed JS and package.json), through
 * tools/lint/scan-package.mjs as `npm run lint` runs it. Each leg passes on the real packages and
 * fails on a copy with one planted violation, so a scanner that scanned nothing could not pass.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { packPackage } from '../../tools/n8n/communityPackage';
import { PACKAGES } from '../../tools/packages/packages';
import { PROJECT_ROOT } from '../../tools/n8n/runtime';
import { repack } from '../../tools/n8n/tarball';

jest.setTimeout(180_000);

const SCAN = path.join(PROJECT_ROOT, 'tools', 'lint', 'scan-package.mjs');
/** What a node must not do: read the environment (the scanner's no-restricted-globals rule). */
const PLANTED = '\nexport const leaked = () => process.env.HOME;\n';

let scratch: string;
/** The combined package, which the planted copies start from. */
let tarball: string;

function scan(args: string[]): { code: number | null; output: string } {
	// without jest's NODE_ENV=test: eslint-plugin-n8n-nodes-base reads file names differently then
	const env = { ...process.env };
	delete env.NODE_ENV;
	const res = spawnSync(process.execPath, [SCAN, ...args], { cwd: PROJECT_ROOT, encoding: 'utf8', env });
	return { code: res.status, output: `${res.stdout}\n${res.stderr}` };
}

beforeAll(() => {
	scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-scanner-'));
	tarball = packPackage(scratch);
});

const passedLine = (file: string) => new RegExp(`tarball leg \\(${file.replace(/\./g, '\\.')}\\): passed`);

afterAll(() => {
	if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe("n8n's community-package scanner", () => {
	test.each(PACKAGES.map((definition) => definition.name))('tarball leg: %s, packed, passes', (name) => {
		const packed = packPackage(scratch, PROJECT_ROOT, name);
		const result = scan([packed]);
		expect(result.output).toMatch(passedLine(path.basename(packed)));
		expect(result.code).toBe(0);
	});

	test('tarball leg: the same tarball with a node reading process.env fails, naming the rule and the file', () => {
		const broken = repack(tarball, path.join(scratch, 'broken-js.tgz'), (dir) => {
			const node = path.join(dir, 'dist', 'nodes', 'TimelineNavigation', 'TimelineNavigation.node.js');
			fs.appendFileSync(node, PLANTED.replace('export const leaked =', 'exports.leaked ='));
		});
		const result = scan([broken]);
		expect(result.code).toBe(1);
		expect(result.output).toMatch(/tarball leg \(broken-js\.tgz\): FAILED/);
		expect(result.output).toContain('no-restricted-globals');
		expect(result.output).toContain('TimelineNavigation.node.js');
	});

	test('contents: a tarball carrying files outside dist/ fails (a check the scanner lacks)', () => {
		const extra = repack(tarball, path.join(scratch, 'extra-file.tgz'), (dir) => {
			fs.mkdirSync(path.join(dir, 'src'));
			fs.writeFileSync(path.join(dir, 'src', 'notes.ts'), 'export {};\n');
		});
		const result = scan([extra]);
		expect(result.code).toBe(1);
		expect(result.output).toMatch(passedLine('extra-file.tgz'));
		expect(result.output).toContain('files outside dist/: src/notes.ts');
	});

	test('source leg: package.json, nodes/ and credentials/ pass; a copy with the planted line fails', () => {
		const clean = scan(['--source', PROJECT_ROOT]);
		expect(clean.output).toContain('source leg: passed');
		expect(clean.code).toBe(0);

		const copy = path.join(scratch, 'source');
		for (const entry of ['package.json', 'nodes', 'credentials']) {
			fs.cpSync(path.join(PROJECT_ROOT, entry), path.join(copy, entry), { recursive: true });
		}
		fs.appendFileSync(path.join(copy, 'nodes', 'TimelineNavigation', 'TimelineNavigation.node.ts'), PLANTED);
		const broken = scan(['--source', copy]);
		expect(broken.code).toBe(1);
		expect(broken.output).toContain('source leg: FAILED');
		expect(broken.output).toContain('no-restricted-globals');
	});
});
