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
function asShown(property: INodeProperties): IDataObject {
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
			.filter((credential) => (credential.displayOptions?.show?.resource as string[] | undefined)?.includes(value) ?? true)
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
