import type { ResourceDefinition } from '../../actionNode/operation';
import { fastForward } from './fastForward.operation';
import { pause } from './pause.operation';
import { resume } from './resume.operation';
import { rewind } from './rewind.operation';
import { travel } from './travel.operation';

export const timeResource: ResourceDefinition = {
	value: 'time',
	name: 'Time',
	service: 'timeline',
	defaultOperation: 'travel',
	operations: [fastForward, pause, resume, rewind, travel],
};
