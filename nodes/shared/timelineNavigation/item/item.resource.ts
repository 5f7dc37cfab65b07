import type { ResourceDefinition } from '../../actionNode/operation';
import { register } from './register.operation';

export const itemResource: ResourceDefinition = {
	value: 'item',
	name: 'Item',
	service: 'timeline',
	defaultOperation: 'register',
	operations: [register],
};
