import { durationOperation } from './duration';

export const fastForward = durationOperation(
	{
		value: 'fastForward',
		name: 'Fast-Forward',
		action: 'Fast forward time',
		description: 'Move the current time later by a duration',
	},
	'/fast-forward',
	'move forward',
);
