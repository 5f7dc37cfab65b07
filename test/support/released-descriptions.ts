// What each node version of a release shows in the editor (description.json in the release's
// fixtures folder), and how the current code still honours it. A saved workflow holds parameter
// names and values, so for every node version a release shipped, each field it showed must keep
// its name, type, default, required flag, display rule, multiple-values flag, option values,
// sub-fields and locator modes. Wording (display names, descriptions, hints) may change, and new
// optional fields and option values may be added; anything else needs a new node version.
import type { IDataObject, INode, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import {
	asShown,
	descriptionViews,
	expandOperations,
	shareFields,
	type ApprovedDescription,
	type DescriptionViews,
} from '../nodes/TimelineNavigation/description/views';
import { getPackage, TRIGGER_NODE_TYPE } from './harness';
import { NODE_TYPE } from './node-support';
import { CHAT_APP_MESSAGING, TIMELINE_NAVIGATION } from '../../tools/packages/packages';

/**
 * The node types a release ships: the combined package's two, and each edition's action node
 * (an edition's trigger is the combined package's trigger class under another package name).
 */
const RELEASED_NODE_TYPES = [
	NODE_TYPE,
	TRIGGER_NODE_TYPE,
	`${CHAT_APP_MESSAGING.name}.chatAppMessaging`,
	`${TIMELINE_NAVIGATION.name}.timelineNavigationService`,
] as const;

export interface ReleasedDescriptions {
	release: string;
	/**
	 * node type → node version → what that version shows, operation by operation (the trigger's
	 * fields under "(all)"), each field shown the same way by several operations written once.
	 */
	nodes: Record<string, Record<string, ApprovedDescription>>;
}

const ALL_OPERATIONS = '(all)';

function isVersionKey(key: string) {
	return key === '@version';
}

/** The property as `version` of the node shows it: undefined when the version hides it. */
function atVersion(property: INodeProperties, version: number, description: INodeTypeDescription): INodeProperties | undefined {
	const { show = {}, hide = {} } = property.displayOptions ?? {};
	const versionRule = {
		...property,
		displayOptions: {
			...(show['@version'] ? { show: { '@version': show['@version'] } } : {}),
			...(hide['@version'] ? { hide: { '@version': hide['@version'] } } : {}),
		},
	};
	const node: Pick<INode, 'typeVersion'> = { typeVersion: version };
	if (!NodeHelpers.displayParameter({}, versionRule, node, description)) return undefined;
	const strip = (rule: IDataObject = {}) => Object.fromEntries(Object.entries(rule).filter(([key]) => !isVersionKey(key)));
	const displayOptions = { show: strip(show), hide: strip(hide) };
	const rest = { ...property };
	delete rest.displayOptions;
	const kept = Object.fromEntries(Object.entries(displayOptions).filter(([, rule]) => Object.keys(rule).length > 0));
	return Object.keys(kept).length > 0 ? { ...rest, displayOptions: kept } : rest;
}

/** The views of one node version: per operation for the action node, all fields for the trigger. */
export function viewsAtVersion(description: INodeTypeDescription, version: number): DescriptionViews {
	const properties = description.properties.flatMap((property) => atVersion(property, version, description) ?? []);
	const versioned = { ...description, properties };
	delete (versioned as Partial<INodeTypeDescription>).version;
	delete (versioned as Partial<INodeTypeDescription>).defaultVersion;
	if (properties.some((property) => property.name === 'resource')) return descriptionViews(versioned);
	const { credentials, ...node } = versioned;
	return {
		node: JSON.parse(JSON.stringify({ ...node, properties: undefined, credentials })) as IDataObject,
		operations: { [ALL_OPERATIONS]: properties.map(asShown) },
	};
}

/** The versions a node declares: a versioned node type's keys, or its description's list. */
export async function declaredVersions(type: string): Promise<number[]> {
	const node = (await getPackage()).nodeTypes.getByName(type);
	if ('nodeVersions' in node) return Object.keys(node.nodeVersions).map(Number).sort((a, b) => a - b);
	return [node.description.version].flat();
}

/** Every declared version of every node, as the current code describes it. */
export async function releasedDescriptions(release: string): Promise<ReleasedDescriptions> {
	const pkg = await getPackage();
	const nodes: ReleasedDescriptions['nodes'] = {};
	for (const type of RELEASED_NODE_TYPES) {
		const versions = await declaredVersions(type);
		nodes[type] = {};
		for (const version of versions) {
			nodes[type][String(version)] = shareFields(viewsAtVersion(pkg.nodeTypes.getByNameAndVersion(type, version).description, version));
		}
	}
	return { release, nodes };
}

const canonical = (value: unknown): string =>
	JSON.stringify(value ?? null, (_key, inner: unknown) =>
		inner && typeof inner === 'object' && !Array.isArray(inner)
			? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
			: inner,
	);

type Field = IDataObject;

const named = (list: unknown): Field[] => (Array.isArray(list) ? (list as Field[]) : []);

/** What changed in `current` that a workflow saved with `released` would notice. */
function fieldChanges(where: string, released: Field, current: Field): string[] {
	const changes: string[] = [];
	const compare = (aspect: string, before: unknown, after: unknown) => {
		if (canonical(before) !== canonical(after)) changes.push(`${where}: ${aspect} was ${canonical(before)}, is now ${canonical(after)}`);
	};
	compare('type', released.type, current.type);
	compare('default', released.default, current.default);
	compare('required', released.required ?? false, current.required ?? false);
	compare('display rule (show)', released.showWhen, current.showWhen);
	compare('display rule (hide)', released.hideWhen, current.hideWhen);
	compare('multiple values', (released.typeOptions as IDataObject)?.multipleValues ?? false, (current.typeOptions as IDataObject)?.multipleValues ?? false);
	const type = String(released.type);
	if (type === 'options' || type === 'multiOptions') {
		const values = named(current.options).map((option) => canonical(option.value));
		for (const option of named(released.options)) {
			if (!values.includes(canonical(option.value))) changes.push(`${where}: option value ${canonical(option.value)} (${String(option.name)}) is gone`);
		}
	}
	if (type === 'collection') changes.push(...subFieldChanges(where, named(released.options), named(current.options)));
	if (type === 'fixedCollection') {
		for (const group of named(released.options)) {
			const now = named(current.options).find((candidate) => candidate.name === group.name);
			if (!now) changes.push(`${where}: the group "${String(group.name)}" is gone`);
			else changes.push(...subFieldChanges(`${where} → ${String(group.name)}`, named(group.values), named(now.values)));
		}
	}
	if (type === 'resourceLocator') {
		const modes = named(current.modes).map((mode) => mode.name);
		for (const mode of named(released.modes)) {
			if (!modes.includes(mode.name)) changes.push(`${where}: the mode "${String(mode.name)}" is gone`);
		}
	}
	return changes;
}

function subFieldChanges(where: string, released: Field[], current: Field[]): string[] {
	return released.flatMap((field) => {
		const now = current.find((candidate) => candidate.name === field.name);
		const at = `${where} → ${String(field.name)}`;
		return now ? fieldChanges(at, field, now) : [`${at}: the field is gone`];
	});
}

/**
 * The fields a released operation showed, matched by name (a name shown twice under different
 * rules, such as Event Time for Add and for Modify, is matched in order), against what it shows
 * now. A current field the release did not have must not be required.
 */
export function operationChanges(where: string, released: Field[], current: Field[] | undefined): string[] {
	if (!current) return [`${where}: the operation is gone`];
	const changes: string[] = [];
	const seen = new Map<string, number>();
	for (const field of released) {
		const name = String(field.name);
		const occurrence = seen.get(name) ?? 0;
		seen.set(name, occurrence + 1);
		const now = current.filter((candidate) => candidate.name === name)[occurrence];
		const at = `${where}, field "${name}"${occurrence ? ` (#${occurrence + 1})` : ''}`;
		if (!now) changes.push(`${at}: the field is gone`);
		else changes.push(...fieldChanges(at, field, now));
	}
	const releasedNames = new Set(released.map((field) => field.name));
	for (const field of current) {
		if (!releasedNames.has(field.name) && field.required) {
			changes.push(`${where}, field "${String(field.name)}": new and required, which workflows saved without it fail`);
		}
	}
	return changes;
}

/** The node-level contract: its name, the credentials per resource, the webhook. */
export function nodeChanges(where: string, released: IDataObject, current: IDataObject): string[] {
	const pick = (node: IDataObject) => ({
		name: node.name,
		credentialsByResource: node.credentialsByResource,
		credentials: named(node.credentials).map((credential) => credential.name),
		webhooks: named(node.webhooks).map((webhook) => ({ httpMethod: webhook.httpMethod, path: webhook.path })),
	});
	const before = pick(released);
	const after = pick(current);
	return (Object.keys(before) as Array<keyof typeof before>)
		.filter((key) => canonical(before[key]) !== canonical(after[key]))
		.map((key) => `${where}: ${key} was ${canonical(before[key])}, is now ${canonical(after[key])}`);
}

/**
 * Everything a workflow saved with `released` would notice in the current description of
 * `type` at `version`, each naming the node version, the operation and the field.
 */
export async function changesSinceRelease(type: string, version: string, released: ApprovedDescription): Promise<string[]> {
	const pkg = await getPackage();
	const node = pkg.nodeTypes.getByName(type);
	const label = `${node.description.displayName} version ${version}`;
	if (!(await declaredVersions(type)).map(String).includes(version)) return [`${label}: the version is no longer declared`];
	const current = viewsAtVersion(pkg.nodeTypes.getByNameAndVersion(type, Number(version)).description, Number(version));
	const releasedOperations = expandOperations(released);
	return [
		...nodeChanges(label, released.node, current.node),
		...Object.entries(releasedOperations).flatMap(([operation, fields]) =>
			operationChanges(operation === ALL_OPERATIONS ? label : `${label}, ${operation}`, fields, current.operations[operation]),
		),
	];
}
