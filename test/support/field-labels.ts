// Whether a field, as an error names it, is what the editor shows. Errors name a field by its
// label, and a field inside another by the path of labels a user clicks through, joined by " → "
// ("Limit Wait Time → Amount"); an entry of a list adds its position ("Injected Fields 2 → Name"),
// and a place inside JSON the user wrote adds its index or key ('Form Fields (JSON) [0]',
// 'Injected Fields (JSON) "first_name"'). Each label must be shown by the operation: the first
// anywhere among its fields, each next one inside the one before.
import type { INodeProperties } from 'n8n-workflow';
import { TimelineNavigation } from '../../nodes/TimelineNavigation/TimelineNavigation.node';
import type { OperationCase } from './operation-cases';

interface Shown {
	label: string;
	inside: Shown[];
}

type Field = INodeProperties | { displayName: string; values: INodeProperties[] };

function shown(field: Field): Shown {
	const nested = 'values' in field ? field.values : ((field as INodeProperties).options ?? []);
	const inside = (nested as Field[]).filter((entry) => typeof entry === 'object' && entry !== null && 'displayName' in entry);
	return { label: field.displayName, inside: inside.map(shown) };
}

function descendants(fields: Shown[]): Shown[] {
	return fields.flatMap((field) => [field, ...descendants(field.inside)]);
}

/** The fields the editor shows for the operation (every display rule but resource and operation aside). */
function operationFields(op: Pick<OperationCase, 'resource' | 'operation'>): Shown[] {
	return new TimelineNavigation().description.properties
		.filter((property) => {
			const show = property.displayOptions?.show ?? {};
			const resources = show.resource as string[] | undefined;
			const operations = show.operation as string[] | undefined;
			if (resources && !resources.includes(op.resource)) return false;
			return !operations || operations.includes(op.operation);
		})
		.map(shown);
}

/** A label without its position, JSON index or key: "Injected Fields 2" → "Injected Fields". */
const bare = (segment: string) => segment.replace(/( \d+| \[\d+\](\.\w+)?| "[^"]*")$/, '');

/** The labels of `path` that the operation does not show where the path puts them ([] when all are). */
export function unshownLabels(op: Pick<OperationCase, 'resource' | 'operation'>, path: string): string[] {
	if (path.startsWith('input field "')) return [];
	let candidates = descendants(operationFields(op));
	const missing: string[] = [];
	for (const segment of path.split(' → ')) {
		const found = candidates.filter((field) => field.label === bare(segment));
		if (found.length === 0) {
			missing.push(segment);
			break;
		}
		candidates = descendants(found.flatMap((field) => field.inside));
	}
	return missing;
}
