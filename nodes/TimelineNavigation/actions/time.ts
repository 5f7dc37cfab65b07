import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { requireDateTime, requireString, unwrap } from '../shared/parameters';
import type { ResourceHandlers } from '../shared/runner';
import { buildDuration } from '../shared/validation';
import { apiRequest } from '../transport/request';

async function post(context: IExecuteFunctions, itemIndex: number, path: string, operation: string, body?: IDataObject) {
	return await apiRequest.call(context, 'timeline', { method: 'POST', path, body }, { itemIndex, operation });
}

function readDuration(context: IExecuteFunctions, itemIndex: number): string {
	const amount = context.getNodeParameter('durationAmount', itemIndex) as unknown;
	const unit = context.getNodeParameter('durationUnit', itemIndex) as unknown;
	return unwrap(context, itemIndex, 'Amount', amount, buildDuration(amount, unit));
}

export const timeHandlers: ResourceHandlers = {
	async travel(this: IExecuteFunctions, itemIndex: number) {
		const body = {
			destination_time: requireDateTime(this, 'destinationTime', itemIndex, 'Destination Time'),
			location: requireString(this, 'location', itemIndex, 'Location'),
		};
		return await post(this, itemIndex, '/travel', 'Time → Travel', body);
	},

	async pause(this: IExecuteFunctions, itemIndex: number) {
		return await post(this, itemIndex, '/pause-time', 'Time → Pause');
	},

	async resume(this: IExecuteFunctions, itemIndex: number) {
		return await post(this, itemIndex, '/resume-time', 'Time → Resume');
	},

	async fastForward(this: IExecuteFunctions, itemIndex: number) {
		const body = { duration: readDuration(this, itemIndex) };
		return await post(this, itemIndex, '/fast-forward', 'Time → Fast-Forward', body);
	},

	async rewind(this: IExecuteFunctions, itemIndex: number) {
		const body = { duration: readDuration(this, itemIndex) };
		return await post(this, itemIndex, '/rewind', 'Time → Rewind', body);
	},
};
