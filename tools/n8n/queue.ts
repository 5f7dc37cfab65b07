/**
 * n8n in queue mode on one machine, the way a scaled-out installation runs it: PostgreSQL,
 * Redis, the main process (editor, API, no production webhooks), workers (run every
 * execution) and webhook processes (receive production webhooks) behind a round-robin proxy
 * standing in for the load balancer. Every n8n process has this package in its own user folder.
 *
 *   const cluster = await startQueueCluster({ logDir });
 *   cluster.main            // an N8nInstance: public API, REST, credentials, workflows
 *   cluster.proxy.url       // where the messaging service must post (N8N_WEBHOOK_URL)
 *   await cluster.stop();
 *
 * Facts behind each setting: docs/scale-out.md.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { packPackage } from './communityPackage';
import { startN8n, type N8nInstance, type StartN8nOptions } from './instance';
import { freePort } from './processes';
import { DEFAULT_ENCRYPTION_KEY, startN8nProcess, type N8nProcess } from './server';
import { postgresEnv, startPostgres, type PostgresServer } from './postgres';
import { throwIfAborted } from '../shared/wait';
import { startProxy, type WebhookProxy } from './proxy';
import { startRedis, type RedisServer } from './redis';
import { ARTIFACTS_DIR, ensureRuntime, type Log } from './runtime';

export interface QueueClusterOptions {
	/** Worker processes (default 2). */
	workers?: number;
	/** Webhook processes behind the proxy (default 2). */
	webhookProcesses?: number;
	/** Jobs each worker runs at a time (default 10). */
	workerConcurrency?: number;
	/** Fixed ports where wanted; everything else takes a free port. */
	ports?: { main?: number; proxy?: number };
	/** Send each webhook path to one process (see proxy.ts) instead of round-robin. */
	pinWebhookPaths?: boolean;
	/** Folder for every process's log (default .artifacts/queue). */
	logDir?: string;
	log?: Log;
	/** Aborting it during the start stops whatever was started, and the start fails (Ctrl-C). */
	signal?: AbortSignal;
}

export interface QueueCluster {
	main: N8nInstance;
	workers: N8nProcess[];
	webhooks: N8nProcess[];
	proxy: WebhookProxy;
	postgres: PostgresServer;
	redis: RedisServer;
	/** Environment every n8n process shares (database, queue, webhook URL). */
	sharedEnv: Record<string, string>;
	/** Milliseconds: services (PostgreSQL, Redis), main, then workers and webhook processes. */
	timings: { servicesMs: number; mainMs: number; othersMs: number; totalMs: number };
	/** Starts one more worker. */
	startWorker(): Promise<N8nProcess>;
	/** Stops one worker (the last started by default) and forgets it. */
	stopWorker(worker?: N8nProcess): Promise<void>;
	/** Stops every webhook process, then starts them again on the same ports (as after a deploy). */
	restartWebhooks(): Promise<void>;
	/** Every log file written so far (n8n processes, PostgreSQL, Redis). */
	logFiles(): string[];
	stop(): Promise<void>;
}

/** Paths the proxy pins to one webhook process when asked: n8n's production webhooks. */
export const PINNED_WEBHOOK_PATHS = /^\/webhook\//;

/**
 * Waits until every start has settled (a failed one has cleaned up after itself), so that
 * nothing is still starting when the caller stops the rest; then fails with the first failure.
 */
