// The second leg of n8n's community-package scan: pack the package as npm would publish it,
// check that the tarball holds only what users need, and lint its compiled JS and
// package.json with inline disables ignored. Run after `npm run build`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { communityScanConfig } from './community-config.mjs';

const root = new URL('../..', import.meta.url).pathname;
const workDir = mkdtempSync(join(tmpdir(), 'scan-package-'));
let failed = false;

try {
	const packOutput = execFileSync('npm', ['pack', '--json', '--pack-destination', workDir], {
		cwd: root,
		encoding: 'utf8',
	});
	const [{ filename, files }] = JSON.parse(packOutput);
	const unexpected = files
		.map((file) => file.path)
		.filter((path) => !/^(dist\/|package\.json$|README\.md$|LICENSE$)/.test(path));
	if (unexpected.length > 0) {
		console.error(`npm pack would publish files outside dist/: ${unexpected.join(', ')}`);
		failed = true;
	}
	if (!files.some((file) => file.path.startsWith('dist/nodes/'))) {
		console.error('npm pack holds no dist/nodes: run `npm run build` first.');
		failed = true;
	}

	const extracted = join(workDir, 'package');
	execFileSync('tar', ['-xzf', join(workDir, filename), '-C', workDir]);
	const eslint = new ESLint({
		cwd: extracted,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: communityScanConfig(['**/*.js', 'package.json']),
	});
	const jsFiles = readdirSync(extracted, { recursive: true })
		.filter((path) => path.endsWith('.js') || path === 'package.json')
		.map((path) => join(extracted, path));
	const results = await eslint.lintFiles(jsFiles);
	const errorCount = results.reduce((sum, result) => sum + result.errorCount, 0);
	if (errorCount > 0) {
		const formatter = await eslint.loadFormatter('stylish');
		console.error(await formatter.format(results));
		failed = true;
	}
	console.log(
		`scan-package: ${files.length} files packed, ${jsFiles.length} linted, ${errorCount} errors`,
	);
} finally {
	rmSync(workDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
