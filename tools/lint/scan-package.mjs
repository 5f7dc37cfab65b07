// The gate n8n runs before it verifies a community package, on this package, with no network:
// @n8n/scan-community-package's analyzePackage on the source and on the packed tarball (see
// community-scan.mjs), plus one check the scanner lacks: the tarball holds only what users
// need (dist/, package.json, README.md, LICENSE) and does hold the built nodes.
//
//   node tools/lint/scan-package.mjs                 pack the project (after `npm run build`), scan both legs
//   node tools/lint/scan-package.mjs <file.tgz>      scan a tarball packed elsewhere (tarball leg only)
//   node tools/lint/scan-package.mjs --source <dir>  scan a source folder (source leg only)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadScanner, scanLeg } from './community-scan.mjs';

const root = new URL('../..', import.meta.url).pathname;
const [first, second] = process.argv.slice(2);
const givenSource = first === '--source' ? resolve(second) : undefined;
const givenTarball = first && !givenSource ? resolve(first) : undefined;
const workDir = mkdtempSync(join(tmpdir(), 'scan-package-'));
const { scanner, dispose } = await loadScanner();
const problems = [];

function report(leg) {
	console.log(`scan-package: n8n scanner, ${leg.leg} leg: ${leg.passed ? 'passed' : 'FAILED'}`);
	if (!leg.passed) problems.push(`${leg.leg} leg: ${leg.message}\n${leg.details ?? ''}`);
}

/** The project packed (or the given tarball): its contents, then the scanner's legs. */
async function scanTarball() {
	let tarball = givenTarball;
	if (!tarball) {
		const packOutput = execFileSync('npm', ['pack', '--json', '--pack-destination', workDir], {
			cwd: root,
			encoding: 'utf8',
		});
		tarball = join(workDir, JSON.parse(packOutput)[0].filename);
	}

	const files = tarballFiles(tarball);
	const unexpected = files.filter((path) => !/^(dist\/|package\.json$|README\.md$|LICENSE$)/.test(path));
	if (unexpected.length > 0) problems.push(`the tarball holds files outside dist/: ${unexpected.join(', ')}`);
	if (!files.some((path) => path.startsWith('dist/nodes/'))) {
		problems.push('the tarball holds no dist/nodes: run `npm run build` first');
	}

	const extracted = join(workDir, 'package');
	execFileSync('tar', ['-xzf', tarball, '-C', workDir]);
	if (!givenTarball) report(await scanLeg(scanner, 'source', root));
	report(await scanLeg(scanner, 'tarball', extracted));
	console.log(`scan-package: ${files.length} files in ${tarball.split('/').pop()}, ${problems.length} problems`);
}

/** What `tar -tzf` lists, without the `package/` prefix npm puts before every path. */
function tarballFiles(tarball) {
	return execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
		.split('\n')
		.filter((line) => line && !line.endsWith('/'))
		.map((line) => line.replace(/^package\//, ''));
}

try {
	if (givenSource) {
		report(await scanLeg(scanner, 'source', givenSource));
	} else {
		await scanTarball();
	}
} finally {
	rmSync(workDir, { recursive: true, force: true });
	dispose();
}
for (const problem of problems) console.error(problem);
process.exit(problems.length ? 1 : 0);
