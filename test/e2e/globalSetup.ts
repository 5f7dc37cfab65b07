// Starts the sandbox and a real n8n for the e2e suite (see test/n8n/e2e.ts).
import { setupE2e } from '../n8n/e2e';

export default async function globalSetup(): Promise<void> {
	await setupE2e();
}
