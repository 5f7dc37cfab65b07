import { durationOperation } from './duration';

export const rewind = durationOperation(
	{
		value: 'rewind',
		name: 'Rewind',
		action: 'Rewind time',
		description: 'Move the current time earlier by a duration',
	},
	'/rewind',
	'move back',
);
