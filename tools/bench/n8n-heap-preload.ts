/**
 * Loaded into the bench's n8n (its main process, on n8n's Node, which runs TypeScript by
 * stripping the types) with `NODE_OPTIONS=--import`: answers the bench on a Unix socket
 * (BENCH_HEAP_SOCKET) so that every send run starts from a collected heap, and, with
 * `--heap-profile`, samples what a run allocates. Node's own inspector does the work, inside
 * the process; nothing else of n8n is touched. heap.ts is the bench's side.
 *
 *   POST /gc                    a full garbage collection (V8 gives the freed pages back)
 *   POST /sampling/start        V8's sampling heap profiler, objects collected since included
 *   POST /sampling/stop?file=F  stops it and writes the profile to F (.heapprofile, as DevTools reads it)
 *
 * Only `n8n start` answers. Any other process that loads this file with the same environment (an
 * n8n CLI command, a `node -e` that reads n8n's database, n8n's task runner) does nothing: it
 * neither listens on the socket nor removes it. The bench gives each n8n a fresh socket path
 * (heap.ts, heapSocketPath) and clears it before the start, so this file never deletes a socket
 * file it did not create: one already there is left alone, and on exit only its own is removed.
 */
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Session } from 'node:inspector';
import { basename } from 'node:path';

const socket = process.env.BENCH_HEAP_SOCKET;
// Only this process answers: a process it starts does not inherit the setting.
delete process.env.BENCH_HEAP_SOCKET;

/** `node …/bin/n8n start`: n8n's main process, the one the bench measures. */
const isN8nStart = basename(process.argv[1] ?? '') === 'n8n' && process.argv[2] === 'start';

if (socket && isN8nStart) {
	const session = new Session();
	session.connect();
	const post = async (method: string, params: object = {}) =>
		await new Promise<unknown>((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));

	const actions: Record<string, (url: URL) => Promise<void>> = {
		'/gc': async () => {
			await post('HeapProfiler.collectGarbage');
		},
		'/sampling/start': async () => {
			await post('HeapProfiler.enable');
			// Every allocation counts, not only what is still alive when the run ends.
			await post('HeapProfiler.startSampling', {
				samplingInterval: 16384,
				includeObjectsCollectedByMajorGC: true,
				includeObjectsCollectedByMinorGC: true,
			});
		},
		'/sampling/stop': async (url) => {
			const { profile } = (await post('HeapProfiler.stopSampling')) as { profile: unknown };
			writeFileSync(url.searchParams.get('file')!, JSON.stringify(profile));
		},
	};

	const server = createServer((request, response) => {
		const url = new URL(request.url ?? '/', 'http://n8n');
		const action = request.method === 'POST' ? actions[url.pathname] : undefined;
		if (!action) {
			response.writeHead(404).end();
			return;
		}
		action(url).then(
			() => response.writeHead(204).end(),
			(error: unknown) => response.writeHead(500).end(String(error)),
		);
	});
	// The socket file this process created (device and inode), removed on exit if it is still that one.
	let created: { dev: number; ino: number } | undefined;
	server.on('error', (error) => {
		// A file already at the path (EADDRINUSE) is not this process's to remove: the bench's
		// requests then fail and name the socket.
		process.stderr.write(`[bench heap control] cannot listen on ${socket}: ${error.message}\n`);
	});
	server.listen(socket, () => {
		const { dev, ino } = statSync(socket);
		created = { dev, ino };
	});
	// n8n decides when it exits, not this server.
	server.unref();
	process.on('exit', () => {
		if (!created) return;
		try {
			const now = statSync(socket);
			if (now.dev === created.dev && now.ino === created.ino) rmSync(socket, { force: true });
		} catch {
			// already gone
		}
	});
}
