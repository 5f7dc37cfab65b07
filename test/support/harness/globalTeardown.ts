import { rmSync } from 'node:fs';

export default function globalTeardown(): void {
	const folder = process.env.N8N_USER_FOLDER;
	if (folder?.includes('n8n-harness-')) rmSync(folder, { recursive: true, force: true });
}
