// The node's two kinds of error, made here and nowhere else:
// - `invalidInput`: a field's value is wrong; raised before anything is sent, naming the field,
//   the value, the item and how to fix it;
// - `ServiceError`: the service answered with an error (or an answer the operation cannot use),
//   or could not be reached; it carries the HTTP status and the service's own words, so a
//   refusal can be recognised by type and explained in plain words later.
import { NodeApiError, NodeOperationError, type INode, type JsonObject } from 'n8n-workflow';

/** Anything that knows its node: the execute, load-options and webhook contexts. */
interface NodeContext {
	getNode(): INode;
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
export function invalidInput(
	context: NodeContext,
	itemIndex: number,
	field: string | InputField,
	value: unknown,
	expected: string,
): NodeOperationError {
	const fix =
		field instanceof InputField
			? `Fix the field "${field.path}" of input item ${itemIndex} (Data to Send is "Map Automatically"), or set Data to Send to "Define Below" and fill the fields there.`
			: `Fix "${field}" (or the expression that fills it) for item ${itemIndex}.`;
	return new NodeOperationError(
		context.getNode(),
		`Invalid ${String(field)} in item ${itemIndex}: got ${showValue(value)}, ${expected}`,
		{ itemIndex, description: `${fix} Nothing was sent for this item.` },
	);
}

export interface ServiceErrorParts {
	/** What the user reads first: the operation, and what happened. */
	message: string;
	/** What to do about it. */
	description: string;
	/** The HTTP status, when the service answered. */
	status?: number;
	/** The service's own words, when its answer held any (keys already blanked out). */
	serviceMessage?: string;
}

export class ServiceError extends NodeApiError {
	readonly status?: number;

	readonly serviceMessage?: string;

	constructor(context: NodeContext, itemIndex: number, parts: ServiceErrorParts) {
		const { message, description, status } = parts;
		// Built from plain values only: the raw HTTP error carries the request headers, bearer key included.
		super(context.getNode(), { message, description } as JsonObject, {
			message,
			description,
			httpCode: status === undefined ? undefined : String(status),
			itemIndex,
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
		return new ServiceError({ getNode: () => this.node }, Number(this.context.itemIndex ?? 0), {
			status: this.status,
			serviceMessage: this.serviceMessage,
			message: `${explanation}${this.status === undefined ? '' : ` (HTTP ${this.status})`}`,
			description: this.serviceMessage ? `${hint} The service said: ${this.serviceMessage}` : hint,
		});
	}
}
