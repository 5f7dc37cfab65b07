// The gate n8n runs before it verifies a community package, on each package this project
// builds, with no network: @n8n/scan-community-package's analyzePackage on the source and on
// each packed tarball (see community-scan.mjs), plus one check the scanner lacks: a tarball
// holds only what users need (dist/, package.json, README.md, LICENSE) and does hold the built
// nodes.
//
//   node tools/lint/scan-package.mjs                 pack each package of dist-packages/ (after `npm run build`), scan the source and each tarball
//   node tools/lint/scan-package.mjs <file.tgz>      scan a tarball packed elsewhere (tarball leg only)
//   node tools/lint/scan-package.mjs --source <dir>  scan a source folder (source leg only)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
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

function report(leg, what = '') {
	console.log(`scan-package: n8n scanner, ${leg.leg} leg${what ? ` (${what})` : ''}: ${leg.passed ? 'passed' : 'FAILED'}`);
	if (!leg.passed) problems.push(`${leg.leg} leg: ${leg.message}\n${leg.details ?? ''}`);
}

/** A package folder packed as npm packs it. */
function pack(folder) {
	const packOutput = execFileSync('npm', ['pack', '--json', '--pack-destination', workDir], { cwd: folder, encoding: 'utf8' });
	return join(workDir, JSON.parse(packOutput)[0].filename);
}

/** A tarball's contents, then the scanner's tarball leg. */
async function scanTarball(tarball) {
	const files = tarballFiles(tarball);
	const unexpected = files.filter((path) => !/^(dist\/|package\.json$|README\.md$|LICENSE$)/.test(path));
	if (unexpected.length > 0) problems.push(`the tarball holds files outside dist/: ${unexpected.join(', ')}`);
	if (!files.some((path) => path.startsWith('dist/nodes/'))) {
		problems.push('the tarball holds no dist/nodes: run `npm run build` first');
	}

	const extractTo = mkdtempSync(join(workDir, 'extract-'));
	execFileSync('tar', ['-xzf', tarball, '-C', extractTo]);
	report(await scanLeg(scanner, 'tarball', join(extractTo, 'package')), tarball.split('/').pop());
	console.log(`scan-package: ${files.length} files in ${tarball.split('/').pop()}, ${problems.length} problems so far`);
}

/** The source, then every package dist-packages/ holds. */
async function scanProject() {
	report(await scanLeg(scanner, 'source', root));
	const packagesDir = join(root, 'dist-packages');
	const folders = existsSync(packagesDir) ? readdirSync(packagesDir).map((name) => join(packagesDir, name)) : [];
	if (folders.length === 0) problems.push('dist-packages/ holds no package: run `npm run build` first');
	for (const folder of folders) await scanTarball(pack(folder));
}

/** What `tar -tzf` lists, without the `package/` prefix npm puts before every path. */
function tarballFiles(tarball) {
	return execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
		.split('\n')
		.filter((line) => line && !line.endsWith('/'))
		.map((line) => line.replace(/^package\//, ''));
}

try {
	if (givenSource) report(await scanLeg(scanner, 'source', givenSource));
	else if (givenTarball) await scanTarball(givenTarball);
	else await scanProject();
} finally {
	rmSync(workDir, { recursive: true, force: true });
	dispose();
}
for (const problem of problems) console.error(problem);
process.exit(problems.length ? 1 : 0);
