// What an operation and a resource are, as the registry, the node's description and the router
// read them.
import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeExecutionData,
	INodeListSearchResult,
	INodeProperties,
	INodePropertyOptions,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import type { ActionExecution, Item } from '../execution';
import type { Service } from '../services';
import type { RequestScope } from '../transport';

/**
 * One operation run for one input item: the run (its parameters and credentials), the item, and
 * how to ask the service. What operations read fields and send requests with.
 */
export interface OperationItem extends Item, RequestScope {
	readonly execution: ActionExecution;
}

/** What one operation returns for one input item: one result, or one item per entry. */
export type OperationResult = IDataObject | IDataObject[];

interface OperationBase {
	/** Stored in saved workflows: never rename it once released. */
	value: string;
	/** As the editor lists it: "Fast-Forward". */
	name: string;
	/** n8n's action text (node panel, AI tools): "Fast forward time". */
	action: string;
	description: string;
	/**
	 * The operation's own fields, in the order the editor shows them. The registry adds the
	 * resource and operation to their display rules; rules on other fields stay as written.
	 */
	properties: INodeProperties[];
}

/** Runs once per input item; the router runs items side by side and keeps their order. */
export interface PerItemOperation extends OperationBase {
	execute(item: OperationItem): Promise<OperationResult>;
	executeOnce?: never;
}

/**
 * Runs once per execution and returns the node's output itself. Send and Wait: one question
 * (read from the first item) and one wait for the whole input, as n8n's own Send and Wait.
 */
export interface PerExecutionOperation extends OperationBase {
	executeOnce(first: OperationItem): Promise<INodeExecutionData[][]>;
	execute?: never;
}

export type OperationDefinition = PerItemOperation | PerExecutionOperation;

export interface ResourceDefinition {
	/** Stored in saved workflows: never rename it once released. */
	value: string;
	name: string;
	service: Service;
	defaultOperation: string;
	/** Listed in the editor in this order (n8n's convention: alphabetical). */
	operations: OperationDefinition[];
}

export const operationOption = (operation: OperationDefinition): INodePropertyOptions => ({
	name: operation.name,
	value: operation.value,
	action: operation.action,
	description: operation.description,
});

export interface RegisteredOperation {
	/** `resource.operation`, as the tests' tables are keyed: "time.travel". */
	key: string;
	resource: ResourceDefinition;
	operation: OperationDefinition;
	/** As the editor names it, and as every error of the operation starts: "Time → Travel". */
	label: string;
}

/** Each operation of `resources` with its key and label. */
export function registeredOperations(resources: ResourceDefinition[]): RegisteredOperation[] {
	return resources.flatMap((resource) =>
		resource.operations.map((operation) => ({
			key: `${resource.value}.${operation.value}`,
			resource,
			operation,
			label: `${resource.name} → ${operation.name}`,
		})),
	);
}

/**
 * What one service brings to an action node: its resources, and what the node adds for them
 * (list searches for its pickers; the waiting webhooks of Send and Wait).
 */
export interface ServiceActions {
	resources: ResourceDefinition[];
	listSearch?: Record<string, (this: ILoadOptionsFunctions, filter?: string) => Promise<INodeListSearchResult>>;
	waitingWebhook?: {
		webhooks: IWebhookDescription[];
		/** Shown on a node that waits, in the editor. */
		tooltip: string;
		/** Answers the waiting webhooks: the page (GET) and the answer (POST). */
		answer: (this: IWebhookFunctions) => Promise<IWebhookResponseData>;
	};
}

/** The services' resources, in the editor's order (alphabetical, as n8n lists resources). */
export function resourcesOf(services: ServiceActions[]): ResourceDefinition[] {
	return services.flatMap((service) => service.resources).sort((a, b) => a.name.localeCompare(b.name));
}
