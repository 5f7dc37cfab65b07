/**
 * A month of examples/06 (ask a manager over chat before a big refund) in minutes, in real n8n:
 * the example published, refund requests posted to its webhook over thirty sandbox days, the
 * manager answering through the link as the page's form does: approving, declining, answering
 * after the customer's 24-hour window has closed, or not at all (a copy whose Limit Wait Time is
 * a few seconds). Asserted where it lands: what the customer and the manager receive at the
 * sandbox, one answer to the customer for every request, in words people read (no placeholder
 * braces, no raw timestamps).
 */
import { randomUUID } from 'node:crypto';
import { EXAMPLE_DATA, EXAMPLE_FILES, readExample, seedExampleData } from '../../tools/n8n/examples';
import { wireCredentials, type WorkflowJson } from '../../tools/n8n/client';
import type { StoredMessage } from '../../tools/sandbox/client';
import { postAnswer } from '../support/sendAndWaitWorkflow';
import { creds, executionsWithWaiting, n8n, nodeOutput, postToWebhook, sandbox, waitForExecutionsWhere } from './support';

const DAY = 24 * 3600_000;
const ADA = { name: 'Ada', phone: EXAMPLE_DATA.openWindow.phone };
const GRACE = { name: 'Grace', phone: EXAMPLE_DATA.closedWindowPhone };
const MANAGER = EXAMPLE_DATA.managerPhone;

interface Published {
	id: string;
	path: string;
}

let example: Published;
let timingOut: Published;

/** The example as published, or a copy under another path and name with its own changes. */
async function publish(change?: { suffix: string; limit: object }): Promise<Published> {
	const workflow: WorkflowJson = JSON.parse(JSON.stringify(readExample(EXAMPLE_FILES.refundApproval)));
	const hook = workflow.nodes.find((n) => n.name === 'Refund Requested')!;
	if (change) {
		workflow.name = `${workflow.name} (${change.suffix})`;
		hook.webhookId = randomUUID();
		hook.parameters.path = `${hook.parameters.path}-${change.suffix}`;
		workflow.nodes.find((n) => n.name === 'Ask the Manager')!.parameters.options.limitWaitTime = { values: change.limit };
	}
	const id = await n8n.importWorkflow(wireCredentials(workflow, creds));
	await n8n.activate(id);
	return { id, path: hook.parameters.path };
}

beforeAll(async () => {
	await sandbox.reset();
	await sandbox.setWebhook(null);
	await seedExampleData(sandbox);
	example = await publish();
	timingOut = await publish({ suffix: 'time-out', limit: { limitType: 'afterTimeInterval', resumeAmount: 0.05, resumeUnit: 'minutes' } });
});

afterAll(async () => {
	for (const { id } of [example, timingOut]) if (id) await n8n.deactivate(id);
});

const outbound = async (phone: string): Promise<StoredMessage[]> =>
	(await sandbox.messages({ phone })).filter((m) => m.direction === 'outbound');

/** Posts a refund request; returns the new execution once it waits for the manager or has ended. */
async function requestRefund(flow: Published, body: object): Promise<any> {
	const before = new Set((await executionsWithWaiting(flow.id)).map((e) => String(e.id)));
	expect((await postToWebhook(flow.path, body)).status).toBe(200);
	const settled = (e: any) => e.status === 'waiting' || (e.status === 'success' && e.data?.resultData?.runData?.['Refund Approved']);
	const list = await waitForExecutionsWhere(flow.id, 'the refund request to wait or end', (all) => all.some((e) => !before.has(String(e.id)) && settled(e)), 60_000, executionsWithWaiting);
	return list.find((e) => !before.has(String(e.id)));
}

/** The execution once the customer's answer node has run (success) or it failed. */
async function ended(flow: Published, executionId: string, timeoutMs = 30_000): Promise<any> {
	const told = (e: any) => ['Refund Approved', 'Refund Declined', 'No Decision Yet'].some((name) => e.data?.resultData?.runData?.[name]);
	const list = await waitForExecutionsWhere(
		flow.id,
		`execution ${executionId} to tell the customer`,
		(all) => all.some((e) => String(e.id) === executionId && (e.status === 'error' || (e.status === 'success' && told(e)))),
		timeoutMs,
		executionsWithWaiting,
	);
	return list.find((e) => String(e.id) === executionId);
}

