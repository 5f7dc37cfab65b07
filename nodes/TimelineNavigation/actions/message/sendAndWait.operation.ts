// Message → Send and Wait for Response: sends a question with a link over chat, and the
// execution waits until the person answers through the link (see ../../sendAndWait/ for the
// pages and the answer) or until Limit Wait Time. As n8n's own Send and Wait operations: one
// question per execution (from the first item), and the answer becomes the node's output.
//
// Inside the customer's 24-hour window the question goes as a text message with the link; when
// the service refuses it because the window is closed, the template named for this case goes
// instead, with the link in the parameter that holds {link}. Without one, the node fails
// before waiting and says what to set.
import {
	NodeApiError,
	NodeOperationError,
	SEND_AND_WAIT_OPERATION,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';
import { invalidInput, type ServiceError } from '../../errors';
import { DATA_TO_SEND } from '../../helpers/fields';
import { nodeParameter, requireString } from '../../helpers/parameters';
import { postOrFallBack } from '../../messaging/freeForm';
import { CHANNEL, readRecipient, recipientFields, templateBody, type TemplateChoice } from '../../messaging/send';
import { readTemplate, templateFields, type TemplateFieldNames } from '../../messaging/template';
import { approvalOptionsField, customFormFields, optionsField, responseTypeField } from '../../sendAndWait/description';
import type { ReadParameter } from '../../sendAndWait/form';
import { readQuestion } from '../../sendAndWait/question';
import { readWaitTill } from '../../sendAndWait/waitTill';
import type { CallContext } from '../../transport/request';
import type { OperationDefinition } from '../types';

/** Where a template parameter takes the answer link. */
export const LINK_TOKEN = '{link}';

const message: INodeProperties = {
	displayName: 'Message',
	name: 'message',
	type: 'string',
	typeOptions: { rows: 4 },
	required: true,
	default: '',
	placeholder: 'e.g. Refund of $120 for order #1042: do you approve?',
	description: 'The question. It is sent over chat followed by the link to answer it, and shown on the page the link opens.',
};

const fallbackToTemplate: INodeProperties = {
	displayName: 'Fallback to Template',
	name: 'fallbackToTemplate',
	type: 'boolean',
	default: false,
	description: `Whether to send an approved template when the customer's 24-hour window is closed (the service then refuses a text message). Put ${LINK_TOKEN} into the template parameter that carries the link.`,
};

export const QUESTION_TEMPLATE_FIELDS: TemplateFieldNames = {
	labelPrefix: 'Fallback ',
	templateId: 'questionTemplateId',
	input: 'questionParametersInput',
	list: 'questionTemplateParameters',
	array: 'questionTemplateParametersArray',
};

/** This operation has no "Data to Send" choice: its recipient fields are always shown. */
const alwaysShown = (property: INodeProperties): INodeProperties => {
	const show = { ...property.displayOptions?.show };
	delete show[DATA_TO_SEND];
	return { ...property, displayOptions: Object.keys(show).length > 0 ? { ...property.displayOptions, show } : undefined };
};

/** n8n before 1.107 signs no links; its context then lacks getSignedResumeUrl. */
type SigningContext = IExecuteFunctions & { setSignatureValidationRequired?: () => void };

function signedLink(context: SigningContext, itemIndex: number, label: string): string {
	if (typeof context.getSignedResumeUrl !== 'function') {
		throw new NodeOperationError(context.getNode(), `${label} needs n8n 1.107 or newer`, {
			itemIndex,
			description: 'This n8n cannot sign the answer link, so anyone who guessed the link could answer. Update n8n. Nothing was sent.',
		});
	}
	// n8n 1.x checks a link's signature only when asked to; n8n 2.x always does (and dropped the call).
	context.setSignatureValidationRequired?.();
	return context.getSignedResumeUrl();
}

/** The question's template with the link put where {link} is; refused before sending without {link}. */
function readQuestionTemplate(context: IExecuteFunctions, itemIndex: number): TemplateChoice | undefined {
	if (!(nodeParameter(context, fallbackToTemplate.name, itemIndex, false) as boolean)) return undefined;
	const template = readTemplate(context, itemIndex, QUESTION_TEMPLATE_FIELDS);
	if (!template.parameters.some((parameter) => parameter.includes(LINK_TOKEN))) {
		throw invalidInput(
			context,
			itemIndex,
			'Fallback Template Parameters',
			template.parameters,
			`expected ${LINK_TOKEN} in one of the parameters: it is replaced by the answer link, and without the link nobody could answer`,
		);
	}
	return template;
}

const withLink = (template: TemplateChoice, link: string): TemplateChoice => ({
	id: template.id,
	parameters: template.parameters.map((parameter) => parameter.split(LINK_TOKEN).join(link)),
});

function windowClosedWithoutTemplate(label: string, to: string, refusal: ServiceError): ServiceError {
	return refusal.explained(
		`${label} failed: the 24-hour customer service window for ${to} is closed, so the question cannot go as a text message`,
		`Nothing was sent and the execution does not wait. Outside the window only approved templates can be sent: turn on "Fallback to Template", name the template and put ${LINK_TOKEN} into the parameter that carries the answer link.`,
	);
}

/** Sends the question for one item and puts the execution to wait; returns what was sent. */
async function askAndWait(this: IExecuteFunctions, call: CallContext): Promise<IDataObject> {
	const { itemIndex, label } = call;
	// Everything is read and checked first: a mistake fails before anything is sent.
	const to = readRecipient(this, itemIndex);
	requireString(this, itemIndex, message);
	const read: ReadParameter = (name, fallback) => nodeParameter(this, name, itemIndex, fallback);
	const parsed = readQuestion(read);
	if (!parsed.ok) throw invalidInput(this, itemIndex, parsed.field, parsed.value, parsed.problem);
	const { question } = parsed;
	const template = readQuestionTemplate(this, itemIndex);
	const waitTill = readWaitTill(this, itemIndex);
	const link = signedLink(this, itemIndex, label);

	const text = `${question.message}\n\n${question.linkLabel}: ${link}`;
	const filled = template && withLink(template, link);
	const outcome = await postOrFallBack(
		this,
		call,
		{ channel: CHANNEL, to, message_type: 'text', text },
		filled && { template: filled, body: templateBody(to, filled) },
		(refusal) => windowClosedWithoutTemplate(label, to, refusal),
	);
	const sent = { ...outcome.sent, sent_as: outcome.refusal ? 'template' : 'text' };
	await this.putExecutionToWait(waitTill);
	return { ...sent, wait_till: waitTill.toISOString() };
}

function asNodeError(context: IExecuteFunctions, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(context.getNode(), error as Error);
}

export const sendAndWait: OperationDefinition = {
	value: SEND_AND_WAIT_OPERATION,
	name: 'Send and Wait for Response',
	action: 'Send message and wait for response',
	description: 'Send a question with a link over chat; the workflow goes on when the person answers through the link',
	properties: [
		...recipientFields.map(alwaysShown),
		message,
		responseTypeField,
		approvalOptionsField,
		...customFormFields,
		fallbackToTemplate,
		...templateFields(QUESTION_TEMPLATE_FIELDS, `The approved template to send when the window is closed; one parameter must hold ${LINK_TOKEN}`, {
			fallbackToTemplate: [true],
		}),
		optionsField,
	],
	execute: askAndWait,
	// One question and one wait for the whole execution, as n8n's own Send and Wait: while
	// waiting the node shows its input items; the answer replaces them.
	async executeOnce(this: IExecuteFunctions, call): Promise<INodeExecutionData[][]> {
		try {
			await askAndWait.call(this, { ...call, itemIndex: 0 });
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(this, error);
			const failed = asNodeError(this, error);
			const json: IDataObject = { error: failed.message };
			if (failed.description) json.description = failed.description;
			return [[{ json, pairedItem: { item: 0 } }]];
		}
		return [this.getInputData()];
	},
};
