import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import tseslint from 'typescript-eslint';
import { loadScanner } from './tools/lint/community-scan.mjs';

// The published package (package.json, nodes/, credentials/): the rule set of n8n's own
// community-package scanner, taken from the scanner itself (its buildScanConfig), limited to
// the files its source leg scans. `npm run lint` also runs the scanner as n8n does
// (tools/lint/scan-package.mjs); this copy gives the same findings in `eslint .` and editors.
const { scanner, dispose } = await loadScanner();
const scanConfig = await scanner.buildScanConfig();
dispose();
const SOURCE = scanner.SOURCE_FILE_PATTERNS;
/** Each config only where it meets the scanner's source files (a nested array is an AND). */
const onSource = (config) => ({
	...config,
	files: config.files ? config.files.flatMap((own) => SOURCE.map((src) => [src, own])) : SOURCE,
});

// What the scanner lacks: the rules that the newer @n8n/eslint-plugin-community-nodes pinned
// here recommends and the scanner's own (older) copy does not have yet (in 0.32.0 against
// 0.29.0: no-unsafe-connection-type-cast), under a namespace of their own.
const SCANNER_NAMESPACE = '@n8n/community-nodes/';
const scannerRules = new Set(scanConfig.flatMap((config) => Object.keys(config.rules ?? {})));
const newerRules = Object.entries(n8nCommunityNodesPlugin.configs.recommended.rules)
	.filter(([name]) => name.startsWith(SCANNER_NAMESPACE) && !scannerRules.has(name))
	.map(([name, level]) => [`community-nodes-next/${name.slice(SCANNER_NAMESPACE.length)}`, level]);

/** What is not shipped: the tests and the development tools (sandbox, n8n runtimes, bench, ...). */
const DEVELOPMENT = ['test/**/*.ts', 'tools/**/*.ts'];

export default [
	{ ignores: ['node_modules/**', 'dist/**', '.n8n-runtime/**', '.artifacts/**', 'coverage/**'] },
	...scanConfig.map(onSource),
	{
		files: SOURCE,
		plugins: { 'community-nodes-next': n8nCommunityNodesPlugin },
		rules: Object.fromEntries(newerRules),
	},
	// Tests and the development tools: ordinary TypeScript rules.
	...tseslint.configs.recommended.map((config) => ({
		...config,
		files: DEVELOPMENT,
	})),
	{
		files: DEVELOPMENT,
		rules: {
			'@typescript-eslint/no-explicit-any': 'off',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
		},
	},
];
