// Message → Send and Wait for Response: sends a question with a link over chat, and the
// execution waits until the person answers through the link (see ../sendAndWait/ for the
// pages and the answer) or until Limit Wait Time. As n8n's own Send and Wait operations: one
// question per execution (from the first item), and the answer becomes the node's output.
//
// Inside the customer's 24-hour window the question goes as a text message with the link; when
// the service refuses it because the window is closed, the template named for this case goes
// instead, with the link in the parameter that holds {link}. Without one, the node fails
// before waiting and says what to set.
import { SEND_AND_WAIT_OPERATION, type IExecuteFunctions, type INodeExecutionData, type INodeProperties } from 'n8n-workflow';
import type { OperationItem, PerExecutionOperation } from '../../actionNode/operation';
import { invalidInput, needsNewerN8n } from '../../errors';
import { SEND_AND_WAIT_FLOOR } from '../../n8nVersion';
import type { Item } from '../../execution';
import { parameter, requireString } from '../../fields/parameters';
import {
	CHANNEL,
	fallbackIsOn,
	readRecipient,
	recipientFields,
	sendInWindow,
	templateBody,
	windowFallbackFields,
} from '../send';
import { approvalOptionsField, customFormFields, optionsField, outputNotices, responseTypeField } from '../sendAndWait/description';
import type { ReadParameter } from '../sendAndWait/form';
import { readQuestion } from '../sendAndWait/question';
import { readWaitTill } from '../sendAndWait/waitTill';
import { readTemplate, type ReadTemplate, type TemplateChoice, type TemplateFieldNames } from '../template';

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
	idPlaceholder: 'e.g. approval_request',
	parameterHint: `. Put ${LINK_TOKEN} in the one that carries the answer link`,
};

/** Which template the window's fallback needs, before its fields. */
const fallbackNotice: INodeProperties = {
	displayName: `Outside the person's 24-hour window the question goes as an approved template instead, and that template needs a parameter for the answer link: write ${LINK_TOKEN} as its value. For example a template "Your approval is needed: {{1}}. Answer here: {{2}}" with {{2}} = ${LINK_TOKEN}.`,
	name: 'fallbackNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: { fallbackToTemplate: [true] } },
};

/** n8n before SEND_AND_WAIT_FLOOR signs no links; its context then lacks getSignedResumeUrl. */
type SigningContext = IExecuteFunctions & { setSignatureValidationRequired?: () => void };

function signedLink(item: OperationItem): string {
	const context: SigningContext = item.execution.n8n;
	if (typeof context.getSignedResumeUrl !== 'function') {
		throw needsNewerN8n(item, SEND_AND_WAIT_FLOOR, 'This n8n cannot sign the answer link, so anyone who guessed the link could answer.');
	}
	// n8n 1.x checks a link's signature only when asked to; n8n 2.x always does (and dropped the call).
	context.setSignatureValidationRequired?.();
	return context.getSignedResumeUrl();
}

/** The question's template with the link put where {link} is; refused before sending without {link}. */
function readQuestionTemplate(item: Item): ReadTemplate | undefined {
	if (!fallbackIsOn(item)) return undefined;
	const template = readTemplate(item, QUESTION_TEMPLATE_FIELDS);
	if (!template.parameters.some((parameter) => parameter.includes(LINK_TOKEN))) {
		throw invalidInput(
			item,
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
async function askAndWait(item: OperationItem): Promise<INodeExecutionData[][]> {
	// Everything is read and checked first: a mistake fails before anything is sent.
	const to = readRecipient(item);
	requireString(item, message);
	const read: ReadParameter = (name, fallback) => parameter(item, name, fallback);
	const parsed = readQuestion(read);
	if (!parsed.ok) throw invalidInput(item, parsed.field, parsed.value, parsed.problem);
	const { question } = parsed;
	const template = readQuestionTemplate(item);
	const waitTill = readWaitTill(item);
	const link = signedLink(item);

	const filled = template && withLink(template, link);
	await sendInWindow(item, {
		body: { channel: CHANNEL, to, message_type: 'text', text: `${question.message}\n\n${question.linkLabel}: ${link}` },
		fallback: filled && { template: filled, body: templateBody(to, filled) },
		whenClosed: {
			couldNot: 'the question cannot go as a text message',
			hint: `Nothing was sent and the execution does not wait. Outside the window only approved templates can be sent: turn on "Fallback to Template", name the template and put ${LINK_TOKEN} into the parameter that carries the answer link.`,
		},
	});
	const n8n = item.execution.n8n;
	await n8n.putExecutionToWait(waitTill);
	return [n8n.getInputData()];
}

export const sendAndWait: PerExecutionOperation = {
	value: SEND_AND_WAIT_OPERATION,
	name: 'Send and Wait for Response',
	action: 'Send message and wait for response',
	description: 'Send a question with a link over chat; the workflow goes on when the person answers through the link',
	properties: [
		...recipientFields({ withDataToSend: false }),
		message,
		responseTypeField,
		approvalOptionsField,
		...customFormFields,
		...windowFallbackFields(QUESTION_TEMPLATE_FIELDS, `The approved template to send when the window is closed: one with a parameter for the answer link, which gets ${LINK_TOKEN}`, fallbackNotice),
		optionsField,
		...outputNotices,
	],
	executeOnce: askAndWait,
};
