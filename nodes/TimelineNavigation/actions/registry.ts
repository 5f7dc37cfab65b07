// Every resource and operation of the node, in one list. The node's fields, its resource and
// operation choices, its credentials, each operation's label in errors and the tests' tables
// are all derived from here: adding an operation is one module plus one line in its resource.
import { SERVICES } from '../transport/services';
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

export interface RegisteredOperation {
	/** `resource.operation`, as the tests' tables are keyed: "time.travel". */
	key: string;
	resource: ResourceDefinition;
	operation: OperationDefinition;
	/** As the editor names it, and as every error of the operation starts: "Time → Travel". */
	label: string;
	/** The credential type the operation's requests are authenticated with. */
	credentialType: string;
}

export const OPERATIONS: RegisteredOperation[] = RESOURCES.flatMap((resource) =>
	resource.operations.map((operation) => ({
		key: `${resource.value}.${operation.value}`,
		resource,
		operation,
		label: `${resource.name} → ${operation.name}`,
		credentialType: SERVICES[resource.service].credentialType,
	})),
);

export function findOperation(resource: string, operation: string): RegisteredOperation | undefined {
	return OPERATIONS.find((entry) => entry.resource.value === resource && entry.operation.value === operation);
}