async function allStarted<T extends readonly unknown[]>(starts: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
	const results = await Promise.allSettled(starts as readonly Promise<unknown>[]);
	const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
	if (failed) throw failed.reason;
	return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

export async function startQueueCluster(opts: QueueClusterOptions = {}): Promise<QueueCluster> {
	const log = opts.log ?? ((line: string) => console.log(line));
	const logDir = opts.logDir ?? path.join(ARTIFACTS_DIR, 'queue');
	fs.mkdirSync(logDir, { recursive: true });
	const t0 = Date.now();
	await ensureRuntime({ log });

	// Everything started so far, by layer: services, main, then workers and webhook processes.
	// stop() stops the layers in reverse order, each layer's processes at the same time.
	type Stoppable = { stop(): Promise<void> };
	const layers: Stoppable[][] = [[], [], []];
	const [services, mains, others] = layers;
	const stopAll = async () => {
		for (const layer of [...layers].reverse()) {
			const results = await Promise.allSettled(layer.splice(0).map((item) => item.stop()));
			for (const r of results) if (r.status === 'rejected') log(`[queue] stopping: ${(r.reason as Error).message}`);
		}
	};
	const logFiles = new Set<string>();
	// One log per process and cluster: an earlier cluster's log is removed when a process of this
	// one first uses the name (a restarted process appends to its own).
	const logFile = (name: string) => {
		const file = path.join(logDir, `${name}.log`);
		if (!logFiles.has(file)) fs.rmSync(file, { force: true });
		logFiles.add(file);
		return file;
	};

	try {
		const tarball = packPackage(path.join(ARTIFACTS_DIR, 'pack'));
		const { signal } = opts;
		const tracked = <T extends Stoppable>(layer: Stoppable[], started: Promise<T>) => started.then((item) => (layer.push(item), item));
		const [postgres, redis, proxy] = await allStarted([
			tracked(services, startPostgres({ port: await freePort(), logFile: logFile('postgres'), log, signal })),
			tracked(services, startRedis({ port: await freePort(), logFile: logFile('redis'), log, signal })),
			tracked(
				services,
				startProxy({
					port: opts.ports?.proxy ?? 0,
					backends: [],
					pinPaths: opts.pinWebhookPaths ? PINNED_WEBHOOK_PATHS : null,
					log,
				}).then((p) => Object.assign(p, { stop: () => p.close() })),
			),
		] as const);
		const servicesMs = Date.now() - t0;

		const sharedEnv: Record<string, string> = {
			...postgresEnv(postgres),
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: redis.host,
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			// Editor runs go to the workers too.
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			// The URL callers use: the editor and the trigger show it as the Production URL.
			N8N_WEBHOOK_URL: `${proxy.url}/`,
			N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
			// `n8n webhook` otherwise waits 30 s on every stop.
			N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '5',
		};
		const processOptions = (role: StartN8nOptions['role'], name: string, port: number): StartN8nOptions => ({
			role,
			port,
			packageTarball: tarball,
			encryptionKey: DEFAULT_ENCRYPTION_KEY,
			workerConcurrency: opts.workerConcurrency,
			logFile: logFile(name),
			log,
			signal,
			env: role === 'main' ? { ...sharedEnv, N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' } : sharedEnv,
		});

		// Main first: it runs the database migrations the other processes rely on.
		const t1 = Date.now();
		const main = await tracked(mains, startN8n(processOptions('main', 'main', opts.ports?.main ?? (await freePort()))));
		throwIfAborted(signal, 'the main process');
		const mainMs = Date.now() - t1;

		const t2 = Date.now();
		const workers: N8nProcess[] = [];
		const webhooks: N8nProcess[] = [];
		let workerNumber = 0;
		const startWorker = async () => {
			const worker = await tracked(others, startN8nProcess(processOptions('worker', `worker-${++workerNumber}`, await freePort())));
			workers.push(worker);
			return worker;
		};
		const webhookPorts = await Promise.all(Array.from({ length: opts.webhookProcesses ?? 2 }, () => freePort()));
		const startWebhooks = () =>
			allStarted(webhookPorts.map((port, i) => tracked(others, startN8nProcess(processOptions('webhook', `webhook-${i + 1}`, port)))));
		const [, firstWebhooks] = await allStarted([
			allStarted(Array.from({ length: opts.workers ?? 2 }, () => startWorker())),
			startWebhooks(),
		] as const);
		webhooks.push(...firstWebhooks);
		proxy.setBackends(webhooks.map((w) => w.url));
		const othersMs = Date.now() - t2;

		const forget = (process: N8nProcess) => {
			const i = others.indexOf(process);
			if (i >= 0) others.splice(i, 1);
		};
		return {
			main,
			workers,
			webhooks,
			proxy,
			postgres,
			redis,
			sharedEnv,
			timings: { servicesMs, mainMs, othersMs, totalMs: Date.now() - t0 },
			startWorker,
			async stopWorker(worker = workers[workers.length - 1]) {
				await worker.stop();
				forget(worker);
				workers.splice(workers.indexOf(worker), 1);
			},
			async restartWebhooks() {
				await Promise.all(webhooks.map((w) => w.stop()));
				webhooks.forEach(forget);
				webhooks.splice(0, webhooks.length, ...(await startWebhooks()));
				proxy.setBackends(webhooks.map((w) => w.url));
			},
			logFiles: () => [...logFiles],
			stop: stopAll,
		};
	} catch (err) {
		await stopAll();
		throw err;
	}
}
