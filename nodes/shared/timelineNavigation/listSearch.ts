import type { ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';
import { Execution } from '../execution';
import { listEntries } from '../fields/output';
import { DEFAULT_REQUEST_SETTINGS } from '../fields/requestOptions';
import { request, type RequestScope } from '../transport';

/** The timeline picker: GET /timelines, narrowed to the typed text (name or ID, any case). */
export async function searchTimelines(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	// A list search has no Request Options: the picker uses the defaults.
	const search: RequestScope = {
		execution: new Execution(this),
		index: 0,
		label: 'Timeline → Search',
		service: 'timeline',
		settings: DEFAULT_REQUEST_SETTINGS,
	};
	const answer = await request(search, { method: 'GET', path: '/timelines' });
	const wanted = (filter ?? '').trim().toLowerCase();
	const results: INodeListSearchItems[] = [];
	for (const timeline of listEntries(search, answer, 'timelines')) {
		const id = timeline.timeline_id ?? timeline.id;
		if (typeof id !== 'string' && typeof id !== 'number') continue;
		const name = typeof timeline.name === 'string' && timeline.name !== '' ? timeline.name : String(id);
		if (wanted && !name.toLowerCase().includes(wanted) && !String(id).toLowerCase().includes(wanted)) continue;
		results.push({ name, value: String(id) });
	}
	results.sort((a, b) => a.name.localeCompare(b.name));
	return { results };
}