/** The manager's question for a waiting execution, and its link. */
async function questionFor(executionId: string): Promise<{ message: StoredMessage; link: string }> {
	const message = (await outbound(MANAGER)).find((m) => (m.links ?? []).some((l) => l.includes(`/webhook-waiting/${executionId}/`)));
	if (!message) throw new Error(`the manager has no question for execution ${executionId}`);
	return { message, link: message.links![0] };
}

/** What a customer reads: each new outbound message's type (and template) and text. */
async function newMessages(phone: string, before: number): Promise<Array<{ type: string; text: string }>> {
	return (await outbound(phone)).slice(before).map((m) => ({ type: m.template ? `template ${m.template.id}` : m.message_type, text: m.text ?? '' }));
}

const approved = (name: string, amount: string, order: string) =>
	`Hi ${name}, your refund of ${amount} for order ${order} is approved. It reaches your account within 5 working days.`;
const declined = (name: string, amount: string, order: string) =>
	`Hi ${name}, we could not approve the refund of ${amount} for order ${order}. A colleague will write to you to explain and to find another way.`;
const delayed = (name: string, amount: string, order: string) =>
	`Hi ${name}, your refund of ${amount} for order ${order} needs a little longer: a manager decides by tomorrow, and we will write to you then.`;

const log: string[] = [];
afterAll(() => console.log(`refund approval, a month:\n  ${log.join('\n  ')}`));

