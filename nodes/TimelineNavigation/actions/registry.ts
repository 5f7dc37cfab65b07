// Every resource and operation of the package, in one list. The action nodes' fields, their
// resource and operation choices and credentials, each operation's label in errors and the
// tests' tables are all derived from here: adding an operation is one module plus one line in
// its resource. A node of one service takes the resources of that service (`resourcesOf`).
import type { Service } from '../transport/services';
import { anchorResource } from './anchor/anchor.resource';
import { eventResource } from './event/event.resource';
import { itemResource } from './item/item.resource';
import { messageResource } from './message/message.resource';
import { timeResource } from './time/time.resource';
import { timelineResource } from './timeline/timeline.resource';
import type { OperationDefinition, ResourceDefinition } from './types';

/** Listed in the editor in this order (alphabetical, as n8n lists resources). */
export const RESOURCES: ResourceDefinition[] = [
	anchorResource,
	eventResource,
	itemResource,
	messageResource,
	timeResource,
	timelineResource,
];

/** The resources of the given services, in the editor's order. */
export function resourcesOf(services: Service[]): ResourceDefinition[] {
	return RESOURCES.filter((resource) => services.includes(resource.service));
}

export interface RegisteredOperation {
	/** `resource.operation`, as the tests' tables are keyed: "time.travel". */
	key: string;
	resource: ResourceDefinition;
	operation: OperationDefinition;
	/** As the editor names it, and as every error of the operation starts: "Time → Travel". */
	label: string;
}

export function registeredOperations(resources: ResourceDefinition[]): RegisteredOperation[] {
	return resources.flatMap((resource) =>
		resource.operations.map((operation) => ({
			key: `${resource.value}.${operation.value}`,
			resource,
			operation,
			label: `${resource.name} → ${operation.name}`,
		})),
	);
}

export const OPERATIONS: RegisteredOperation[] = registeredOperations(RESOURCES);
