// What an action node shows and runs, assembled from the resources it offers: a Resource
// choice, one Operation choice per resource, each operation's own fields shown only for it, the
// Request Options shown for all, the credential of each service, the canvas subtitle, and the
// operations its router accepts.
import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';
import { shownOnlyWhen } from '../fields/builders';
import { requestOptionsField } from '../fields/requestOptions';
import { type Service, SERVICES } from '../services';
import { operationOption, type RegisteredOperation, registeredOperations, type ResourceDefinition } from './operation';

export interface ActionNodeParts {
	properties: INodeProperties[];
	credentials: INodeCredentialDescription[];
	subtitle: string;
	/** The only operations the node runs. */
	operations: RegisteredOperation[];
}

function resourceField(resources: ResourceDefinition[], defaultResource: string): INodeProperties {
	return {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: resources.map((resource) => ({ name: resource.name, value: resource.value })),
		default: defaultResource,
	};
}

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
		shownOnlyWhen({ resource: [resource.value], operation: [operation.value] }, operation.properties),
	);
}

/**
 * Each service's credential, shown for its resources. With two services, the first one's is
 * "hidden for the other's resources" rather than "shown for its own": n8n 1.x's editor takes a
 * field whose every option some credential is shown for as the node's authentication field,
 * hides it and sets it from the chosen credential, so on 1.x Resource vanished and a node added
 * as "Travel to a time and place" became Message → Send Template. Both rules show the same.
 * Once a rule is `hide`, n8n labels the field only "Credential" (2.x) or "Credential to connect
 * with" (1.x): each credential names its service.
 */
function credentialsFor(services: Service[], resources: ResourceDefinition[]): INodeCredentialDescription[] {
	if (services.length === 1) return [{ name: SERVICES[services[0]].credentialType, required: true }];
	const resourcesNotOf = (service: Service) =>
		resources.filter((resource) => resource.service !== service).map((resource) => resource.value);
	return services.map((service, index) => ({
		name: SERVICES[service].credentialType,
		displayName: `Credential for ${SERVICES[service].credentialName}`,
		required: true,
		displayOptions:
			index === 0
				? { hide: { resource: resourcesNotOf(service) } }
				: { show: { resource: resources.filter((resource) => resource.service === service).map((resource) => resource.value) } },
	}));
}

/** Under the node on the canvas: the resource and operation as the panel names them, "Message: Send Template". */
function subtitleOf(operations: RegisteredOperation[]): string {
	const subtitles = Object.fromEntries(operations.map((op) => [op.key, `${op.resource.name}: ${op.operation.name}`]));
	return `={{ (${JSON.stringify(subtitles)})[$parameter["resource"] + "." + $parameter["operation"]] }}`;
}

/** An action node offering `resources` (in the editor's order); new nodes open on `defaultResource`. */
export function actionNodeParts(resources: ResourceDefinition[], defaultResource: string): ActionNodeParts {
	const services = [...new Set(resources.map((resource) => resource.service))];
	const operations = registeredOperations(resources);
	return {
		properties: [
			resourceField(resources, defaultResource),
			...resources.flatMap((resource) => [operationField(resource), ...operationFields(resource)]),
			requestOptionsField,
		],
		credentials: credentialsFor(services, resources),
		subtitle: subtitleOf(operations),
		operations,
	};
}
