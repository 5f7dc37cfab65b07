// The package's action nodes, from one definition: a node is its catalog entry (names, icon,
// description) and the actions of the services it offers. Each node class is this class with
// its entry and services, so a node of one service loads only that service's modules. Its
// `execute` is the router: the chosen operation, once per input item (or once per run), with the
// run's credentials read once (../execution.ts).
import {
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
	type NodeApiError,
	type NodeOperationError,
} from 'n8n-workflow';
import { type ActionNodeEntry, shownNames } from '../catalog';
import { asNodeError, belowTheFloor, unsupportedOperation } from '../errors';
import { ActionExecution, type Item } from '../execution';
import { parameter } from '../fields/parameters';
import { readConcurrency, readRequestSettings } from '../fields/requestOptions';
import { MAIN_CONNECTION, ON_SUPPORTED_N8N, withFloorNotice } from '../n8nVersion';
import { actionNodeParts } from './description';
import { type OperationItem, type RegisteredOperation, resourcesOf, type ServiceActions } from './operation';

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
async function route(n8n: IExecuteFunctions, operations: RegisteredOperation[]): Promise<INodeExecutionData[][]> {
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

/** An action node: `entry` says what it is called and shows, `services` what it does. */
export class ActionNode implements INodeType {
	readonly description: INodeTypeDescription;

	readonly methods?: INodeType['methods'];

	readonly execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

	/** The link of a Send and Wait question: the page (GET) and the answer (POST). */
	readonly webhook?: (this: IWebhookFunctions) => Promise<IWebhookResponseData>;

	constructor(entry: ActionNodeEntry, services: ServiceActions[]) {
		const parts = actionNodeParts(resourcesOf(services), entry.defaultResource);
		const waiting = services.find((service) => service.waitingWebhook)?.waitingWebhook;
		const listSearch = Object.assign({}, ...services.map((service) => service.listSearch ?? {})) as Record<string, never>;
		this.description = {
			...shownNames(entry),
			icon: { light: `file:${entry.icon}.svg`, dark: `file:${entry.icon}.dark.svg` },
			group: ['transform'],
			// A list, even of one version: n8n adds a "Custom API Call" choice to the Resource and
			// Operation lists of a node whose `defaultVersion` is missing or equals `version`, and
			// picking it names the node "__CUSTOM_API_CALL__ <resource>" (custom-api-call.e2e).
			version: [1],
			defaultVersion: 1,
			subtitle: parts.subtitle,
			usableAsTool: true,
			inputs: [MAIN_CONNECTION],
			outputs: [MAIN_CONNECTION],
			credentials: parts.credentials,
			// Message → Send and Wait for Response: n8n's waiting webhooks, never registered with a
			// service (docs/send-and-wait.md says why they need no webhookMethods).
			...(waiting && { webhooks: waiting.webhooks, waitingNodeTooltip: waiting.tooltip }),
			properties: withFloorNotice(parts.properties),
		};
		if (Object.keys(listSearch).length > 0) this.methods = { listSearch };
		// Only a node that can wait has a webhook method: n8n counts a node with one as able to
		// start a workflow.
		if (waiting) this.webhook = waiting.answer;
		const operations = parts.operations;
		this.execute = async function (this: IExecuteFunctions) {
			if (!ON_SUPPORTED_N8N) throw belowTheFloor(this, 'Nothing was sent.');
			return await route(this, operations);
		};
	}
}
