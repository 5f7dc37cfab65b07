// Every resource and operation of the package, by service. The action nodes' fields, their
// resource and operation choices and credentials, each operation's label in errors and the
// tests' tables are all derived from here: adding an operation is one module plus one line in
// its resource. A node of one service imports only its service's list, so a package of one
// service holds only that service's operations.
import { MESSAGING_RESOURCES } from './messaging.resources';
import { TIMELINE_RESOURCES } from './timeline.resources';
import { registeredOperations, type RegisteredOperation, type ResourceDefinition } from './types';

/** Every resource, in the editor's order (alphabetical, as n8n lists resources). */
export const RESOURCES: ResourceDefinition[] = [...TIMELINE_RESOURCES, ...MESSAGING_RESOURCES].sort((a, b) =>
	a.name.localeCompare(b.name),
);

/** Every operation of the package, as the tests' tables iterate them. */
export const OPERATIONS: RegisteredOperation[] = registeredOperations(RESOURCES);

export type { RegisteredOperation };
