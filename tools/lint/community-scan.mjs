// n8n's own community-package scanner, @n8n/scan-community-package (pinned), called the way
// its analyzePackageByName calls it once it has downloaded a package: analyzePackage on the
// source (package.json, nodes/, credentials/) and on the published tarball (built JS and
// package.json). analyzePackage lints local folders and needs no network; only the
// download-by-name around it (provenance, GitHub source, npm pack) does, so that part is
// not used here.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const SCANNER_MODULE = require.resolve('@n8n/scan-community-package/scanner/scanner.mjs');

/**
 * The scanner module. Importing it creates a temporary folder (for downloads) that it never
 * removes: point TMPDIR at a folder of our own while it loads, and remove that afterwards.
 */
export async function loadScanner() {
	const scratch = mkdtempSync(join(tmpdir(), 'n8n-scanner-'));
	const saved = process.env.TMPDIR;
	process.env.TMPDIR = scratch;
	try {
		const scanner = await import(SCANNER_MODULE);
		return { scanner, dispose: () => rmSync(scratch, { recursive: true, force: true }) };
	} finally {
		if (saved === undefined) delete process.env.TMPDIR;
		else process.env.TMPDIR = saved;
	}
}

/** The two legs n8n runs: source folder, then the extracted tarball. */
export const SCAN_LEGS = {
	source: (scanner) => scanner.SOURCE_FILE_PATTERNS,
	tarball: () => ['**/*.js', 'package.json'],
};

/**
 * Runs one leg on a folder. The scanner reports "passed" with the message "No files found to
 * analyze" when its patterns match nothing: that counts as a failure here.
 */
export async function scanLeg(scanner, leg, dir) {
	const result = await scanner.analyzePackage(dir, SCAN_LEGS[leg](scanner));
	const nothingScanned = result.passed && result.message;
	return {
		leg,
		dir,
		passed: result.passed && !nothingScanned,
		message: nothingScanned ? `nothing scanned in ${dir}: ${result.message}` : result.message,
		details: result.details,
	};
}
