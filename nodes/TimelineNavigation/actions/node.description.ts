// The node's fields and credentials, assembled from the registry: a Resource choice, one
// Operation choice per resource, each operation's own fields shown only for it, and the
// Request Options shown for all.
import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';
import { requestOptionsField } from '../helpers/requestOptions';
import { SERVICES } from '../transport/services';
import { OPERATIONS, RESOURCES } from './registry';
import { operationOption, type ResourceDefinition } from './types';

const resourceField: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: RESOURCES.map((resource) => ({ name: resource.name, value: resource.value })),
	default: 'time',
};

function operationField({ value, operations, defaultOperation }: ResourceDefinition): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [value] } },
		options: operations.map(operationOption),
		default: defaultOperation,
	};
}

/** The resource's fields, each shown only for its operation (and its own further conditions). */
function operationFields(resource: ResourceDefinition): INodeProperties[] {
	return resource.operations.flatMap((operation) =>
		operation.properties.map((property) => ({
			...property,
			displayOptions: {
				...property.displayOptions,
				show: { resource: [resource.value], operation: [operation.value], ...property.displayOptions?.show },
			},
		})),
	);
}

export const nodeProperties: INodeProperties[] = [
	resourceField,
	...RESOURCES.flatMap((resource) => [operationField(resource), ...operationFields(resource)]),
	requestOptionsField,
];

/** One credential per service, required for (and shown with) the resources that use it. */
/**
 * Each service's credential, shown for its resources. The timeline credential is "hidden for the
 * messaging resources" rather than "shown for the timeline ones": n8n 1.x's editor takes a field
 * whose every option some credential is shown for as the node's authentication field, hides it
 * and sets it from the chosen credential, so on 1.x Resource vanished and a node added as
 * "Travel to a time and place" became Message → Send Template. Both rules show the same.
 */
const messagingResources = RESOURCES.filter((resource) => resource.service === 'messaging').map((resource) => resource.value);
// Without a display name n8n labels the field only "Credential" (2.x) or "Credential to connect
// with" (1.x) once a rule is `hide`: name the service, as 2.x did for `show` rules.
export const nodeCredentials: INodeCredentialDescription[] = [
	{
		name: SERVICES.timeline.credentialType,
		displayName: 'Credential for Timeline Navigation API',
		required: true,
		displayOptions: { hide: { resource: messagingResources } },
	},
	{
		name: SERVICES.messaging.credentialType,
		displayName: 'Credential for Chat-App Messaging API',
		required: true,
		displayOptions: { show: { resource: messagingResources } },
	},
];

/** Under the node on the canvas: the resource and operation as the panel names them, "Message: Send Template". */
const subtitles = Object.fromEntries(OPERATIONS.map((op) => [op.key, `${op.resource.name}: ${op.operation.name}`]));
export const nodeSubtitle = `={{ (${JSON.stringify(subtitles)})[$parameter["resource"] + "." + $parameter["operation"]] }}`;
