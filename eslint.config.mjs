import tseslint from 'typescript-eslint';
import { communityScanConfig, SOURCE_SCOPE } from './test/lint/community-config.mjs';

export default [
	{ ignores: ['node_modules/**', 'dist/**', '.n8n-runtime/**', '.artifacts/**', 'coverage/**'] },
	// The published package: exactly what n8n's community-package scanner applies.
	...communityScanConfig(SOURCE_SCOPE),
	// Tests, the sandbox and tooling: ordinary TypeScript rules.
	...tseslint.configs.recommended.map((config) => ({
		...config,
		files: ['test/**/*.ts'],
	})),
	{
		files: ['test/**/*.ts'],
		rules: {
			'@typescript-eslint/no-explicit-any': 'off',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
		},
	},
];
