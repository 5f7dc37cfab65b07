// The first `npm start` installs n8n for minutes: its heartbeat line must move while npm fetches,
// say when npm is past fetching, and count only the packages this machine installs.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { installProgress, lockedPackageCount } from '../../../tools/n8n/runtime';

const fetchLine = (url: string) => `npm http fetch GET 200 ${url} 412ms (cache miss)`;

describe('the n8n install progress', () => {
	it('counts the tarballs npm has fetched, not the package metadata or other lines', () => {
		const log = [
			'=== 2026-11-24T01:09:17.823Z step 2/3 n8n 2.41.1: npm install --loglevel=http',
			fetchLine('https://registry.npmjs.org/tsx'),
			fetchLine('https://registry.npmjs.org/tsx/-/tsx-4.23.15.tgz'),
			fetchLine('https://registry.npmjs.org/@esbuild/linux-x64/-/linux-x64-0.28.2.tgz'),
			'npm warn deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported',
		].join('\n');
		expect(installProgress(log, 2370)).toBe('2 of 2370 packages fetched');
		expect(installProgress(log + '\n' + fetchLine('https://registry.npmjs.org/n8n/-/n8n-2.41.1.tgz'), 2370)).toBe('3 of 2370 packages fetched');
		expect(installProgress(log, undefined)).toBe('2 packages fetched');
	});

	it('names the step after the last fetch: npm is writing node_modules', () => {
		const log = ['a', 'b', 'c'].map((name) => fetchLine(`https://registry.npmjs.org/${name}/-/${name}-1.0.0.tgz`)).join('\n');
		expect(installProgress(log, 3)).toBe('all 3 packages fetched; npm is writing node_modules');
	});

	it('counts the packages of the lock that npm installs here: not the other platforms\' nor the extraneous', () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lock-count-'));
		const lockFile = path.join(dir, 'package-lock.json');
		fs.writeFileSync(
			lockFile,
			JSON.stringify({
				lockfileVersion: 3,
				packages: {
					'': { name: 'root' },
					'node_modules/esbuild': { version: '0.28.2' },
					'node_modules/@esbuild/linux-x64': { os: ['linux'], cpu: ['x64'], optional: true },
					'node_modules/@esbuild/darwin-arm64': { os: ['darwin'], cpu: ['arm64'], optional: true },
					'node_modules/@esbuild/linux-x64-musl': { os: ['linux'], cpu: ['x64'], libc: ['musl'], optional: true },
					'node_modules/not-on-windows': { os: ['!win32'] },
					'node_modules/linked': { link: true },
					'node_modules/left-over': { version: '1.0.0', extraneous: true },
				},
			}),
		);
		try {
			expect(lockedPackageCount(lockFile, { os: 'linux', cpu: 'x64', libc: 'glibc' })).toBe(3);
			expect(lockedPackageCount(lockFile, { os: 'darwin', cpu: 'arm64', libc: 'glibc' })).toBe(3);
			expect(lockedPackageCount(path.join(dir, 'missing.json'))).toBeUndefined();
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});
});
