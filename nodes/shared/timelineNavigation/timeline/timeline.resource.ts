import type { ResourceDefinition } from '../../actionNode/operation';
import { checkParadoxes } from './checkParadoxes.operation';
import { create } from './create.operation';
import { deleteTimeline } from './delete.operation';
import { getMany } from './getMany.operation';
import { monitorAnomalies } from './monitorAnomalies.operation';
import { travelTo } from './travelTo.operation';

export const timelineResource: ResourceDefinition = {
	value: 'timeline',
	name: 'Timeline',
	service: 'timeline',
	defaultOperation: getMany.value,
	operations: [checkParadoxes, create, deleteTimeline, getMany, monitorAnomalies, travelTo],
};
