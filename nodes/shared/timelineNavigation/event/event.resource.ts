import type { ResourceDefinition } from '../../actionNode/operation';
import { manipulate } from './manipulate.operation';
import { monitor } from './monitor.operation';

export const eventResource: ResourceDefinition = {
	value: 'event',
	name: 'Event',
	service: 'timeline',
	defaultOperation: 'monitor',
	operations: [manipulate, monitor],
};
