import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { asNodeError, unsupportedOperation } from '../errors';
import { nodeParameter } from '../helpers/parameters';
import { readConcurrency, readRequestSettings } from '../helpers/requestOptions';
import type { CallContext } from '../transport/request';
import type { RegisteredOperation } from './types';

/** With "Continue On Fail", what a failed item becomes: an output item holding the error. */
function continueOnFailItem(error: Error & { description?: string | null }, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error.description) json.description = error.description;
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * Runs the chosen operation of `operations` (the node's own). A per-item operation runs once
 * per input item, a bounded number at a time, and the output keeps the input order with
 * `pairedItem` on every item; with "Continue On Fail" a failing item becomes an error item and
 * the others go on, without it no new item starts after the first failure, which is thrown
 * once the running ones end. A per-execution operation runs once and returns the output itself.
 */
export async function route(this: IExecuteFunctions, operations: RegisteredOperation[]): Promise<INodeExecutionData[][]> {
	const resource = nodeParameter(this, 'resource', 0);
	// n8n drops the operation of a resource the node does not offer: read it as '' then.
	const operation = nodeParameter(this, 'operation', 0, '');
	const registered = operations.find((entry) => entry.resource.value === resource && entry.operation.value === operation);
	if (!registered) {
		const offered = [...new Set(operations.map((entry) => entry.resource.name))];
		throw unsupportedOperation(this, resource, operation, offered);
	}
	const { label, operation: definition } = registered;
	const service = registered.resource.service;
	const callFor = (itemIndex: number): CallContext => ({ itemIndex, label, service, settings: readRequestSettings(this, itemIndex) });

	if (definition.executeOnce) {
		try {
			return await definition.executeOnce.call(this, callFor(0));
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(this, error);
			return [[continueOnFailItem(asNodeError(this, error), 0)]];
		}
	}

	const items = this.getInputData();
	const results: INodeExecutionData[][] = new Array(items.length);
	let next = 0;
	let firstError: Error | undefined;
	const worker = async () => {
		while (next < items.length && !firstError) {
			const itemIndex = next++;
			try {
				const result = await definition.execute.call(this, callFor(itemIndex));
				results[itemIndex] = (Array.isArray(result) ? result : [result]).map((json) => ({
					json,
					pairedItem: { item: itemIndex },
				}));
			} catch (error) {
				if (this.continueOnFail()) {
					results[itemIndex] = [continueOnFailItem(asNodeError(this, error), itemIndex)];
				} else {
					firstError ??= asNodeError(this, error);
				}
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(readConcurrency(this), items.length) }, worker));
	if (firstError) throw firstError;
	return [results.flat()];
}
