import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';
import { nodeParameter } from '../helpers/parameters';
import { readConcurrency, readRequestSettings } from '../helpers/requestOptions';
import { findOperation } from './registry';

function errorItem(error: Error & { description?: string | null }, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error.description) json.description = error.description;
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * Runs the chosen operation once per input item, a bounded number at a time, and keeps
 * the output in input order with `pairedItem` on every item. With "Continue On Fail" a
 * failing item becomes an error item and the others go on; without it, no new item is
 * started after the first failure and that failure is thrown once the running ones end.
 */
export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = nodeParameter(this, 'resource', 0) as string;
	const operation = nodeParameter(this, 'operation', 0) as string;
	const registered = findOperation(resource, operation);
	if (!registered) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	}
	const { label, operation: definition } = registered;
	const service = registered.resource.service;
	if (definition.executeOnce) {
		return await definition.executeOnce.call(this, { label, service, settings: readRequestSettings(this, 0) });
	}
	const concurrency = readConcurrency(this);

	const results: INodeExecutionData[][] = new Array(items.length);
	let next = 0;
	let firstError: Error | undefined;

	const worker = async () => {
		while (next < items.length && !firstError) {
			const itemIndex = next++;
			try {
				const settings = readRequestSettings(this, itemIndex);
				const result = await definition.execute.call(this, { itemIndex, label, service, settings });
				results[itemIndex] = (Array.isArray(result) ? result : [result]).map((json) => ({
					json,
					pairedItem: { item: itemIndex },
				}));
			} catch (error) {
				if (this.continueOnFail()) {
					results[itemIndex] = [errorItem(error, itemIndex)];
				} else {
					firstError ??= error;
				}
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
	if (firstError) throw firstError;
	return [results.flat()];
}
