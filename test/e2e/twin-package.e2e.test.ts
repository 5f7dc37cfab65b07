/**
 * n8n's table of installed nodes is keyed by the node's display name: a package with a node of the
 * same display name as an installed package's node is refused by Settings → Community Nodes, and
 * the installed package keeps working. What n8n answers differs: n8n 2.x rolls the install back;
 * n8n 1.123 answers with its generic text for a unique-constraint error and keeps the package's
 * files in the user folder. Hence the editions' node display names differ from the combined
 * package's (two-packages.e2e.test.ts installs the three together).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { StoredCredential } from '../../tools/n8n/client';
import { sandboxCredentials } from '../../tools/n8n/sandboxCredentials';
import { repack } from '../../tools/n8n/tarball';
import { installThroughSettings, installedManifest, registrySetup, servedNodeTypes, type InstalledPackage } from './communityNodes';
import { tryUses, usesOf, working } from './credentialUse';
import { COMBINED, nodeTypesOf } from './shippedPackages';
import { env } from './support';

jest.setTimeout(300_000);

const setup = registrySetup({ logName: 'twin-package', publish: [COMBINED] });
const { runtime } = setup;
const twin = `${COMBINED.name}-twin`;

const TWIN_REFUSAL = runtime.n8nVersion.startsWith('1.')
	? { message: () => 'There is already an entry with this name', filesLeft: true }
	: {
			message: (name: string) =>
				`Error loading package "${name}" :Failed to save installed package\nCause: SQLITE_CONSTRAINT: UNIQUE constraint failed: installed_nodes.name`,
			filesLeft: false,
		};

/** The sandbox credentials, saved once the combined package is installed. */
let saved: StoredCredential[] = [];

beforeAll(async () => {
	const res = await installThroughSettings(setup.n8n, COMBINED.name);
	expect({ status: res.status, message: res.body?.message }).toEqual({ status: 200, message: undefined });
	saved = await setup.n8n.importCredentials(sandboxCredentials(env.sandbox));
});

/** An edit for repack: the package.json name set to `name`, nothing else changed. */
function renamed(name: string): (packageDir: string) => void {
	return (dir) => {
		const file = path.join(dir, 'package.json');
		fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), name }, null, 2) + '\n');
	};
}

test(`on n8n ${runtime.n8nVersion}, a package with a node of the same display name as ${COMBINED.name}'s is refused by Settings → Community Nodes, and ${COMBINED.name} keeps working`, async () => {
	setup.registry.publish(repack(setup.tarballs.get(COMBINED.name)!, path.join(setup.scratch, `${twin}.tgz`), renamed(twin)));
	const res = await installThroughSettings(setup.n8n, twin);
	expect({ status: res.status, message: res.body?.message }).toEqual({ status: 500, message: TWIN_REFUSAL.message(twin) });
	expect({ filesLeft: installedManifest(setup.n8n, twin) !== undefined }).toEqual({ filesLeft: TWIN_REFUSAL.filesLeft });
	expect((await setup.n8n.rest('GET', '/community-packages')).body.map((p: InstalledPackage) => p.packageName)).toEqual([COMBINED.name]);
	const types = nodeTypesOf([COMBINED]);
	expect(await servedNodeTypes(setup.n8n, types, types)).toEqual([...types].sort());
	const uses = usesOf([COMBINED], saved);
	expect(await tryUses(setup.n8n, uses, `Saved credentials in ${COMBINED.name}`)).toEqual(working(uses));
});
