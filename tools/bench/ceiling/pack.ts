// Builds the ceiling fixture (BenchCeiling.node.ts, BenchCeilingApi.credentials.ts) into an
// installable package tarball for the bench's n8n. Never part of this package's dist.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

export const CEILING_PACKAGE: { name: string } = JSON.parse(fs.readFileSync(path.join(__dirname, 'package.json'), 'utf8'));
export const CEILING_NODE_TYPE = `${CEILING_PACKAGE.name}.benchCeiling`;
export const CEILING_CREDENTIAL_TYPE = 'benchCeilingApi';

/** Compiles the fixture into `<destDir>/package` and packs it; returns the tarball path. */
export function packCeilingPackage(destDir: string): string {
	const root = path.join(destDir, 'package');
	fs.rmSync(destDir, { recursive: true, force: true });
	fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
	for (const file of ['BenchCeiling.node.ts', 'BenchCeilingApi.credentials.ts']) {
		const source = fs.readFileSync(path.join(__dirname, file), 'utf8');
		const { outputText } = ts.transpileModule(source, {
			compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
			fileName: file,
		});
		fs.writeFileSync(path.join(root, 'dist', file.replace(/\.ts$/, '.js')), outputText);
	}
	fs.copyFileSync(path.join(__dirname, 'package.json'), path.join(root, 'package.json'));
	const tarball = path.join(destDir, `${CEILING_PACKAGE.name}.tgz`);
	const res = spawnSync('tar', ['-czf', tarball, '-C', destDir, 'package'], { encoding: 'utf8' });
	if (res.status !== 0) throw new Error(`packing the ceiling fixture failed: ${res.stderr}`);
	return tarball;
}
