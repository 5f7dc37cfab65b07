// The question as the node's fields describe it. Read twice, with the same values: when the
// message is sent (to check everything before anything goes out) and when the link is opened
// (n8n evaluates the fields again then, against the same input item).
import { DEFAULT_APPROVAL_TYPE, DEFAULT_APPROVE_LABEL, DEFAULT_DISAPPROVE_LABEL, RESPONSE_TYPES, type ResponseType } from './description';
import { type FormField, type FormProblem, readFormDefinition, type ReadParameter } from './form';

export interface Question {
	responseType: ResponseType;
	message: string;
	/** The page's heading (may be empty). */
	title: string;
	/** The text on the page under the heading: the form description, or else the message. */
	description: string;
	/** Approval: whether the person may also decline, and the two button labels. */
	offersDecline: boolean;
	approveLabel: string;
	disapproveLabel: string;
	/** Free text and custom form: the submit button. */
	submitLabel: string;
	/** The words before the link in the chat message. */
	linkLabel: string;
	/** Custom form only. */
	fields: FormField[];
}

const text = (value: unknown, fallback = ''): string =>
	typeof value === 'string' || typeof value === 'number' ? String(value) : fallback;

const labelOr = (value: unknown, fallback: string): string => text(value).trim() || fallback;

export function readQuestion(read: ReadParameter): { ok: true; question: Question } | ({ ok: false } & FormProblem) {
	const responseType = read('responseType', 'approval') as ResponseType;
	if (!RESPONSE_TYPES.includes(responseType)) {
		return { ok: false, field: 'Response Type', value: responseType, problem: `expected one of ${RESPONSE_TYPES.join(', ')}` };
	}
	const message = text(read('message', '')).trim();
	const approval = (read('approvalOptions.values', {}) ?? {}) as Record<string, unknown>;
	const offersDecline = (approval.approvalType ?? DEFAULT_APPROVAL_TYPE) === 'double';
	const approveLabel = labelOr(approval.approveLabel, DEFAULT_APPROVE_LABEL);
	const disapproveLabel = labelOr(approval.disapproveLabel, DEFAULT_DISAPPROVE_LABEL);
	const options = (read('options', {}) ?? {}) as Record<string, unknown>;
	let fields: FormField[] = [];
	if (responseType === 'customForm') {
		const form = readFormDefinition(read);
		if (!form.ok) return form;
		fields = form.fields;
	}
	const approvalLinkLabel = offersDecline ? `${approveLabel} or ${disapproveLabel}` : approveLabel;
	return {
		ok: true,
		question: {
			responseType,
			message,
			title: text(options.responseFormTitle).trim(),
			description: text(options.responseFormDescription).trim() || message,
			offersDecline,
			approveLabel,
			disapproveLabel,
			submitLabel: labelOr(options.responseFormButtonLabel, 'Submit'),
			linkLabel: labelOr(options.messageButtonLabel, responseType === 'approval' ? approvalLinkLabel : 'Respond'),
			fields,
		},
	};
}
