// Reading and checking the Message resource's inputs, and turning the messaging service's
// refusals (closed window, business account, templates) into errors a user can act on.
import {
	NodeApiError,
	type IDataObject,
	type IExecuteFunctions,
	type JsonObject,
} from 'n8n-workflow';
import { invalidInput, showValue, unwrap } from './parameters';
import { checkE164, findPlaceholders, parseJsonObject } from './validation';

export const CHANNEL = 'chatapp';

export const MEDIA_TYPES = ['audio', 'file', 'image', 'video'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** The names of one "template and parameters" group of fields: the main one or the fallback. */
export interface TemplateFieldNames {
	/** Put before every display name of the group ('' or 'Fallback '). */
	labelPrefix: string;
	templateId: string;
	input: string;
	list: string;
	array: string;
}

export const TEMPLATE_FIELDS: TemplateFieldNames = {
	labelPrefix: '',
	templateId: 'templateId',
	input: 'parametersInput',
	list: 'templateParameters',
	array: 'templateParametersArray',
};

export const FALLBACK_TEMPLATE_FIELDS: TemplateFieldNames = {
	labelPrefix: 'Fallback ',
	templateId: 'fallbackTemplateId',
	input: 'fallbackParametersInput',
	list: 'fallbackTemplateParameters',
	array: 'fallbackTemplateParametersArray',
};

/** The recipient, in E.164, normalised first when "Normalize Phone Number" is on. */
export function readRecipient(context: IExecuteFunctions, itemIndex: number): string {
	const value = context.getNodeParameter('to', itemIndex, '') as unknown;
	const normalize = context.getNodeParameter('normalizePhoneNumber', itemIndex, true) as boolean;
	return unwrap(context, itemIndex, 'To', value, checkE164(value, normalize));
}

/** One template parameter as text; empty is an error naming its position, never dropped. */
function templateParameter(
	context: IExecuteFunctions,
	itemIndex: number,
	position: number,
	value: unknown,
	labelPrefix: string,
): string {
	const field = `${labelPrefix}Template Parameter {{${position}}}`;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	if (typeof value !== 'string') {
		throw invalidInput(
			context,
			itemIndex,
			field,
			value,
			`expected text for the template's placeholder {{${position}}} (position ${position})`,
		);
	}
	if (value.trim() === '') {
		throw invalidInput(
			context,
			itemIndex,
			field,
			value,
			`expected a value: parameter ${position} is empty. Templates fill {{1}}, {{2}}, ... by position, so an empty parameter is neither skipped nor moved; give it a value`,
		);
	}
	return value;
}

/** The template's ID and its ordered parameters, listed one by one or from one array. */
export function readTemplate(
	context: IExecuteFunctions,
	itemIndex: number,
	names: TemplateFieldNames,
): { id: string; parameters: string[] } {
	const rawId = context.getNodeParameter(names.templateId, itemIndex, '') as unknown;
	if ((typeof rawId !== 'string' && typeof rawId !== 'number') || String(rawId).trim() === '') {
		throw invalidInput(context, itemIndex, `${names.labelPrefix}Template ID`, rawId, 'expected the ID of an approved template');
	}
	const input = context.getNodeParameter(names.input, itemIndex, 'list') as string;
	let values: unknown[];
	if (input === 'array') {
		const label = `${names.labelPrefix}Parameters (Array)`;
		values = readArray(context, itemIndex, label, context.getNodeParameter(names.array, itemIndex, []));
	} else {
		const entries = context.getNodeParameter(`${names.list}.parameter`, itemIndex, []) as IDataObject[];
		values = entries.map((entry) => entry.value);
	}
	return {
		id: String(rawId).trim(),
		parameters: values.map((value, index) => templateParameter(context, itemIndex, index + 1, value, names.labelPrefix)),
	};
}

function readArray(context: IExecuteFunctions, itemIndex: number, field: string, value: unknown): unknown[] {
	const expected = 'expected an array of parameter values in template order, such as ["Ada", "#1042"]';
	let parsed = value;
	if (typeof value === 'string') {
		if (value.trim() === '') return [];
		try {
			parsed = JSON.parse(value);
		} catch {
			throw invalidInput(context, itemIndex, field, value, `${expected} (it is not valid JSON)`);
		}
	}
	if (!Array.isArray(parsed)) throw invalidInput(context, itemIndex, field, value, expected);
	return parsed;
}

/** Injected fields as name/value pairs or one JSON object; values must be text, numbers or booleans. */
export function readInjectedFields(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const mode = context.getNodeParameter('injectedFieldsInput', itemIndex, 'pairs') as string;
	const fields: IDataObject = {};
	if (mode === 'json') {
		const raw = context.getNodeParameter('injectedFieldsJson', itemIndex, '{}') as unknown;
		const object = unwrap(context, itemIndex, 'Injected Fields (JSON)', raw, parseJsonObject(raw));
		for (const [name, value] of Object.entries(object)) {
			if (!['string', 'number', 'boolean'].includes(typeof value)) {
				throw invalidInput(
					context,
					itemIndex,
					`Injected Fields (JSON) "${name}"`,
					value,
					'expected text, a number or a boolean: a placeholder is replaced by one value',
				);
			}
			fields[name] = value as string | number | boolean;
		}
		return fields;
	}
	const pairs = context.getNodeParameter('injectedFields.field', itemIndex, []) as IDataObject[];
	pairs.forEach((pair, index) => {
		const name = typeof pair.name === 'string' ? pair.name.trim() : String(pair.name ?? '').trim();
		if (name === '') {
			throw invalidInput(context, itemIndex, `Injected Field ${index + 1} Name`, pair.name, 'expected the placeholder name, such as first_name for {first_name}');
		}
		if (Object.prototype.hasOwnProperty.call(fields, name)) {
			throw invalidInput(context, itemIndex, `Injected Field ${index + 1} Name`, name, 'expected each name once: this name is already listed above');
		}
		fields[name] = (pair.value ?? '') as string | number | boolean;
	});
	return fields;
}

/** Placeholders in the text that no injected field fills, in order of appearance. */
export function unfilledPlaceholders(text: string, injected: IDataObject): string[] {
	return findPlaceholders(text).filter((name) => !Object.prototype.hasOwnProperty.call(injected, name));
}

/** A JSON object field, required to hold at least one key. */
export function readJsonObject(context: IExecuteFunctions, itemIndex: number, name: string, field: string): IDataObject {
	const raw = context.getNodeParameter(name, itemIndex, '') as unknown;
	const object = unwrap(context, itemIndex, field, raw, parseJsonObject(raw));
	if (Object.keys(object).length === 0) {
		throw invalidInput(context, itemIndex, field, raw, 'expected a JSON object with at least one field, such as {"type": "poll"}');
	}
	return object as IDataObject;
}

export function checkHttpUrl(context: IExecuteFunctions, itemIndex: number, field: string, value: unknown): string {
	const text = typeof value === 'string' ? value.trim() : '';
	let url: URL | undefined;
	try {
		url = new URL(text);
	} catch {
		url = undefined;
	}
	if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
		throw invalidInput(context, itemIndex, field, value, 'expected an http or https URL, such as https://example.com/photo.jpg');
	}
	return text;
}

