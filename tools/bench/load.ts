/**
 * Load generators that run outside n8n: a plain keep-alive HTTP client loop with a fixed
 * number of requests in flight. Used for the "plain loop" send baseline, for the sandbox
 * alone, and to deliver webhooks to n8n.
 */
import http from 'node:http';

export interface LoadRequest {
	method: string;
	url: string;
	headers?: Record<string, string>;
	body?: unknown;
}

export interface LoadResult {
	count: number;
	concurrency: number;
	/** Wall time from the first request started to the last answer, ms. */
	wallMs: number;
	perSecond: number;
	/** Status code -> count (0 = network error). */
	statuses: Record<string, number>;
	ok: number;
	latencyMs: { p50: number; p99: number; max: number; mean: number };
	errors: string[];
}

export function percentile(sorted: number[], p: number): number {
	if (sorted.length === 0) return NaN;
	const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
	return sorted[rank];
}

function once(agent: http.Agent, req: LoadRequest): Promise<{ status: number; error?: string }> {
	const url = new URL(req.url);
	const payload = req.body === undefined ? undefined : Buffer.from(JSON.stringify(req.body));
	return new Promise((resolve) => {
		const r = http.request(
			{
				agent,
				method: req.method,
				hostname: url.hostname,
				port: url.port,
				path: url.pathname + url.search,
				headers: {
					accept: 'application/json',
					...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
					...(req.headers ?? {}),
				},
			},
			(res) => {
				// Read the whole answer, as any client would (and so the socket can be reused).
				res.on('data', () => undefined);
				res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
				res.on('error', (err) => resolve({ status: 0, error: err.message }));
			},
		);
		r.on('error', (err) => resolve({ status: 0, error: err.message }));
		if (payload) r.write(payload);
		r.end();
	});
}

/**
 * Sends sequences of requests, each in order (its next request once the previous one was
 * answered), at most `concurrency` sequences (so requests) at a time, over keep-alive
 * connections: a customer's messages, one after another, among other customers'. `sizes[s]` is
 * the length of sequence s; `make(s, i)` builds its i-th request when it is sent. The sequences
 * start in their order.
 */
export async function runSequences(sizes: number[], concurrency: number, make: (sequence: number, i: number) => LoadRequest): Promise<LoadResult> {
	const count = sizes.reduce((a, b) => a + b, 0);
	const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
	const latencies: number[] = [];
	const statuses: Record<string, number> = {};
	const errors: string[] = [];
	let next = 0;
	const started = performance.now();
	const worker = async () => {
		while (next < sizes.length) {
			const sequence = next++;
			for (let i = 0; i < sizes[sequence]; i++) {
				const t0 = performance.now();
				const { status, error } = await once(agent, make(sequence, i));
				latencies.push(performance.now() - t0);
				statuses[status] = (statuses[status] ?? 0) + 1;
				if (error && errors.length < 5) errors.push(error);
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, sizes.length) }, worker));
	return summarise(count, concurrency, performance.now() - started, latencies, statuses, errors, agent);
}

function summarise(count: number, concurrency: number, wallMs: number, latencies: number[], statuses: Record<string, number>, errors: string[], agent: http.Agent): LoadResult {
	agent.destroy();
	const sorted = latencies.slice().sort((a, b) => a - b);
	const ok = Object.entries(statuses)
		.filter(([s]) => Number(s) >= 200 && Number(s) < 300)
		.reduce((sum, [, n]) => sum + n, 0);
	return {
		count,
		concurrency,
		wallMs,
		perSecond: (count / wallMs) * 1000,
		statuses,
		ok,
		latencyMs: {
			p50: percentile(sorted, 50),
			p99: percentile(sorted, 99),
			max: sorted[sorted.length - 1] ?? NaN,
			mean: sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length),
		},
		errors,
	};
}

/**
 * Sends `count` requests (built by `make(i)`) with at most `concurrency` in flight, over
 * keep-alive connections (one per slot), or with `keepAlive: false` a new connection per
 * request, and times each one.
 */
export async function runLoad(
	count: number,
	concurrency: number,
	make: (i: number) => LoadRequest,
	{ keepAlive = true }: { keepAlive?: boolean } = {},
): Promise<LoadResult> {
	const agent = new http.Agent({ keepAlive, maxSockets: concurrency });
	const latencies = new Array<number>(count);
	const statuses: Record<string, number> = {};
	const errors: string[] = [];
	let next = 0;
	const started = performance.now();
	const worker = async () => {
		while (next < count) {
			const i = next++;
			const t0 = performance.now();
			const { status, error } = await once(agent, make(i));
			latencies[i] = performance.now() - t0;
			statuses[status] = (statuses[status] ?? 0) + 1;
			if (error && errors.length < 5) errors.push(error);
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
	return summarise(count, concurrency, performance.now() - started, latencies, statuses, errors, agent);
}
