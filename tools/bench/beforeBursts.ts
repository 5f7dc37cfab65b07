/**
 * The messaging trigger as it was before Messages in Quick Succession (issue 47): the combined
 * package rebuilt with the trigger's code and description from the commit before the feature
 * (ae5b1f8's parent), under a package name of its own, installed in the bench's n8n beside the
 * real one (never published). The part "bursts" runs it beside this trigger with the option off,
 * so that "unchanged" is measured against the code before the feature, side by side in one n8n,
 * and not only against the same code with the parameter set differently.
 *
 * The feature changed four files under nodes/: trigger.ts and description.ts are taken from that
 * commit (transpiled as the build compiles them); bursts.ts is new and stays unused; the one
 * change to authentication.ts made a function exported. If the commit is not in the clone (a
 * shallow one), the copy is left out and the report says so.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

import { PACKAGE_NAME, packPackage } from '../n8n/communityPackage';
import { PROJECT_ROOT } from '../n8n/runtime';
import { repack } from '../n8n/tarball';

/** The commit before "Inbox trigger: Messages in Quick Succession → Gather Into One Run" (ae5b1f8). */
export const BEFORE_BURSTS_COMMIT = '89c4a657b2600a7608234b2dce5ecb543fa31499';

/** The files the feature changed on a delivery's path, as they were before it. */
const FILES = ['nodes/shared/chatAppMessaging/trigger/trigger.ts', 'nodes/shared/chatAppMessaging/trigger/description.ts'];

export const BEFORE_BURSTS = {
	packageName: `${PACKAGE_NAME}-bench-before-bursts`,
	nodeType: `${PACKAGE_NAME}-bench-before-bursts.chatAppMessagingTrigger`,
	label: `this trigger before the option (${BEFORE_BURSTS_COMMIT.slice(0, 7)}, bench copy)`,
};

/** A file as it was at the commit, or undefined when git cannot show it. */
function atCommit(file: string): string | undefined {
	const res = spawnSync('git', ['show', `${BEFORE_BURSTS_COMMIT}:${file}`], { cwd: PROJECT_ROOT, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
	return res.status === 0 ? res.stdout : undefined;
}

/**
 * Packs the copy into `dir` from the built combined package; returns it as one of n8n's extra
 * packages, or why it could not be made.
 */
export function packBeforeBursts(dir: string): { name: string; tarball: string } | { missing: string } {
	const sources = FILES.map((file) => ({ file, source: atCommit(file) }));
	const absent = sources.filter((s) => s.source === undefined).map((s) => s.file);
	if (absent.length) return { missing: `commit ${BEFORE_BURSTS_COMMIT.slice(0, 7)} is not in this clone (git show ${absent.join(', ')} failed)` };
	const combined = packPackage(path.join(dir, 'combined'));
	const tarball = repack(combined, path.join(dir, `${BEFORE_BURSTS.packageName}.tgz`), (packageDir) => {
		const manifest = path.join(packageDir, 'package.json');
		fs.writeFileSync(manifest, JSON.stringify({ ...JSON.parse(fs.readFileSync(manifest, 'utf8')), name: BEFORE_BURSTS.packageName }, null, 2) + '\n');
		for (const { file, source } of sources) {
			const target = path.join(packageDir, 'dist', file.replace(/\.ts$/, '.js'));
			if (!fs.existsSync(target)) throw new Error(`the built package has no ${path.relative(packageDir, target)}: update tools/bench/beforeBursts.ts`);
			const { outputText } = ts.transpileModule(source!, {
				compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
				fileName: path.basename(file),
			});
			fs.writeFileSync(target, outputText);
		}
	});
	return { name: BEFORE_BURSTS.packageName, tarball };
}
