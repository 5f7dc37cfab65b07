// The pages of a Send and Wait link: the question with its buttons or form (what a GET shows),
// the same again with what was wrong in a submitted answer, and the thanks once it is recorded.
// A form has no action: it posts back to the very address it was opened at, signature included.
// It posts multipart/form-data, as n8n's own forms do (n8n 2.x accepts nothing else for a
// Send and Wait custom form).
import { formFieldsHtml, type Submitted } from './form';
import { escapeHtml, multiline, type Page, page } from './html';
import type { Question } from './question';

/** The answer fields of the approval and free text pages. */
export const ANSWER_FIELD = 'answer';
export const APPROVE = 'approve';
export const DECLINE = 'decline';
export const TEXT_FIELD = 'text';
const FORM_ENCODING = 'multipart/form-data';

export interface Retry {
	submitted: Submitted;
	/** Custom form: the problem of each field, by its position. */
	problems?: Record<number, string>;
	/** What was wrong, above the form. */
	notice: string;
}

export function questionPage(question: Question, retry?: Retry): Page {
	const heading = question.title ? `<h1>${escapeHtml(question.title)}</h1>\n` : '';
	const description = question.description ? `<p class="question">${multiline(question.description)}</p>\n` : '';
	const notice = retry ? `<p class="problem" role="alert">${escapeHtml(retry.notice)}</p>\n` : '';
	let form: string;
	if (question.responseType === 'approval') {
		const decline = question.offersDecline
			? `\n<button type="submit" class="secondary" name="${ANSWER_FIELD}" value="${DECLINE}">${escapeHtml(question.disapproveLabel)}</button>`
			: '';
		form = `<form method="post" enctype="${FORM_ENCODING}"><div class="buttons"><button type="submit" name="${ANSWER_FIELD}" value="${APPROVE}">${escapeHtml(question.approveLabel)}</button>${decline}</div></form>`;
	} else {
		const fields =
			question.responseType === 'freeText'
				? `<div class="field"><label for="answer-text">Your answer <span class="required">*</span></label><textarea id="answer-text" name="${TEXT_FIELD}" required>${escapeHtml(retry?.submitted[TEXT_FIELD] ?? '')}</textarea></div>`
				: formFieldsHtml(question.fields, retry?.submitted, retry?.problems);
		form = `<form method="post" enctype="${FORM_ENCODING}">\n${fields}\n<div class="buttons"><button type="submit">${escapeHtml(question.submitLabel)}</button></div></form>`;
	}
	return page(retry ? 422 : 200, question.title || 'Your answer is requested', `${heading}${description}${notice}${form}`);
}

export function recordedPage(what: string): Page {
	return page(200, 'Got it, thanks', `<h1>Got it, thanks</h1>\n<p class="question">${escapeHtml(what)}</p>\n<p class="note">You can close this page.</p>`);
}

/** The workflow's own definition is broken: the person cannot answer, and nothing goes on. */
export function unavailablePage(reason: string): Page {
	return page(
		500,
		'This question cannot be answered',
		`<h1>This question cannot be answered</h1>\n<p class="question">${escapeHtml(reason)}</p>\n<p class="note">Nothing was recorded. Please tell the sender.</p>`,
	);
}
