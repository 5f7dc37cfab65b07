// What a user sees of the action node, operation by operation: for every resource and
// operation, the fields shown (in order, with every option, default and display rule), plus the
// node-level settings. Comparing these views, rather than the raw property list, lets the
// description be assembled differently (one module per operation) while proving that nothing a
// user sees has changed.
import type { IDataObject, INodeProperties, INodeTypeDescription } from 'n8n-workflow';

export interface DescriptionViews {
	node: IDataObject;
	/** `resource.operation` → the fields shown for it, top to bottom. */
	operations: Record<string, IDataObject[]>;
}

function shownFor(property: INodeProperties, resource: string, operation: string): boolean {
	const show = property.displayOptions?.show ?? {};
	const resources = show.resource as string[] | undefined;
	const operations = show.operation as string[] | undefined;
	return (!resources || resources.includes(resource)) && (!operations || operations.includes(operation));
}

/** The property as the user meets it once resource and operation are chosen. */
export function asShown(property: INodeProperties): IDataObject {
	const { displayOptions, ...rest } = property;
	const otherShow = Object.fromEntries(
		Object.entries(displayOptions?.show ?? {}).filter(([key]) => key !== 'resource' && key !== 'operation'),
	);
	const view: IDataObject = { ...(rest as IDataObject) };
	if (Object.keys(otherShow).length > 0) view.showWhen = otherShow as IDataObject;
	if (displayOptions?.hide) view.hideWhen = displayOptions.hide as IDataObject;
	return JSON.parse(JSON.stringify(view)) as IDataObject;
}

export function descriptionViews(description: INodeTypeDescription): DescriptionViews {
	const { properties, credentials, ...node } = description;
	const resourceField = properties.find((property) => property.name === 'resource');
	const operations: Record<string, IDataObject[]> = {};
	for (const resource of resourceField?.options ?? []) {
		const resourceValue = String((resource as { value: string }).value);
		const operationField = properties.find(
			(property) => property.name === 'operation' && shownFor(property, resourceValue, '\u0000any'),
		);
		for (const operation of operationField?.options ?? []) {
			const operationValue = String((operation as { value: string }).value);
			operations[`${resourceValue}.${operationValue}`] = properties
				.filter((property) => property.name !== 'operation' && shownFor(property, resourceValue, operationValue))
				.map(asShown);
		}
	}
	const credentialsByResource: IDataObject = {};
	for (const resource of resourceField?.options ?? []) {
		const value = String((resource as { value: string }).value);
		credentialsByResource[value] = (credentials ?? [])
			.filter((credential) => {
				const show = credential.displayOptions?.show?.resource as string[] | undefined;
				const hide = credential.displayOptions?.hide?.resource as string[] | undefined;
				return (show?.includes(value) ?? true) && !hide?.includes(value);
			})
			.map((credential) => ({ name: credential.name, required: credential.required ?? false }));
	}
	const operationFields = properties
		.filter((property) => property.name === 'operation')
		.map((property) => ({
			resource: property.displayOptions?.show?.resource,
			default: property.default,
			options: property.options,
		}));
	return {
		node: JSON.parse(JSON.stringify({ ...node, credentialsByResource, operationFields })) as IDataObject,
		operations,
	};
}

/**
 * The views as approved.json stores them: a field shown the same way by several operations is
 * written once under `sharedFields`, and each operation lists its fields in order, either as
 * `shared:<key>` or, for a field only it shows that way, in full. So a change to one operation's
 * fields shows in the file as a change to that operation, and a change to a shared field once.
 */
export interface ApprovedDescription {
	node: IDataObject;
	sharedFields: Record<string, IDataObject>;
	operations: Record<string, Array<IDataObject | string>>;
}

const SHARED = 'shared:';

/** The same JSON for equal views, whatever the order of their keys. */
function canonical(value: unknown): string {
	return JSON.stringify(value, (_key, inner: unknown) =>
		inner && typeof inner === 'object' && !Array.isArray(inner)
			? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
			: inner,
	);
}

/**
 * Writes the views in approved.json's form. The shared fields of `previous` (the file as it
 * was) keep their keys while an operation still shows them, so that an operation that changes
 * one of them does not move the others; a field newly shown the same way by two or more
 * operations is shared under its name (`<name>@<first operation>` when the name is taken).
 */
export function shareFields(views: DescriptionViews, previous?: ApprovedDescription): ApprovedDescription {
	const showings = new Map<string, { view: IDataObject; operations: string[] }>();
	for (const [operation, fields] of Object.entries(views.operations)) {
		for (const view of fields) {
			const showing = showings.get(canonical(view)) ?? { view, operations: [] };
			showing.operations.push(operation);
			showings.set(canonical(view), showing);
		}
	}
	const keyOf = new Map<string, string>();
	for (const [key, view] of Object.entries(previous?.sharedFields ?? {})) {
		if (showings.has(canonical(view))) keyOf.set(canonical(view), key);
	}
	const taken = new Set(keyOf.values());
	for (const [json, { view, operations }] of showings) {
		if (keyOf.has(json) || operations.length < 2) continue;
		const key = taken.has(String(view.name)) ? `${String(view.name)}@${operations[0]}` : String(view.name);
		keyOf.set(json, key);
		taken.add(key);
	}
	const sharedFields: Record<string, IDataObject> = {};
	for (const [json, { view }] of showings) {
		const key = keyOf.get(json);
		if (key) sharedFields[key] = view;
	}
	const operations = Object.fromEntries(
		Object.entries(views.operations).map(([operation, fields]) => [
			operation,
			fields.map((view) => {
				const key = keyOf.get(canonical(view));
				return key ? `${SHARED}${key}` : view;
			}),
		]),
	);
	return { node: views.node, sharedFields, operations };
}

/** Every operation's fields in full, the shared ones looked up. */
export function expandOperations(approved: ApprovedDescription): Record<string, IDataObject[]> {
	return Object.fromEntries(
		Object.entries(approved.operations).map(([operation, fields]) => [
			operation,
			fields.map((field) => {
				if (typeof field !== 'string') return field;
				const view = field.startsWith(SHARED) ? approved.sharedFields[field.slice(SHARED.length)] : undefined;
				if (!view) throw new Error(`approved.json: ${operation} lists "${field}", which is not in sharedFields`);
				return view;
			}),
		]),
	);
}

/** What makes approved.json list a field twice: an unused shared field, a shared view written out again. */
export function repeatedFields(approved: ApprovedDescription): string[] {
	const problems: string[] = [];
	const used = new Set(Object.values(approved.operations).flat().filter((field) => typeof field === 'string'));
	for (const key of Object.keys(approved.sharedFields)) {
		if (!used.has(`${SHARED}${key}`)) problems.push(`sharedFields.${key} is shown by no operation`);
	}
	const written = new Map<string, string>();
	for (const [key, view] of Object.entries(approved.sharedFields)) written.set(canonical(view), `sharedFields.${key}`);
	for (const [operation, fields] of Object.entries(approved.operations)) {
		fields.forEach((field, index) => {
			if (typeof field === 'string') return;
			const first = written.get(canonical(field));
			if (first) problems.push(`${operation}[${index}] (${String(field.name)}) repeats ${first}`);
			else written.set(canonical(field), `${operation}[${index}]`);
		});
	}
	return problems;
}
