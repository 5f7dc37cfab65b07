/**
 * What the triggers' memories cost in n8n's database (SQLite in the bench's n8n): the
 * workflow's static data (`workflow_entity.staticData`, which n8n loads for every webhook call
 * and writes back when a call changed it; for a poller, with each poll that starts the workflow),
 * how many events it holds, and the bytes each saved execution takes (`execution_data`: the
 * workflow as n8n stored it with the execution, and the run data), so that what the memory adds
 * to an execution is measured rather than assumed.
 */
import { queryN8nDatabase, type N8nDatabaseUser } from '../n8n/database';
import { STORED_MEMORY_KEY, type StoredMemory } from '../../nodes/shared/chatAppMessaging/trigger/deliveryMemory';
import { DIGEST_LENGTH } from '../../nodes/shared/digest';
import { COPIES_KEY } from '../../nodes/shared/timelineNavigation/trigger/store';

export interface StaticDataSize {
	/** Bytes of the stored static data (0 when it has none). */
	bytes: number;
	/** Events the trigger's stored repeat memory holds. */
	events: number;
}

/** The workflow's static data as n8n stored it: its size and the events of the repeat memory in it. */
export async function storedStaticData(n8n: N8nDatabaseUser, workflowId: string): Promise<StaticDataSize> {
	const [row] = await queryN8nDatabase<{ staticData: string | null }>(n8n, 'SELECT "staticData" FROM workflow_entity WHERE id = $1', [workflowId]);
	const text = row?.staticData ?? null;
	if (text === null) return { bytes: 0, events: 0 };
	return { bytes: Buffer.byteLength(text), events: rememberedEvents(JSON.parse(text) as object) };
}

/**
 * The events the triggers' memories in a workflow's static data hold: the webhook trigger's
 * repeat memory (generations of digests) and the polling trigger's (digests by hour, and untimed).
 */
export function rememberedEvents(staticData: object): number {
	let digests = 0;
	for (const nodeData of Object.values(staticData as Record<string, Record<string, unknown> | null>)) {
		const repeatMemory = nodeData?.[STORED_MEMORY_KEY] as StoredMemory | undefined;
		for (const gen of repeatMemory?.gens ?? []) digests += gen.keys.length;
		// The polling triggers' memories, each counted once: their copies in the global static data
		// (every poll writes one; the node's own is the same memory, or the durable scheduler's cursor).
		const copies = Object.values((nodeData?.[COPIES_KEY] ?? {}) as Record<string, { memory?: unknown }>).map((copy) => copy?.memory);
		for (const pollMemory of copies as Array<{ hours?: Record<string, string>; untimed?: string } | undefined>) {
			for (const hour of Object.values(pollMemory?.hours ?? {})) digests += hour.length;
			digests += pollMemory?.untimed?.length ?? 0;
		}
	}
	return digests / DIGEST_LENGTH;
}

export interface SavedExecutionBytes {
	executions: number;
	/** Mean bytes per saved execution: the workflow n8n stored with it, its run data, both. */
	workflowData: number;
	data: number;
	total: number;
	/** Mean bytes of static data inside the stored workflow (the trigger's workflow holds only the memory there). */
	staticData: number;
	/** Saved executions whose stored workflow holds the repeat memory. */
	withMemory: number;
}

/** The bytes n8n's database holds for each execution of the workflow after `afterId`. */
export async function savedExecutionBytes(n8n: N8nDatabaseUser, workflowId: string, afterId: number): Promise<SavedExecutionBytes> {
	const [row] = await queryN8nDatabase<{ executions: number; workflowData: number | null; data: number | null; staticData: number | null; withMemory: number | null }>(
		n8n,
		`SELECT count(*) AS executions,
		        avg(length(CAST(d."workflowData" AS BLOB))) AS "workflowData",
		        avg(length(CAST(d.data AS BLOB))) AS data,
		        avg(coalesce(length(CAST(json_extract(d."workflowData", '$.staticData') AS BLOB)), 0)) AS "staticData",
		        sum(instr(d."workflowData", '"${STORED_MEMORY_KEY}"') > 0) AS "withMemory"
		   FROM execution_entity e JOIN execution_data d ON d."executionId" = e.id
		  WHERE e."workflowId" = $1 AND e.id > $2`,
		[workflowId, afterId],
	);
	const workflowData = row?.workflowData ?? 0;
	const data = row?.data ?? 0;
	return {
		executions: row?.executions ?? 0,
		workflowData,
		data,
		total: workflowData + data,
		staticData: row?.staticData ?? 0,
		withMemory: row?.withMemory ?? 0,
	};
}
