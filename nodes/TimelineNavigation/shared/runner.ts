import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

/** What one operation returns for one input item: one result, or one item per entry. */
export type OperationResult = IDataObject | IDataObject[];

export type OperationHandler = (this: IExecuteFunctions, itemIndex: number) => Promise<OperationResult>;

export type ResourceHandlers = Record<string, OperationHandler>;

export const DEFAULT_CONCURRENCY = 10;

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
export async function runOperation(
	this: IExecuteFunctions,
	resources: Record<string, ResourceHandlers>,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const handler = resources[resource]?.[operation];
	if (!handler) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	}
	const concurrency = Math.max(
		1,
		Number(this.getNodeParameter('requestOptions.concurrency', 0, DEFAULT_CONCURRENCY)) || DEFAULT_CONCURRENCY,
	);

	const results: INodeExecutionData[][] = new Array(items.length);
	let next = 0;
	let firstError: Error | undefined;

	const worker = async () => {
		while (next < items.length && !firstError) {
			const itemIndex = next++;
			try {
				const result = await handler.call(this, itemIndex);
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
