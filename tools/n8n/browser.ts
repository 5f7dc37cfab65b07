/**
 * Debian's Chromium for the editor test (playwright-core drives it). Installed with apt-get the
 * first time when /usr/bin/chromium is missing: CI runs as root on a machine that reaches only
 * the npm registry and Debian's packages, and playwright's own browser download is not there.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';

import type { Log } from './runtime';

export const CHROMIUM_BIN = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';

/** Flags measured to work headless on these machines (see docs/development.md, "What the tools rely on in n8n"). */
export const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/** apt-get waits (up to 10 min) while another apt-get holds its lock: suites side by side may install at once. */
export const APT_WAITS_FOR_ITS_LOCK = ['-o', 'DPkg::Lock::Timeout=600'];

function run(cmd: string, args: string[], log: Log): Promise<void> {
	return new Promise((resolve, reject) => {
		log(`[chromium] ${cmd} ${args.join(' ')}`);
		const child = spawn(cmd, args, {
			stdio: ['ignore', 'pipe', 'pipe'],
			env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
		});
		let tail = '';
		const onData = (d: Buffer) => {
			const text = d.toString();
			tail = (tail + text).slice(-4000);
			for (const line of text.split('\n')) {
				// apt is chatty: show the lines that tell where it is
				if (/^(Get:|Fetched|Setting up chromium|Unpacking chromium|E:|Reading package lists)/.test(line)) {
					log(`[chromium]   ${line.trim()}`);
				}
			}
		};
		child.stdout.on('data', onData);
		child.stderr.on('data', onData);
		child.on('error', reject);
		child.on('exit', (code) =>
			code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}:\n${tail}`)),
		);
	});
}

/** Returns the Chromium executable, installing Debian's package first if it is missing. */
export async function ensureChromium(log: Log = (l) => process.stderr.write(l + '\n')): Promise<string> {
	if (fs.existsSync(CHROMIUM_BIN)) return CHROMIUM_BIN;
	if (process.getuid?.() !== 0) {
		throw new Error(
			`${CHROMIUM_BIN} is missing and this is not root: install it with \`sudo apt-get install -y chromium\``,
		);
	}
	const t0 = Date.now();
	log('[chromium] /usr/bin/chromium is missing: installing Debian\'s chromium (about 30 s) ...');
	await run('apt-get', ['update', ...APT_WAITS_FOR_ITS_LOCK], log);
	await run('apt-get', ['install', '-y', '--no-install-recommends', ...APT_WAITS_FOR_ITS_LOCK, 'chromium'], log);
	if (!fs.existsSync(CHROMIUM_BIN)) throw new Error(`apt-get installed chromium but ${CHROMIUM_BIN} is still missing`);
	log(`[chromium] installed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
	return CHROMIUM_BIN;
}

if (require.main === module) {
	ensureChromium().then(
		(bin) => console.log(bin),
		(err) => {
			console.error(err.message);
			process.exit(1);
		},
	);
}
