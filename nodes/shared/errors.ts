// Every error the action node raises is made here, so each kind reads the same wherever it
// comes from:
// - `invalidInput`: a field's value is wrong; raised before anything is sent, naming the field
//   as the editor labels it, the value, the item and how to fix it (`invalidSetting` for a
//   trigger's field, which belongs to no item);
// - `serviceFailure`: the service answered with an error (or an answer the operation cannot
//   use), or could not be reached: "<Resource> → <Operation> failed: <what happened>", with the
//   HTTP status and the service's own words kept, so a refusal can be recognised by type and
//   explained in plain words later (`ServiceError.explained`);
// - `unsupportedOperation`, `needsNewerN8n`, `n8nTooOld`: what the node cannot do here;
// - `asNodeError`: anything else thrown, as an error n8n shows with the node's name.
// The words that depend on HTTP (hints per status, network failures) live in transport.ts.
import { NodeApiError, NodeOperationError, type Failure, type INode, type JsonObject } from 'n8n-workflow';
import { N8N_FLOOR } from './n8nVersion';

/** Anything that knows its node: the execute, load-options, poll and webhook contexts. */
interface NodeContext {
	getNode(): INode;
}

/** Where an error belongs: the node's run (and so the node) and the input item. */
export interface ErrorPlace {
	readonly execution: { readonly n8n: NodeContext };
	readonly index: number;
}

/** An operation's place, as its errors start: "Time → Travel failed: ...". */
export interface OperationPlace extends ErrorPlace {
	/** The operation as the editor names it: "Time → Travel". */
	readonly label: string;
}

/** How a value is shown inside an error message: short, and never mistaken for text around it. */
export function showValue(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	const text = typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
	return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** A field of the input item (Data to Send: Map Automatically), as errors name it. */
export class InputField {
	constructor(readonly path: string) {}

	toString(): string {
		return `input field "${this.path}"`;
	}
}

/** An input error, raised before any request: names the field, the value and the item. */
export function invalidInput(item: ErrorPlace, field: string | InputField, value: unknown, expected: string): NodeOperationError {
	const itemIndex = item.index;
	const fix =
		field instanceof InputField
			? `Fix the field "${field.path}" of input item ${itemIndex} (Data to Send is "Map Automatically"), or set Data to Send to "Define Below" and fill the fields there.`
			: `Fix "${field}" (or the expression that fills it) for item ${itemIndex}.`;
	return new NodeOperationError(
		item.execution.n8n.getNode(),
		`Invalid ${String(field)} in item ${itemIndex}: got ${showValue(value)}, ${expected}`,
		{ itemIndex, description: `${fix} Nothing was sent for this item.` },
	);
}

/** A trigger's field is wrong: named as the editor labels it, with the value; nothing was asked. */
export function invalidSetting(context: NodeContext, field: string, value: unknown, expected: string): NodeOperationError {
	return new NodeOperationError(context.getNode(), `Invalid ${field}: got ${showValue(value)}, ${expected}`, {
		description: `Fix "${field}" in the trigger. Nothing was asked of the service.`,
	});
}

interface ServiceErrorParts {
	/** What the user reads first: the operation, and what happened. */
	message: string;
	/** What to do about it. */
	description: string;
	/** The HTTP status, when the service answered. */
	status?: number;
	/** The service's own words, when its answer held any (keys already blanked out). */
	serviceMessage?: string;
	/** Why, as n8n's poll scheduler reads it to back off (n8n 2.41+; older n8n ignores it). */
	failure?: Failure;
}

export class ServiceError extends NodeApiError {
	readonly status?: number;

	readonly serviceMessage?: string;

	constructor(node: INode, itemIndex: number, parts: ServiceErrorParts) {
		const { message, description, status, failure } = parts;
		// Built from plain values only: the raw HTTP error carries the request headers, bearer key included.
		super(node, { message, description } as JsonObject, {
			message,
			description,
			httpCode: status === undefined ? undefined : String(status),
			itemIndex,
			failure,
		});
		// n8n names errors by class in the editor and in stored executions: keep its name.
		this.name = 'NodeApiError';
		this.status = status;
		this.serviceMessage = parts.serviceMessage;
	}

	/** A 4xx: the service understood the request and refused it, so it did not act on it. */
	get isRefusal(): boolean {
		return this.status !== undefined && this.status >= 400 && this.status < 500;
	}

	/**
	 * The same answer explained in plain words: `explanation` says what happened, `hint` what to
	 * do; the service's own words follow the hint, so the message does not say them twice.
	 */
	explained(explanation: string, hint: string): ServiceError {
		return new ServiceError(this.node, Number(this.context.itemIndex ?? 0), {
			status: this.status,
			serviceMessage: this.serviceMessage,
			message: `${explanation}${this.status === undefined ? '' : ` (HTTP ${this.status})`}`,
			description: this.serviceMessage ? `${hint} The service said: ${this.serviceMessage}` : hint,
		});
	}
}

/** What went wrong talking to the service. */
export interface ServiceFailure {
	/** What happened, after "failed: ". */
	what: string;
	/** What the node did about it, in brackets at the end of the message. */
	note?: string;
	description: string;
	status?: number;
	serviceMessage?: string;
	failure?: Failure;
}

/** "<Resource> → <Operation> failed: <what happened>", with the status and the service's words. */
export function serviceFailure(operation: OperationPlace, failure: ServiceFailure): ServiceError {
	const { what, note, description, status, serviceMessage } = failure;
	return new ServiceError(operation.execution.n8n.getNode(), operation.index, {
		message: `${operation.label} failed: ${what}${note ? ` (${note})` : ''}`,
		description,
		status,
		serviceMessage,
		failure: failure.failure,
	});
}

/**
 * A resource or operation this node does not offer: a workflow made with another node (such as
 * the combined package's, which offers both services) or another version. `offered` names the
 * node's resources. n8n drops the operation of a resource the node does not offer, so it may be
 * missing.
 */
export function unsupportedOperation(context: NodeContext, resource: unknown, operation: unknown, offered: string[]): NodeOperationError {
	const what = operation === undefined || operation === '' ? `the resource ${showValue(resource)}` : `the operation ${showValue(operation)} of the resource ${showValue(resource)}`;
	return new NodeOperationError(context.getNode(), `This node does not offer ${what}`, {
		description: `It offers ${offered.join(', ')}. Choose the Resource and the Operation again in the node (a workflow made with another node of these services keeps that node's choices). Nothing was sent.`,
	});
}

/** A feature the running n8n lacks: `why` says what would go wrong without it. */
export function needsNewerN8n(operation: OperationPlace, version: string, why: string): NodeOperationError {
	return new NodeOperationError(operation.execution.n8n.getNode(), `${operation.label} needs n8n ${version} or newer`, {
		itemIndex: operation.index,
		description: `${why} Update n8n. Nothing was sent.`,
	});
}

/** The node on an n8n older than the package's floor (n8nVersion.ts), where it loads but does not run; `consequence`: what did not happen. */
export function n8nTooOld(context: NodeContext, consequence: string): NodeOperationError {
	return new NodeOperationError(context.getNode(), `This node needs n8n ${N8N_FLOOR} or newer`, {
		description: `This n8n is older than ${N8N_FLOOR} and lacks what the node is built on. Update n8n. ${consequence}`,
	});
}

/** Errors n8n shows as the node's own pass as they are; anything else (a bug) is wrapped. */
export function asNodeError(context: NodeContext, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(context.getNode(), error as Error);
}
