/**
 * `npm start`: the sandbox and a real n8n with this package, ready to click through.
 *
 * After `npm run build`: installs Node 24 + n8n the first time (.n8n-runtime/), starts the
 * sandbox on 127.0.0.1:4010 (seeded with the examples' events and contacts, and one timeline
 * with an anchor and an item) and n8n on 127.0.0.1:5678 with this package installed as a
 * community package, an owner account, both credentials pointing at the sandbox, and every
 * examples/*.json imported (credentials wired). Ctrl-C stops both. (See demo.ts.)
 *
 * The user folder is persistent (.n8n-runtime/user, or $N8N_USER_FOLDER): what you build in the
 * editor survives a restart, and so does the sandbox's world (sandbox-state.json in the same
 * folder: the ids the workflows hold, the events the triggers have seen, the messages and the
 * request log); `npm start -- --reset-sandbox` starts the sandbox afresh. The package is
 * re-packed and re-installed on every start; the credentials are updated in place; an example
 * workflow is imported once, updated while you have not changed it, and kept as it is once you
 * have (see demoExamples.ts).
 */
import * as path from 'node:path';

import { runDemo } from './demo';
import { startN8n } from './instance';
import { PROJECT_ROOT, RUNTIME_DIR } from './runtime';

const N8N_PORT = Number(process.env.N8N_PORT_START ?? 5678);
const SANDBOX_PORT = Number(process.env.SANDBOX_PORT ?? 4010);
const USER_FOLDER = process.env.N8N_USER_FOLDER || path.join(RUNTIME_DIR, 'user');

void runDemo({
	sandboxPort: SANDBOX_PORT,
	sandboxState: { file: path.join(USER_FOLDER, 'sandbox-state.json'), startFresh: process.argv.includes('--reset-sandbox') },
	async startN8n(log, signal) {
		const n8n = await startN8n({
			signal,
			port: N8N_PORT,
			userFolder: USER_FOLDER,
			logFile: path.join(PROJECT_ROOT, '.artifacts', 'n8n', 'npm-start.log'),
			log,
		});
		return {
			client: n8n,
			bannerLines: [` n8n log:      ${path.relative(PROJECT_ROOT, n8n.logFile)}`],
			stopsWhat: 'n8n',
			stop: () => n8n.stop(),
		};
	},
});
