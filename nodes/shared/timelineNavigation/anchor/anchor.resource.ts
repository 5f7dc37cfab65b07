import type { ResourceDefinition } from '../../actionNode/operation';
import { create } from './create.operation';
import { returnTo } from './returnTo.operation';
import { set } from './set.operation';

export const anchorResource: ResourceDefinition = {
	value: 'anchor',
	name: 'Anchor',
	service: 'timeline',
	defaultOperation: 'set',
	operations: [create, returnTo, set],
};