describe('a month of refund requests', () => {
	beforeEach(async () => {
		await sandbox.advanceClock(3 * DAY);
	});

	test('$40, within the customer\'s window: approved at once, the customer gets a text, the manager nothing', async () => {
		await sandbox.inbound(ADA.phone, 'Can I have my $40 back for order #1001?');
		const [ada, manager] = [(await outbound(ADA.phone)).length, (await outbound(MANAGER)).length];
		const execution = await requestRefund(example, { order: '#1001', amount: 40, customer_name: ADA.name, customer_phone: ADA.phone });
		expect(execution.status).toBe('success');
		expect(await newMessages(ADA.phone, ada)).toEqual([{ type: 'text', text: approved('Ada', '$40.00', '#1001') }]);
		expect(await newMessages(MANAGER, manager)).toEqual([]);
		log.push('$40: approved at once, text to the customer');
	});

	test('$250: the manager (window closed) gets the approval_request template with the link, approves; the customer gets a text', async () => {
		await sandbox.inbound(ADA.phone, 'Where is my refund for order #1042?');
		const ada = (await outbound(ADA.phone)).length;
		const waiting = await requestRefund(example, { order: '#1042', amount: 250, customer_name: ADA.name, customer_phone: ADA.phone });
		expect(waiting.status).toBe('waiting');
		// 4 hours from when it asked: the example's Limit Wait Time
		const waitMs = Date.parse(waiting.waitTill) - Date.parse(waiting.startedAt);
		expect(waitMs).toBeGreaterThanOrEqual(4 * 3600_000);
		expect(waitMs).toBeLessThan(4 * 3600_000 + 10_000);
		const { message, link } = await questionFor(String(waiting.id));
		expect(message.template?.id).toBe('approval_request');
		expect(message.text).toBe(`Your approval is needed: refund of $250.00 for order #1042. Answer here: ${link}`);
		expect(await newMessages(ADA.phone, ada)).toEqual([]);

		expect((await postAnswer(link, { answer: 'approve' })).status).toBe(200);
		const execution = await ended(example, String(waiting.id));
		expect(execution.status).toBe('success');
		expect(nodeOutput(execution, 'Ask the Manager')[0].data).toEqual({ approved: true, respondedAt: expect.any(String) });
		expect(await newMessages(ADA.phone, ada)).toEqual([{ type: 'text', text: approved('Ada', '$250.00', '#1042') }]);
		log.push('$250: manager asked by template, approved, text to the customer');
	});

	test('$180 for a customer who never wrote in (window closed): the manager declines; the customer gets the refund_declined template', async () => {
		const grace = (await outbound(GRACE.phone)).length;
		const waiting = await requestRefund(example, { order: '#1077', amount: 180, customer_name: GRACE.name, customer_phone: GRACE.phone });
		const { link } = await questionFor(String(waiting.id));
		expect((await postAnswer(link, { answer: 'decline' })).status).toBe(200);
		const execution = await ended(example, String(waiting.id));
		expect(execution.status).toBe('success');
		expect(nodeOutput(execution, 'Ask the Manager')[0].data).toEqual({ approved: false, respondedAt: expect.any(String) });
		expect(await newMessages(GRACE.phone, grace)).toEqual([{ type: 'template refund_declined', text: declined('Grace', '$180.00', '#1077') }]);
		log.push('$180: declined, customer outside the window gets the refund_declined template');
	});

	test('$1,320: the manager answers 25 hours later, when the customer\'s window has closed; the customer gets the refund_approved template', async () => {
		await sandbox.inbound(ADA.phone, 'Refund for order #1090, please');
		const ada = (await outbound(ADA.phone)).length;
		const waiting = await requestRefund(example, { order: '#1090', amount: 1320, customer_name: ADA.name, customer_phone: ADA.phone });
		const { link } = await questionFor(String(waiting.id));
		await sandbox.advanceClock(25 * 3600_000);
		expect((await sandbox.window(ADA.phone)).open).toBe(false);
		expect((await postAnswer(link, { answer: 'approve' })).status).toBe(200);
		const execution = await ended(example, String(waiting.id));
		expect(execution.status).toBe('success');
		// the text was refused (window closed), the template went
		const [told] = nodeOutput(execution, 'Refund Approved');
		expect(told).toEqual(expect.objectContaining({ sent_as: 'template', requested_message_type: 'text' }));
		expect(await newMessages(ADA.phone, ada)).toEqual([{ type: 'template refund_approved', text: approved('Ada', '$1,320.00', '#1090') }]);
		log.push('$1,320: answered after 25 h, customer gets the refund_approved template');
	});

	test('the manager writes in first: the question goes as a text with the link, and the answer still reaches the customer', async () => {
		await sandbox.inbound(MANAGER, 'Back at my desk');
		await sandbox.inbound(ADA.phone, 'And order #1101?');
		const ada = (await outbound(ADA.phone)).length;
		const waiting = await requestRefund(example, { order: '#1101', amount: 120, customer_name: ADA.name, customer_phone: ADA.phone });
		const { message, link } = await questionFor(String(waiting.id));
		expect(message.message_type).toBe('text');
		expect(message.text).toBe(`Refund of $120.00 for order #1101 (Ada, ${ADA.phone}). Do you approve?\n\nApprove refund or Decline: ${link}`);
		expect((await postAnswer(link, { answer: 'decline' })).status).toBe(200);
		await ended(example, String(waiting.id));
		expect(await newMessages(ADA.phone, ada)).toEqual([{ type: 'text', text: declined('Ada', '$120.00', '#1101') }]);
		log.push('$120: manager inside the window gets a text, declines, text to the customer');
	});

	test('nobody answers in time (a copy waiting a few seconds): the customer hears that it takes longer; a late answer changes nothing', async () => {
		await sandbox.inbound(ADA.phone, 'Any news on order #1100?');
		const ada = (await outbound(ADA.phone)).length;
		const waiting = await requestRefund(timingOut, { order: '#1100', amount: 500, customer_name: ADA.name, customer_phone: ADA.phone });
		const { link } = await questionFor(String(waiting.id));
		// n8n's wait tracker looks for due executions once a minute
		const execution = await ended(timingOut, String(waiting.id), 100_000);
		expect(execution.status).toBe('success');
		expect(nodeOutput(execution, 'Ask the Manager')[0].data).toBeUndefined();
		expect(await newMessages(ADA.phone, ada)).toEqual([{ type: 'text', text: delayed('Ada', '$500.00', '#1100') }]);

		const late = await postAnswer(link, { answer: 'approve' });
		expect(await late.text()).toContain('No action required');
		expect(await newMessages(ADA.phone, ada)).toHaveLength(1);
		log.push('$500: no answer within the limit, customer told it takes longer; the late answer ran nothing');
	}, 150_000);

	test('every message a customer received this month reads as words: no placeholder braces, no raw timestamps', async () => {
		const received = [...(await outbound(ADA.phone)), ...(await outbound(GRACE.phone))].map((m) => m.text ?? '');
		expect(received.length).toBeGreaterThanOrEqual(6);
		for (const text of received) {
			expect(text).not.toMatch(/[{}]/);
			expect(text).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
		}
		log.push(`${received.length} messages to customers, none with braces or timestamps`);
	});
});
