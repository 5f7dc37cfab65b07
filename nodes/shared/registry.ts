// Every resource and operation of both services. The combined action node offers them all; the
// tests' tables (faults, secrets, bad input, the description snapshot) iterate them, so a new
// operation is in every suite as soon as it is in its resource. A node of one service imports
// only its service's actions, so a package of one service holds only that service's operations.
import { MESSAGING_ACTIONS } from './chatAppMessaging/resources';
import { TIMELINE_ACTIONS } from './timelineNavigation/resources';
import {
	type RegisteredOperation,
	registeredOperations,
	type ResourceDefinition,
	resourcesOf,
	type ServiceActions,
} from './actionNode/operation';

/** Both services' actions, as the combined node offers them. */
export const ALL_SERVICES: ServiceActions[] = [TIMELINE_ACTIONS, MESSAGING_ACTIONS];

/** Every resource, in the editor's order. */
export const RESOURCES: ResourceDefinition[] = resourcesOf(ALL_SERVICES);

/** Every operation of the package, as the tests' tables iterate them. */
export const OPERATIONS: RegisteredOperation[] = registeredOperations(RESOURCES);

export type { RegisteredOperation };
