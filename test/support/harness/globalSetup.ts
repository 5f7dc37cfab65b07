// One temporary n8n user folder for the whole jest run (n8n-core writes an encryption key
// into it), shared by every worker through the environment and removed at the end.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function globalSetup(): void {
	process.env.N8N_USER_FOLDER = mkdtempSync(join(tmpdir(), 'n8n-harness-'));
}
