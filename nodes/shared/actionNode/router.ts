// The action nodes' router: runs the operation a node is set to, once per input item (at most
// Concurrency at a time, the output in input order) or once per run, with the run's credentials
// read once (../execution.ts) and Continue On Fail per item.
import type { IDataObject, IExecuteFunctions, INodeExecutionData, NodeApiError, NodeOperationError } from 'n8n-workflow';
import { asNodeError, unsupportedOperation } from '../errors';
import { ActionExecution, type Item } from '../execution';
import { parameter } from '../fields/parameters';
import { readConcurrency, readRequestSettings } from '../fields/requestOptions';
import type { OperationItem, RegisteredOperation } from './operation';

/**
 * With "Continue On Fail", what a failed item becomes: an output item holding the error and
 * what to do about it. With "On Error → Continue (using error output)" the error rides on the
 * item too: that is how n8n tells an error item of such a node (by its `json` only when it holds
 * nothing but error, message or details), and it then gives the item `{ error }` beside the
 * input item's fields, as for its own nodes.
 */
function continueOnFailItem(n8n: IExecuteFunctions, error: NodeApiError | NodeOperationError, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error.description) json.description = error.description;
	const toErrorOutput = n8n.getNode().onError === 'continueErrorOutput';
	return { json, ...(toErrorOutput && { error }), pairedItem: { item: itemIndex } };
}

/** The operation the node is set to, among the node's own; anything else refused by name. */
function chosenOperation(first: Item, operations: RegisteredOperation[]): RegisteredOperation {
	const resource = parameter(first, 'resource');
	// n8n drops the operation of a resource the node does not offer: read it as '' then.
	const operation = parameter(first, 'operation', '');
	const registered = operations.find((entry) => entry.resource.value === resource && entry.operation.value === operation);
	if (!registered) {
		const offered = [...new Set(operations.map((entry) => entry.resource.name))];
		throw unsupportedOperation(first.execution.n8n, resource, operation, offered);
	}
	return registered;
}

/**
 * Runs the chosen operation of `operations` (the node's own). A per-item operation runs once
 * per input item, a bounded number at a time, and the output keeps the input order with
 * `pairedItem` on every item; with "Continue On Fail" a failing item becomes an error item and
 * the others go on, without it no new item starts after the first failure, which is thrown
 * once the running ones end. A per-execution operation runs once and returns the output itself.
 */
export async function route(n8n: IExecuteFunctions, operations: RegisteredOperation[]): Promise<INodeExecutionData[][]> {
	const execution = new ActionExecution(n8n);
	const first = execution.item(0);
	const { label, operation: definition, resource } = chosenOperation(first, operations);
	const operationItem = (index: number): OperationItem => {
		const item = execution.item(index);
		return { ...item, label, service: resource.service, settings: readRequestSettings(item) };
	};

	if (definition.executeOnce) {
		try {
			return await definition.executeOnce(operationItem(0));
		} catch (error) {
			if (!n8n.continueOnFail()) throw asNodeError(n8n, error);
			return [[continueOnFailItem(n8n, asNodeError(n8n, error), 0)]];
		}
	}

	const items = n8n.getInputData();
	const results: INodeExecutionData[][] = new Array(items.length);
	let next = 0;
	let firstError: Error | undefined;
	const worker = async () => {
		while (next < items.length && !firstError) {
			const index = next++;
			try {
				const result = await definition.execute(operationItem(index));
				results[index] = (Array.isArray(result) ? result : [result]).map((json) => ({ json, pairedItem: { item: index } }));
			} catch (error) {
				if (n8n.continueOnFail()) {
					results[index] = [continueOnFailItem(n8n, asNodeError(n8n, error), index)];
				} else {
					firstError ??= asNodeError(n8n, error);
				}
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(readConcurrency(first), items.length) }, worker));
	if (firstError) throw firstError;
	return [results.flat()];
}
