/** Changed copies of the packed package, for tests that need another version or a broken one. */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

function tar(args: string[]): void {
	const res = spawnSync('tar', args, { encoding: 'utf8' });
	if (res.status !== 0) throw new Error(`tar ${args.join(' ')} failed: ${res.stderr}`);
}

/**
 * Extracts `tarball`, lets `edit` change the extracted `package/` folder, and packs it again
 * (as npm does: one `package/` folder, gzip) into `dest`. Returns `dest`.
 */
export function repack(tarball: string, dest: string, edit: (packageDir: string) => void): string {
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-repack-'));
	try {
		tar(['-xzf', tarball, '-C', work]);
		edit(path.join(work, 'package'));
		fs.mkdirSync(path.dirname(dest), { recursive: true });
		tar(['-czf', dest, '-C', work, 'package']);
		return dest;
	} finally {
		fs.rmSync(work, { recursive: true, force: true });
	}
}

/** An edit for repack: the package.json version set to `version`. */
export function withVersion(version: string): (packageDir: string) => void {
	return (dir) => {
		const file = path.join(dir, 'package.json');
		fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), version }, null, 2) + '\n');
	};
}
