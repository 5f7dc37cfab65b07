/**
 * `npm run start:queue`: this package in n8n's scale-out set-up, on one machine. PostgreSQL 17,
 * Redis, the n8n main process (editor on 127.0.0.1:5680), 2 workers, 2 webhook processes and a
 * small load balancer in front of them (127.0.0.1:5681, the URL the messaging service posts
 * to), plus the sandbox (127.0.0.1:4011). Owner, credentials and examples as `npm start`
 * (see demo.ts). The database is new on every start. Ctrl-C stops every process it started.
 *
 *   npm run start:queue -- --pin-webhook-paths   the balancer sends each webhook path to one process
 */
import * as path from 'node:path';

import { runDemo } from './demo';
import { freePort, portIsFree } from './processes';
import { startQueueCluster } from './queue';
import { ARTIFACTS_DIR, PROJECT_ROOT, type Log } from './runtime';

const EDITOR_PORT = Number(process.env.QUEUE_EDITOR_PORT ?? 5680);
const BALANCER_PORT = Number(process.env.QUEUE_WEBHOOK_PORT ?? 5681);
const SANDBOX_PORT = Number(process.env.SANDBOX_PORT ?? 4011);
const PIN = process.argv.includes('--pin-webhook-paths');

async function portOrFree(port: number, what: string, log: Log): Promise<number> {
	if (await portIsFree(port)) return port;
	const other = await freePort();
	log(`[start] port ${port} is busy; the ${what} takes ${other}`);
	return other;
}

void runDemo({
	sandboxPort: SANDBOX_PORT,
	async startN8n(log, signal) {
		const logDir = path.join(ARTIFACTS_DIR, 'queue');
		const cluster = await startQueueCluster({
			ports: {
				main: await portOrFree(EDITOR_PORT, 'editor', log),
				proxy: await portOrFree(BALANCER_PORT, 'load balancer', log),
			},
			pinWebhookPaths: PIN,
			logDir,
			log,
			signal,
		});
		const urls = (list: Array<{ url: string }>) => list.map((p) => p.url).join(', ');
		const { postgres, redis, proxy, workers, webhooks, timings } = cluster;
		return {
			client: cluster.main,
			bannerLines: [
				` mode:         queue (EXECUTIONS_MODE=queue): ${postgres.version.replace(/^postgres \(PostgreSQL\) /, 'PostgreSQL ')} on 127.0.0.1:${postgres.port} (database "${postgres.database}", new on every start), Redis on 127.0.0.1:${redis.port}`,
				` main:         ${cluster.main.url} (editor, API; no production webhooks)`,
				` workers:      ${workers.length}, health checks ${workers.map((w) => `${w.url}/healthz/readiness`).join(', ')}`,
				` balancer:     ${proxy.url} (${PIN ? 'each webhook path pinned to one process' : 'round-robin'}) -> webhook processes ${urls(webhooks)}`,
				` logs:         ${path.relative(PROJECT_ROOT, logDir)}/ (main, worker-N, webhook-N, postgres, redis)`,
				` started in:   services ${(timings.servicesMs / 1000).toFixed(1)} s, main ${(timings.mainMs / 1000).toFixed(1)} s, workers and webhook processes ${(timings.othersMs / 1000).toFixed(1)} s`,
			],
			stopsWhat: 'every n8n process, the balancer, PostgreSQL, Redis',
			stop: () => cluster.stop(),
		};
	},
});
