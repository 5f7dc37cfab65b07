/**
 * What the action node's credential cache buys (nodes/shared/execution.ts, `Execution.credential`:
 * the credential is loaded and decrypted once per execution and service; without it, once per
 * request): the combined package rebuilt without it, under a package name of its own, installed
 * in the bench's n8n beside the real one (never published). The sends parts run this copy on the
 * node's default path, alternating with the real node, so the report's ratio "this node /
 * without the cache" is the cache's gain measured side by side.
 *
 * The copy is the built JavaScript with one piece of code changed so that the cache never finds
 * its entry; if the built code no longer holds that piece, the bench stops and says so.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { PACKAGE_NAME, packPackage } from '../n8n/communityPackage';
import { repack } from '../n8n/tarball';

export interface UncachedVariant {
	/** The bench's key for its runs. */
	key: 'nodeNoCredentialCache';
	label: string;
	/** Its package name, and the action node's type in it. */
	packageName: string;
	nodeType: string;
	/** The built file, the code in it that finds a cached entry, and what replaces it to miss every time. */
	file: string;
	lookup: string;
	miss: string;
}

export const UNCACHED_VARIANTS: readonly UncachedVariant[] = [
	{
		key: 'nodeNoCredentialCache',
		label: 'this node without its credential cache (bench copy)',
		packageName: `${PACKAGE_NAME}-bench-no-credential-cache`,
		nodeType: `${PACKAGE_NAME}-bench-no-credential-cache.timelineNavigation`,
		file: 'dist/nodes/shared/execution.js',
		lookup: 'let credential = this.credentials.get(service);',
		miss: 'let credential = undefined;',
	},
];

/** Packs each copy into `dir` from the built combined package; returns them as n8n's extra packages. */
export function packUncachedVariants(dir: string): Array<{ name: string; tarball: string }> {
	const combined = packPackage(path.join(dir, 'combined'));
	return UNCACHED_VARIANTS.map((variant) => {
		const tarball = repack(combined, path.join(dir, `${variant.packageName}.tgz`), (packageDir) => {
			const manifest = path.join(packageDir, 'package.json');
			fs.writeFileSync(manifest, JSON.stringify({ ...JSON.parse(fs.readFileSync(manifest, 'utf8')), name: variant.packageName }, null, 2) + '\n');
			const file = path.join(packageDir, variant.file);
			const code = fs.readFileSync(file, 'utf8');
			if (!code.includes(variant.lookup)) throw new Error(`${variant.file} no longer holds "${variant.lookup}": update tools/bench/uncached.ts`);
			fs.writeFileSync(file, code.replace(variant.lookup, variant.miss));
		});
		return { name: variant.packageName, tarball };
	});
}
