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
	SEND_AND_WAIT_OPERATION,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';
import { invalidInput, needsNewerN8n } from '../../errors';
import { DATA_TO_SEND } from '../../helpers/fields';
import { nodeParameter, requireString } from '../../helpers/parameters';
import { CHANNEL, readRecipient, recipientFields, templateBody, type TemplateChoice } from '../../messaging/send';
import { readTemplate, type ReadTemplate, type TemplateFieldNames } from '../../messaging/template';
import { fallbackIsOn, postOrFallBack, windowClosedError, windowFallbackFields } from '../../messaging/window';
import { approvalOptionsField, customFormFields, optionsField, responseTypeField } from '../../sendAndWait/description';
import type { ReadParameter } from '../../sendAndWait/form';
import { readQuestion } from '../../sendAndWait/question';
import { readWaitTill } from '../../sendAndWait/waitTill';
import type { CallContext } from '../../transport/request';
import type { PerExecutionOperation } from '../types';

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

/** The question's fallback template: its own parameter names, labelled as the free-form sends' fallback. */
const QUESTION_TEMPLATE_FIELDS: TemplateFieldNames = {
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
		throw needsNewerN8n(context, itemIndex, label, '1.107', 'This n8n cannot sign the answer link, so anyone who guessed the link could answer.');
	}
	// n8n 1.x checks a link's signature only when asked to; n8n 2.x always does (and dropped the call).
	context.setSignatureValidationRequired?.();
	return context.getSignedResumeUrl();
}

/** The question's template with the link put where {link} is; refused before sending without {link}. */
function readQuestionTemplate(context: IExecuteFunctions, itemIndex: number): ReadTemplate | undefined {
	if (!fallbackIsOn((name, value) => nodeParameter(context, name, itemIndex, value))) return undefined;
	const template = readTemplate(context, itemIndex, QUESTION_TEMPLATE_FIELDS);
	if (!template.parameters.some((parameter) => parameter.includes(LINK_TOKEN))) {
		throw invalidInput(
			context,
			itemIndex,
			template.parametersField,
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

/**
 * Sends the question (read from the first item: one question per execution, as n8n's own Send
 * and Wait) and puts the execution to wait. While it waits the node shows its input items; the
 * answer replaces them (sendAndWait/webhook.ts).
 */
async function askAndWait(this: IExecuteFunctions, call: CallContext): Promise<INodeExecutionData[][]> {
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
	await postOrFallBack(
		this,
		call,
		{ channel: CHANNEL, to, message_type: 'text', text },
		filled && { template: filled, body: templateBody(to, filled) },
		(refusal) =>
			windowClosedError(
				label,
				to,
				refusal,
				'the question cannot go as a text message',
				`Nothing was sent and the execution does not wait. Outside the window only approved templates can be sent: turn on "Fallback to Template", name the template and put ${LINK_TOKEN} into the parameter that carries the answer link.`,
			),
	);
	await this.putExecutionToWait(waitTill);
	return [this.getInputData()];
}

export const sendAndWait: PerExecutionOperation = {
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
		...windowFallbackFields(QUESTION_TEMPLATE_FIELDS, `The approved template to send when the window is closed; one parameter must hold ${LINK_TOKEN}`),
		optionsField,
	],
	executeOnce: askAndWait,
};