/**
 * The "Additional Fields" of a send: Extra Body Fields (JSON) for the body and, for media,
 * Caption, File Name and Extra Media Fields (JSON) for the media object.
 */
export function readAdditionalFields(
	context: IExecuteFunctions,
	itemIndex: number,
): { body: IDataObject; media: IDataObject } {
	const { extraBody, extraMedia, caption, fileName } = context.getNodeParameter(
		'additionalFields',
		itemIndex,
		{},
	) as IDataObject;
	const media: IDataObject = {};
	if (typeof caption === 'string' && caption !== '') media.caption = caption;
	if (typeof fileName === 'string' && fileName !== '') media.filename = fileName;
	if (extraMedia !== undefined) {
		Object.assign(media, unwrap(context, itemIndex, 'Extra Media Fields (JSON)', extraMedia, parseJsonObject(extraMedia)));
	}
	const body =
		extraBody === undefined
			? {}
			: (unwrap(context, itemIndex, 'Extra Body Fields (JSON)', extraBody, parseJsonObject(extraBody)) as IDataObject);
	return { body, media };
}

/**
 * Adds the Extra Body Fields to a body the node built. A field the node sets itself (to,
 * message_type, ...) is an error rather than silently replaced one way or the other.
 */
export function mergeExtraBody(
	context: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
	extra: IDataObject,
): IDataObject {
	for (const name of Object.keys(extra)) {
		if (Object.prototype.hasOwnProperty.call(body, name)) {
			throw invalidInput(
				context,
				itemIndex,
				'Extra Body Fields (JSON)',
				extra,
				`expected only fields this node does not set itself: remove "${name}", which comes from the node's own fields`,
			);
		}
	}
	return { ...body, ...extra };
}

// ---- refusals ------------------------------------------------------------------------

interface ServiceRefusal {
	status?: number;
	code?: string;
	message?: string;
}

/** What the service said about a failed request (from apiRequest's error context). */
export function refusalOf(error: unknown): ServiceRefusal | undefined {
	if (!(error instanceof NodeApiError)) return undefined;
	const context = (error.context ?? {}) as IDataObject;
	if (typeof context.status !== 'number') return undefined;
	return {
		status: context.status,
		code: typeof context.serviceCode === 'string' ? context.serviceCode : undefined,
		message: typeof context.serviceMessage === 'string' ? context.serviceMessage : undefined,
	};
}

