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
 */
import { writeFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { Session } from 'node:inspector';

const socket = process.env.BENCH_HEAP_SOCKET;
// Only this process answers: a process it starts does not inherit the setting.
delete process.env.BENCH_HEAP_SOCKET;

if (socket) {
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

	rmSync(socket, { force: true });
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
	server.listen(socket);
	// n8n decides when it exits, not this server.
	server.unref();
	process.on('exit', () => rmSync(socket, { force: true }));
}
