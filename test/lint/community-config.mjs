// The lint n8n runs before it verifies a community package (@n8n/scan-community-package):
// the community-nodes recommended rules, no-console, and the eslint-plugin-n8n-nodes-base
// community / credentials / nodes rule sets, with the same few rules switched off.
// `scope` limits where it applies, so tests and tooling (which may use process, timers and
// node:http) are not held to rules meant for the published package.
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import tsParser from '@typescript-eslint/parser';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

export function communityScanConfig(scope) {
	const { ignores: _ignores, ...recommended } = n8nCommunityNodesPlugin.configs.recommended;
	return [
		{ ...recommended, files: scope },
		{ files: scope, rules: { 'no-console': 'error' } },
		{ plugins: { 'n8n-nodes-base': n8nNodesBase } },
		{ files: ['package.json'], rules: { ...n8nNodesBase.configs.community.rules } },
		{
			files: ['**/credentials/**/*.ts'],
			rules: {
				...n8nNodesBase.configs.credentials.rules,
				'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
				'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
			},
		},
		{
			files: ['**/nodes/**/*.ts'],
			rules: {
				...n8nNodesBase.configs.nodes.rules,
				'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
				'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
				'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
			},
		},
		{ files: ['**/*.json'], languageOptions: { parser: tsParser } },
		{ files: ['**/*.ts'], languageOptions: { parser: tsParser } },
	];
}

/** What the scanner lints in the source checkout. */
export const SOURCE_SCOPE = ['package.json', '{nodes,credentials}/**/*.{js,ts,json}'];
