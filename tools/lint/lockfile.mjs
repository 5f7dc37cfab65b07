// The release workflow (.github/workflows/publish.yml) installs with `npm ci`, which refuses a
// package-lock.json that does not hold every package package.json asks for, optional platform
// packages included ("Missing: <name>@ from lock file"); `npm install` does not mind, so nothing
// else notices. This asks npm itself: `npm ci --dry-run` validates the lock file as `npm ci`
// does, without network and without touching node_modules (about a second).
//
//   node tools/lint/lockfile.mjs          this project
//   node tools/lint/lockfile.mjs <dir>    a folder holding package.json and package-lock.json
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const dir = resolve(process.argv[2] ?? new URL('../..', import.meta.url).pathname);
// without an outer `npm run`'s variables: they would carry its config into this npm
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
const ci = spawnSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, env, encoding: 'utf8' });
if (ci.status === 0) {
	console.log('lockfile: npm ci accepts package-lock.json');
} else {
	const reasons = `${ci.stdout}\n${ci.stderr}`.split('\n').filter((line) => /Missing:|Invalid:|in sync|ENOLOCK/.test(line));
	console.error(
		`lockfile: npm ci refuses package-lock.json, so the release workflow would stop at its install:\n` +
			`${(reasons.length > 0 ? reasons : [ci.stderr.trim()]).map((line) => `  ${line.replace(/^npm error /, '')}`).join('\n')}\n` +
			'Run `npm install` and commit package-lock.json; a package the registry lacks at the version asked for stays missing: pin a version it holds.',
	);
	process.exit(1);
}
