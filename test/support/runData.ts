/** Reading an execution's run data as n8n's public API returns it (`includeData=true`). */

/** The JSON of the items a node output in an execution. */
export function nodeOutput(execution: any, nodeName: string): any[] {
	const runs = execution?.data?.resultData?.runData?.[nodeName];
	if (!runs) return [];
	return (runs[0]?.data?.main?.[0] ?? []).map((i: any) => i.json);
}
