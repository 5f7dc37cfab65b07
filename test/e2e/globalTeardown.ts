// Stops what globalSetup started: n8n (and its task runner) and the sandbox.
import { teardownE2e } from '../n8n/e2e';

export default async function globalTeardown(): Promise<void> {
	await teardownE2e();
}
