// Starts the sandbox and a real n8n for the e2e suite (see test/e2e/environment.ts): once per jest
// project, on the n8n its `globals.E2E_N8N` names.
import type { Config } from 'jest';

import { e2eRuntime, setupE2e } from './environment';

export default async function globalSetup(_global: unknown, project: Config): Promise<void> {
	await setupE2e(e2eRuntime(project.globals?.E2E_N8N), project.globals?.E2E_SUITE);
}
