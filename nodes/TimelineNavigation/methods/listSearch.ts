import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

// Filled in by the Timeline resource work: the searchable list of the timeline picker.
export async function searchTimelines(
	this: ILoadOptionsFunctions,
	_filter?: string,
): Promise<INodeListSearchResult> {
	return { results: [] };
}
