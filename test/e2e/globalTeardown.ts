// Stops what globalSetup started for this jest project: n8n (and its task runner) and the sandbox.
import type { Config } from 'jest';

import { e2eRuntime, teardownE2e } from './environment';

export default async function globalTeardown(_global: unknown, project: Config): Promise<void> {
	await teardownE2e(e2eRuntime(project.globals?.E2E_N8N), project.globals?.E2E_SUITE);
}
