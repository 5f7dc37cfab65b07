// The link of a Send and Wait question, once n8n has checked its signature and found the
// execution waiting at this node. A GET (a person opening the link, or a chat app's preview bot
// fetching it) only ever shows the page; the answer is the form the person submits (a POST).
// An answer that is incomplete shows the page again, and the execution keeps waiting.
//
// This function never throws: n8n would resume the waiting execution with the error.
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { normalizeLineBreaks, readFormAnswer, type ReadParameter, type Submitted } from './form';
import { type Page, PAGE_SECURITY_POLICY } from './html';
import { ANSWER_FIELD, APPROVE, DECLINE, questionPage, recordedPage, TEXT_FIELD, unavailablePage } from './pages';
import { type Question, readQuestion } from './question';

/** Writes the page itself, with headers that keep it out of caches, search engines and frames. */
function respond(context: IWebhookFunctions, shown: Page): IWebhookResponseData {
	const res = context.getResponseObject();
	res.status(shown.status);
	res.setHeader('Content-Type', 'text/html; charset=utf-8');
	res.setHeader('Cache-Control', 'no-store');
	res.setHeader('Content-Security-Policy', PAGE_SECURITY_POLICY);
	res.setHeader('Referrer-Policy', 'no-referrer');
	res.setHeader('X-Robots-Tag', 'noindex, nofollow');
	res.end(shown.html);
	return { noWebhookResponse: true };
}

/**
 * The posted form as text values (a field sent twice is a list). n8n hands a multipart form
 * over as `{ data: fields, files }`, a url-encoded one as the fields themselves.
 */
function submittedValues(body: unknown): Submitted {
	const submitted: Submitted = {};
	if (body === null || typeof body !== 'object') return submitted;
	const { data, files } = body as IDataObject;
	const fields = files !== undefined && data !== null && typeof data === 'object' ? data : body;
	for (const [name, value] of Object.entries(fields as IDataObject)) {
		if (Array.isArray(value)) submitted[name] = value.map(String);
		else if (value !== undefined && value !== null && typeof value !== 'object') submitted[name] = String(value);
	}
	return submitted;
}

const isObject = (value: unknown): value is IDataObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A field that takes one value: the first, if it was sent more than once. */
const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

type Answer = { data: IDataObject; recorded: string } | { retry: string; problems?: Record<number, string> };

function readAnswer(question: Question, submitted: Submitted): Answer {
	if (question.responseType === 'approval') {
		const answer = single(submitted[ANSWER_FIELD]);
		if (answer === APPROVE) return { data: { approved: true }, recorded: `Your answer was recorded: ${question.approveLabel}.` };
		if (answer === DECLINE && question.offersDecline) {
			return { data: { approved: false }, recorded: `Your answer was recorded: ${question.disapproveLabel}.` };
		}
		return { retry: 'Choose one of the buttons below to answer.' };
	}
	if (question.responseType === 'freeText') {
		const text = single(submitted[TEXT_FIELD]);
		if (typeof text !== 'string' || text.trim() === '') return { retry: 'Write your answer, then send it.' };
		return { data: { text: normalizeLineBreaks(text) }, recorded: 'Your answer was recorded.' };
	}
	const form = readFormAnswer(question.fields, submitted);
	if (!form.ok) return { retry: 'Some fields need your attention.', problems: form.problems };
	return { data: form.data, recorded: 'Your answer was recorded.' };
}

export async function sendAndWaitWebhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	try {
		const read: ReadParameter = (name, fallback) => this.getNodeParameter(name, fallback);
		const parsed = readQuestion(read);
		if (!parsed.ok) {
			return respond(this, unavailablePage(`The node's field "${parsed.field}" is not valid: ${parsed.problem}.`));
		}
		const { question } = parsed;
		if (this.getRequestObject().method !== 'POST') return respond(this, questionPage(question));

		const submitted = submittedValues(this.getBodyData());
		const answer = readAnswer(question, submitted);
		if ('retry' in answer) {
			return respond(this, questionPage(question, { submitted, problems: answer.problems, notice: answer.retry }));
		}
		const data = { ...answer.data, respondedAt: new Date().toISOString() };
		// Options → Include Input Fields: the item the question was sent for, as the waiting node's input ($json).
		const input = this.getNodeParameter('options.includeInputFields', false) === true ? this.evaluateExpression('{{ $json }}', 0) : undefined;
		const output = isObject(input) ? { ...input, data } : { data };
		return { ...respond(this, recordedPage(answer.recorded)), workflowData: [[{ json: output }]] };
	} catch (error) {
		return respond(this, unavailablePage(`The workflow could not show this question (${(error as Error).message}).`));
	}
}