// The real service's error codes are not documented: the sandbox's codes are recognised,
// and so is a message that talks about the same thing.
export function isWindowClosed(refusal: ServiceRefusal | undefined): boolean {
	if (!refusal || refusal.status === undefined || refusal.status < 400 || refusal.status >= 500) return false;
	if (refusal.code === 'window_closed') return true;
	const text = refusal.message ?? '';
	return /24[\s-]*h(ou)?r|service window|conversation window|messaging window|window (is )?(closed|expired)/i.test(text);
}

export function isBusinessNotConnected(refusal: ServiceRefusal | undefined): boolean {
	if (!refusal) return false;
	if (refusal.code === 'business_account_not_connected') return true;
	return /business account[^.]*not (been )?connected|not connected[^.]*business account/i.test(refusal.message ?? '');
}

type TemplateProblem = 'parameters' | 'not_approved' | 'not_found' | 'other';

export function templateProblemOf(refusal: ServiceRefusal | undefined): TemplateProblem | undefined {
	if (!refusal || refusal.status === undefined || refusal.status < 400 || refusal.status >= 500) return undefined;
	const code = refusal.code ?? '';
	const text = refusal.message ?? '';
	if (code === 'template_parameters' || /template[^.]*parameter|parameter[^.]*template/i.test(text)) return 'parameters';
	if (code === 'template_not_approved' || /template[^.]*not (been )?approved/i.test(text)) return 'not_approved';
	if (code === 'template_not_found' || /template[^.]*(not found|does not exist|unknown)/i.test(text)) return 'not_found';
	if (code.startsWith('template') || /\btemplate\b/i.test(text)) return 'other';
	return undefined;
}

/** A refusal explained in plain words, the service's own message attached. */
export function explainedRefusal(
	context: IExecuteFunctions,
	itemIndex: number,
	refusal: ServiceRefusal,
	explanation: string,
	hint: string,
): NodeApiError {
	const said = refusal.message ? ` The service said (HTTP ${refusal.status}): ${refusal.message}` : ` (HTTP ${refusal.status})`;
	const message = `${explanation}.${said}`;
	const error = new NodeApiError(context.getNode(), { message, description: hint } as JsonObject, {
		message,
		description: hint,
		httpCode: refusal.status !== undefined ? String(refusal.status) : undefined,
		itemIndex,
	});
	error.context = {
		...error.context,
		status: refusal.status,
		serviceCode: refusal.code,
		serviceMessage: refusal.message,
	};
	return error;
}

/** Turns the refusals every send can meet into plain-words errors; anything else is returned unchanged. */
export function explainSendError(
	context: IExecuteFunctions,
	itemIndex: number,
	operation: string,
	error: unknown,
	template?: { id: string; parameters: string[] },
): unknown {
	const refusal = refusalOf(error);
	if (!refusal) return error;
	if (isBusinessNotConnected(refusal)) {
		return explainedRefusal(
			context,
			itemIndex,
			refusal,
			`${operation} failed: the business account is not connected to the chat-app channel, so nothing can be sent`,
			'Connect a business account to the chat-app channel in the messaging dashboard, then run the workflow again.',
		);
	}
	const problem = template ? templateProblemOf(refusal) : undefined;
	if (template && problem) {
		const sent = `parameters sent, in this order: ${template.parameters.length ? template.parameters.map((p, i) => `{{${i + 1}}} ${showValue(p)}`).join(', ') : 'none'}`;
		const explanations: Record<TemplateProblem, [string, string]> = {
			parameters: [
				`the service rejected template "${template.id}": a parameter is missing, extra or out of order (${sent})`,
				'List the parameters in the order of the template\'s placeholders {{1}}, {{2}}, ... with one value for each; the node sends them exactly in the order given.',
			],
			not_approved: [
				`the service rejected template "${template.id}": it is not approved yet, and only approved templates can be sent`,
				'Wait for the channel operator to approve the template, or choose an approved one.',
			],
			not_found: [
				`the service does not know template "${template.id}"`,
				'Check the template ID in the messaging dashboard (IDs are case-sensitive).',
			],
			other: [`the service rejected template "${template.id}" (${sent})`, 'See the service\'s message for what to change.'],
		};
		const [explanation, hint] = explanations[problem];
		return explainedRefusal(context, itemIndex, refusal, `${operation} failed: ${explanation}`, hint);
	}
	return error;
}

export function windowClosedError(
	context: IExecuteFunctions,
	itemIndex: number,
	operation: string,
	to: string,
	refusal: ServiceRefusal,
): NodeApiError {
	return explainedRefusal(
		context,
		itemIndex,
		refusal,
		`${operation} failed: the 24-hour customer service window for ${to} is closed, so a free-form message cannot be sent. Send a template instead (operation "Send Template"), or turn on "Fallback Template When Window Closed"`,
		'The window opens for 24 hours each time the customer writes to you. Outside it, only approved templates can be sent.',
	);
}
