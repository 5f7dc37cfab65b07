// The Chat-App Messaging service's resources.
import { messageResource } from './message/message.resource';
import type { ResourceDefinition } from './types';

export const MESSAGING_RESOURCES: ResourceDefinition[] = [messageResource];
