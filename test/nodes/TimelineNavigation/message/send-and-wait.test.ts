// Message → Send and Wait for Response in-process: the workflow runs through n8n-core until the
// node waits, the question reaches the sandbox over HTTP (as a text message inside the 24-hour
// window, as the named template outside it), and the link is answered over real HTTP through
// the harness's waiting-webhook server, which checks signatures and resumes as n8n 2.41 does.
import { WAIT_INDEFINITELY, type IDataObject, type INode } from 'n8n-workflow';
import { TimelineNavigation } from '../../../../nodes/TimelineNavigation/TimelineNavigation.node';
import { INPUT_NODE_TYPE } from '../../../support/harness';
import { startWaitingServer, type HarnessExecution, type WaitingServer } from '../../../support/harness/waiting';
import { credentialsFor, CUSTOMER, NODE_TYPE, nodeCredentialsFor } from '../../../support/node-support';
import { listedParameters } from '../../../support/operation-cases';
import { sandboxPerFile } from '../../../support/sandbox';

const sandbox = sandboxPerFile();
let waiting: WaitingServer;

beforeAll(async () => {
	waiting = await startWaitingServer();
});
afterAll(async () => {
	await waiting.close();
});
beforeEach(async () => {
	await sandbox.client.seedTemplate({
		id: 'answer_request',
		body: 'Hello, we need your answer about {{1}}: {{2}}',
		parameters: [{ name: 'subject' }, { name: 'link', pattern: '^https?://\\S+$' }],
	});
});

const ASK_NODE_ID = 'a5c7e9f1-0000-4000-8000-00000000a5c7';
const PREVIEW_BOT = 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)';

interface Asked {
	execution: HarnessExecution;
	/** The link in the message the sandbox accepted. */
	link: string;
}

/** Input → Ask (Send and Wait) → After; runs it until it waits (or fails). */
async function start(parameters: IDataObject, items: IDataObject[] = [{ order: '#1042' }], continueOnFail = false): Promise<HarnessExecution> {
	const node = (name: string, type: string, x: number, extra: Partial<INode>): INode =>
		({ id: name.toLowerCase(), name, type, typeVersion: 1, position: [x, 0], parameters: {}, ...extra }) as INode;
	return await waiting.start(
		{
			nodes: [
				node('Input', INPUT_NODE_TYPE, 0, { parameters: { items: JSON.stringify(items) } }),
				node('Ask', NODE_TYPE, 200, {
					id: ASK_NODE_ID,
					parameters: { resource: 'message', operation: 'sendAndWait', to: CUSTOMER, message: 'Refund $120 for order #1042?', ...parameters },
					credentials: nodeCredentialsFor('message'),
					...(continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
				}),
				node('After', INPUT_NODE_TYPE, 400, { parameters: { items: '[{"after": true}]' } }),
			],
			connections: {
				Input: { main: [[{ node: 'Ask', type: 'main', index: 0 }]] },
				Ask: { main: [[{ node: 'After', type: 'main', index: 0 }]] },
			},
		},
		{ credentials: credentialsFor(sandbox) },
	);
}

const sentBodies = async () => (await sandbox.client.requests({ method: 'POST', path: '/v1/messages' })).map((r) => r.body as IDataObject);
const accepted = async () =>
	(await sandbox.client.requests({ method: 'POST', path: '/v1/messages' })).filter((r) => r.responseStatus === 200).map((r) => r.body as IDataObject);
const linkIn = (text: string) => /https?:\/\/\S+/.exec(text)?.[0] ?? '';

/** Opens the window, starts the question and returns its execution and link. */
async function ask(parameters: IDataObject = {}, items?: IDataObject[]): Promise<Asked> {
	await sandbox.client.inbound(CUSTOMER, 'Hi');
	const execution = await start(parameters, items);
	expect(execution.run().data.resultData.error).toBeUndefined();
	const body = (await accepted()).at(-1)!;
	return { execution, link: linkIn(String(body.text)) };
}

const answer = (link: string, form: Record<string, string | string[]>) => waiting.request(link, { form });

/** The answer's page, then the resumed run. */
async function answerAndSettle(asked: Asked, form: Record<string, string | string[]>) {
	const page = await answer(asked.link, form);
	await asked.execution.settled();
	return page;
}

describe('the question', () => {
	it('inside the window goes as one text message with the question and a signed link, and the execution waits', async () => {
		const { execution, link } = await ask({}, [{ order: '#1042' }, { order: '#1043' }, { order: '#1044' }]);

		expect(await sentBodies()).toEqual([
			{ channel: 'chatapp', to: CUSTOMER, message_type: 'text', text: `Refund $120 for order #1042?\n\nApprove or Decline: ${link}` },
		]);
		expect(link).toMatch(new RegExp(`^${waiting.baseUrl}/${execution.id}/${ASK_NODE_ID}\\?signature=[0-9a-f]{64}$`));
		expect(execution.status()).toBe('waiting');
		expect(execution.waitTill()).toEqual(WAIT_INDEFINITELY);
		// While waiting the node shows its input items; nothing after it has run.
		expect(execution.json('Ask')).toEqual([{ order: '#1042' }, { order: '#1043' }, { order: '#1044' }]);
		expect(execution.run().data.resultData.runData.After).toBeUndefined();
	});

	it('labels the link with both buttons for approve and disapprove, and with "Respond" for a form', async () => {
		const approval = await ask({ approvalOptions: { values: { approvalType: 'double', approveLabel: 'Yes', disapproveLabel: 'No' } } });
		const freeText = await ask({ responseType: 'freeText', message: 'Why?' });

		const texts = (await sentBodies()).map((body) => body.text);
		expect(texts).toEqual([
			`Refund $120 for order #1042?\n\nYes or No: ${approval.link}`,
			`Why?\n\nRespond: ${freeText.link}`,
		]);
	});

	it('outside the window goes as the named template with the link in the {link} parameter, and the execution waits', async () => {
		const execution = await start({
			fallbackToTemplate: true,
			questionTemplateId: 'answer_request',
			questionParametersInput: 'list',
			questionTemplateParameters: listedParameters(['order #1042', '{link}']),
		});

		const [text, template] = await sentBodies();
		expect(text.message_type).toBe('text');
		const link = (template.template as { parameters: string[] }).parameters[1];
		expect(template).toEqual({
			channel: 'chatapp',
			to: CUSTOMER,
			message_type: 'template',
			template: { id: 'answer_request', parameters: ['order #1042', link] },
		});
		expect(link).toMatch(new RegExp(`^${waiting.baseUrl}/${execution.id}/${ASK_NODE_ID}\\?signature=[0-9a-f]{64}$`));
		expect((await sandbox.client.requests({ method: 'POST', path: '/v1/messages' })).map((r) => r.responseStatus)).toEqual([422, 200]);
		expect(execution.status()).toBe('waiting');

		const page = await answerAndSettle({ execution, link }, { answer: 'approve' });
		expect(page.status).toBe(200);
		expect(execution.json('Ask')).toEqual([{ data: { approved: true, respondedAt: expect.any(String) } }]);
	});

	it('outside the window without a template fails before waiting and says what to set', async () => {
		const execution = await start({});

		expect(execution.status()).toBe('error');
		const error = execution.run().data.resultData.error!;
		expect(error.message).toBe(
			`Message → Send and Wait for Response failed: the 24-hour customer service window for ${CUSTOMER} is closed, so the question cannot go as a text message (HTTP 422)`,
		);
		expect(error.description).toContain('turn on "Fallback to Template", name the template and put {link} into the parameter that carries the answer link');
		expect(error.description).toContain('The service said: The 24-hour customer service window');
		expect(execution.waitTill()).toBeUndefined();
	});

	it('with Continue On Fail, outputs the error instead and does not wait', async () => {
		const execution = await start({}, [{}], true);

		expect(execution.status()).toBe('success');
		const [out] = execution.json('Ask');
		expect(out.error).toContain('window for +14155550123 is closed');
		expect(execution.json('After')).toEqual([{ after: true }]);
	});

	it('refuses a fallback template without {link} before anything is sent', async () => {
		const execution = await start({
			fallbackToTemplate: true,
			questionTemplateId: 'answer_request',
			questionParametersInput: 'list',
			questionTemplateParameters: listedParameters(['order #1042', 'https://example.com']),
		});

		expect(execution.status()).toBe('error');
		expect(execution.run().data.resultData.error!.message).toBe(
			'Invalid Fallback Parameters in item 0: got ["order #1042","https://example.com"], expected {link} in one of the parameters: it is replaced by the answer link, and without the link nobody could answer',
		);
		expect(await sentBodies()).toEqual([]);
	});

	it.each([
		['an interval of 0', { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 0, resumeUnit: 'minutes' } } }, 'Invalid Limit Wait Time → Amount in item 0: got 0, expected a number above 0'],
		[
			'a date in the past',
			{ limitWaitTime: { values: { limitType: 'atSpecifiedTime', maxDateAndTime: '2020-01-01T00:00:00Z' } } },
			'Invalid Limit Wait Time → Max Date and Time in item 0: got "2020-01-01T00:00:00Z", expected a time in the future: nobody could answer before it',
		],
	])('refuses Limit Wait Time of %s before anything is sent', async (_what, options, message) => {
		await sandbox.client.inbound(CUSTOMER, 'Hi');
		const execution = await start({ options });

		expect(execution.run().data.resultData.error!.message).toBe(message);
		expect(await sentBodies()).toEqual([]);
	});
});

describe('the link', () => {
	it('opened (GET) shows the question and the buttons, and the execution keeps waiting', async () => {
		const asked = await ask({ approvalOptions: { values: { approvalType: 'double' } } });

		const page = await waiting.request(asked.link);
		expect(page.status).toBe(200);
		expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
		expect(page.headers['cache-control']).toBe('no-store');
		expect(page.headers['content-security-policy']).toContain("form-action 'self'");
		expect(page.text).toContain('<p class="question">Refund $120 for order #1042?</p>');
		expect(page.text).toContain('<form method="post" enctype="multipart/form-data">');
		expect(page.text).toContain('<button type="submit" name="answer" value="approve">Approve</button>');
		expect(page.text).toContain('<button type="submit" class="secondary" name="answer" value="decline">Decline</button>');
		await asked.execution.settled();
		expect(asked.execution.status()).toBe('waiting');
		expect(asked.execution.resumes()).toBe(0);
	});

	it('fetched by the sandbox\'s link-preview bot (every link of the message, as a chat app does) leaves it waiting', async () => {
		// The bot comes when the message reaches the phone: after n8n has saved the execution as waiting.
		await sandbox.client.configure({ linkPreviews: true, linkPreviewDelayMs: 200 });
		const asked = await ask({ responseType: 'freeText' });

		const [message] = (await sandbox.client.messages({ phone: CUSTOMER })).filter((m) => m.direction === 'outbound');
		expect(message.links).toEqual([asked.link]);
		expect(message.previews?.map((preview) => [preview.url, preview.status, preview.title])).toEqual([[asked.link, 200, 'Your answer is requested']]);
		expect(asked.execution.calls.map((call) => `${call.method} ${call.status} ${call.resumed}`)).toEqual(['GET 200 false']);
		expect(asked.execution.status()).toBe('waiting');
	});

	it.each([
		['a chat app\'s link-preview bot', { 'User-Agent': PREVIEW_BOT }],
		['a mail scanner', { 'User-Agent': 'Mozilla/5.0 (compatible; SafeLinks)' }],
	])('fetched by %s, does not answer for anyone, for any response type', async (_who, headers) => {
		const asked = [await ask(), await ask({ responseType: 'freeText' }), await ask({ responseType: 'customForm', formFields: { values: [{ fieldLabel: 'Reason' }] } })];

		for (const { link, execution } of asked) {
			expect((await waiting.request(link, { headers })).status).toBe(200);
			expect((await waiting.request(link, { headers, method: 'GET' })).status).toBe(200);
			expect(execution.status()).toBe('waiting');
			expect(execution.resumes()).toBe(0);
		}
	});

	it.each([
		['a changed signature', (link: string) => link.replace(/signature=([0-9a-f])/, (_all, c: string) => `signature=${c === 'a' ? 'b' : 'a'}`)],
		['no signature', (link: string) => link.replace(/\?signature=.*$/, '')],
		['an empty signature', (link: string) => link.replace(/signature=.*$/, 'signature=')],
		['an answer added to the signed link', (link: string) => `${link}&approved=true`],
	])('with %s is refused (401) and answers nothing', async (_what, forge) => {
		const asked = await ask();

		const forged = forge(asked.link);
		expect((await waiting.request(forged)).status).toBe(401);
		expect((await answer(forged, { answer: 'approve' })).status).toBe(401);
		expect(asked.execution.status()).toBe('waiting');
		expect(asked.execution.resumes()).toBe(0);
	});

	it('of one execution cannot answer another (the signature covers the execution)', async () => {
		const first = await ask();
		const second = await ask();

		const crossed = second.link.replace(`/${second.execution.id}/`, `/${first.execution.id}/`);
		expect((await answer(crossed, { answer: 'approve' })).status).toBe(401);
		expect(first.execution.status()).toBe('waiting');
	});

	it('answered a second time changes nothing and says so', async () => {
		const asked = await ask();
		await answerAndSettle(asked, { answer: 'approve' });
		expect(asked.execution.status()).toBe('success');

		const again = await answerAndSettle(asked, { answer: 'approve' });
		const opened = await waiting.request(asked.link);
		expect(again.status).toBe(200);
		expect(again.text).toContain('No action required');
		expect(opened.text).toContain('No action required');
		expect(asked.execution.resumes()).toBe(1);
		expect(asked.execution.json('After')).toEqual([{ after: true }]);
	});

	it('shows everything that comes from the workflow escaped', async () => {
		const asked = await ask({
			message: '<script>alert("x")</script> & "quotes"\nsecond line',
			approvalOptions: { values: { approvalType: 'double', approveLabel: '<b>Yes</b>', disapproveLabel: '"><img src=x onerror=alert(1)>' } },
			options: { responseFormTitle: '<i>Title</i>' },
		});

		const { text } = await waiting.request(asked.link);
		expect(text).not.toMatch(/<script>|<img|<b>|<i>/);
		expect(text).toContain('<title>&lt;i&gt;Title&lt;/i&gt;</title>');
		expect(text).toContain('<p class="question">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;quotes&quot;<br>second line</p>');
		expect(text).toContain('>&lt;b&gt;Yes&lt;/b&gt;</button>');
		expect(text).toContain('>&quot;&gt;&lt;img src=x onerror=alert(1)&gt;</button>');
	});

	it('shows the question as the expressions gave it for the first input item', async () => {
		const asked = await ask({ message: '={{ "Refund " + $json.amount + " for " + $json.order + "?" }}' }, [
			{ amount: '$120', order: '#1042' },
			{ amount: '$5', order: '#1043' },
		]);

		expect((await sentBodies())[0].text).toBe(`Refund $120 for #1042?\n\nApprove or Decline: ${asked.link}`);
		expect((await waiting.request(asked.link)).text).toContain('<p class="question">Refund $120 for #1042?</p>');
	});
});

describe('the answer', () => {
	it('approve: the execution goes on with approved true', async () => {
		const asked = await ask();

		const page = await answerAndSettle(asked, { answer: 'approve' });
		expect(page.status).toBe(200);
		expect(page.text).toContain('Your answer was recorded: Approve.');
		expect(asked.execution.status()).toBe('success');
		const [out] = asked.execution.json('Ask');
		expect(out).toEqual({ data: { approved: true, respondedAt: expect.any(String) } });
		expect(Math.abs(Date.parse((out.data as IDataObject).respondedAt as string) - Date.now())).toBeLessThan(60_000);
		expect(asked.execution.json('After')).toEqual([{ after: true }]);
	});

	it('without Approval Options the page offers both buttons, and Decline gives approved false', async () => {
		const asked = await ask();

		const shown = await waiting.request(asked.link);
		expect(shown.text).toMatch(/<button[^>]*value="approve"[^>]*>Approve<\/button>/);
		expect(shown.text).toMatch(/<button[^>]*value="decline"[^>]*>Decline<\/button>/);
		const page = await answerAndSettle(asked, { answer: 'decline' });
		expect(page.text).toContain('Your answer was recorded: Decline.');
		expect(asked.execution.json('Ask')).toEqual([{ data: { approved: false, respondedAt: expect.any(String) } }]);
	});

	it('Approve Only: the page offers one button', async () => {
		const asked = await ask({ approvalOptions: { values: { approvalType: 'single' } } });
		const shown = await waiting.request(asked.link);
		expect(shown.text).toMatch(/value="approve"/);
		expect(shown.text).not.toMatch(/value="decline"/);
	});

	it('Include Input Fields: the answer item keeps the fields of the item the question was sent for, beside data', async () => {
		const asked = await ask({ options: { includeInputFields: true } }, [
			{ from: '+14155550177', order: '#1042', data: 'replaced by the answer' },
			{ from: '+14155550188', order: '#2000' },
		]);
		await answerAndSettle(asked, { answer: 'approve' });
		expect(asked.execution.json('Ask')).toEqual([
			{ from: '+14155550177', order: '#1042', data: { approved: true, respondedAt: expect.any(String) } },
		]);
	});

	it('disapprove: the execution goes on with approved false', async () => {
		const asked = await ask({ approvalOptions: { values: { approvalType: 'double', disapproveLabel: 'Reject refund' } } });

		const page = await answerAndSettle(asked, { answer: 'decline' });
		expect(page.text).toContain('Your answer was recorded: Reject refund.');
		expect(asked.execution.json('Ask')).toEqual([{ data: { approved: false, respondedAt: expect.any(String) } }]);
	});

	it('approval posted url-encoded (not from the page) is taken the same way', async () => {
		const asked = await ask();

		await waiting.request(asked.link, { form: { answer: 'approve' }, encoding: 'urlencoded' });
		await asked.execution.settled();
		expect(asked.execution.json('Ask')).toEqual([{ data: { approved: true, respondedAt: expect.any(String) } }]);
	});

	it.each([
		['decline when only approving is offered', { answer: 'decline' }, { approvalOptions: { values: { approvalType: 'single' } } }],
		['no button', {}, {}],
		['an unknown answer', { answer: 'maybe' }, {}],
	])('approval with %s shows the page again and keeps waiting', async (_what, form, parameters) => {
		const asked = await ask(parameters);

		const page = await answerAndSettle(asked, form);
		expect(page.status).toBe(422);
		expect(page.text).toContain('Choose one of the buttons below to answer.');
		expect(asked.execution.status()).toBe('waiting');
	});

	it('free text: the page has a text box; an empty answer is refused; the text goes on as data.text', async () => {
		const asked = await ask({ responseType: 'freeText', message: 'Why was the order late?', options: { responseFormTitle: 'Order #1042', responseFormButtonLabel: 'Send' } });

		const opened = await waiting.request(asked.link);
		expect(opened.text).toContain('<h1>Order #1042</h1>');
		expect(opened.text).toContain('<textarea id="answer-text" name="text" required></textarea>');
		expect(opened.text).toContain('<button type="submit">Send</button>');
		const empty = await answerAndSettle(asked, { text: '   ' });
		expect(empty.status).toBe(422);
		expect(asked.execution.status()).toBe('waiting');

		await answerAndSettle(asked, { text: 'The courier was late.\nSorry!' });
		expect(asked.execution.json('Ask')).toEqual([{ data: { text: 'The courier was late.\nSorry!', respondedAt: expect.any(String) } }]);
	});

	const formFields = {
		values: [
			{ fieldLabel: 'Decision', fieldType: 'radio', fieldOptions: { values: [{ option: 'Refund' }, { option: 'Replace' }] }, requiredField: true },
			{ fieldLabel: 'Amount', fieldType: 'number' },
			{ fieldLabel: 'Reasons', fieldType: 'checkbox', fieldOptions: { values: [{ option: 'Late' }, { option: 'Damaged' }] } },
			{ fieldLabel: 'Note', fieldType: 'textarea', placeholder: 'Optional' },
			{ fieldLabel: 'Email', fieldType: 'email' },
		],
	};

	it('custom form: the fields are on the page; wrong values are refused field by field; the answers go on by field name', async () => {
		const asked = await ask({ responseType: 'customForm', formFields });

		const opened = await waiting.request(asked.link);
		expect(opened.text).toContain('<legend>Decision <span class="required">*</span></legend>');
		expect(opened.text).toContain('<input type="radio" name="field-0" value="Refund" required> Refund');
		expect(opened.text).toContain('<input id="f1" type="number" name="field-1" value="" step="any">');
		expect(opened.text).toContain('<input type="checkbox" name="field-2" value="Damaged"> Damaged');
		expect(opened.text).toContain('<textarea id="f3" name="field-3" placeholder="Optional"></textarea>');

		const wrong = await answerAndSettle(asked, { 'field-1': 'ten', 'field-2': 'Lost', 'field-4': 'not-an-email' });
		expect(wrong.status).toBe(422);
		expect(wrong.text).toContain('This field is required.');
		expect(wrong.text).toContain('Enter a number.');
		expect(wrong.text).toContain('&quot;Lost&quot; is not one of the choices.');
		expect(wrong.text).toContain('Enter an email address');
		// What was typed stays in the form.
		expect(wrong.text).toContain('value="not-an-email"');
		expect(asked.execution.status()).toBe('waiting');

		await answerAndSettle(asked, { 'field-0': 'Refund', 'field-1': '12.5', 'field-2': ['Late', 'Damaged'], 'field-3': '', 'field-4': 'ada@example.com' });
		expect(asked.execution.json('Ask')).toEqual([
			{
				data: { Decision: 'Refund', Amount: 12.5, Reasons: ['Late', 'Damaged'], Note: '', Email: 'ada@example.com', respondedAt: expect.any(String) },
			},
		]);
	});

	it('custom form defined as JSON (n8n\'s Form node format) takes the answer the same way', async () => {
		const asked = await ask({
			responseType: 'customForm',
			defineForm: 'json',
			jsonOutput: JSON.stringify([
				{ fieldLabel: 'Pick', fieldType: 'dropdown', fieldOptions: { values: [{ option: 'A' }, { option: 'B' }] }, multiselect: true, requiredField: true },
				{ fieldLabel: 'When', fieldType: 'date' },
			]),
		});

		expect((await waiting.request(asked.link)).text).toContain('<select id="f0" name="field-0" multiple required><option value="A">A</option><option value="B">B</option></select>');
		await answerAndSettle(asked, { 'field-0': 'B', 'field-1': '2030-01-31' });
		expect(asked.execution.json('Ask')).toEqual([{ data: { Pick: ['B'], When: '2030-01-31', respondedAt: expect.any(String) } }]);
	});

	it.each([
		['JSON that does not parse', { defineForm: 'json', jsonOutput: '[{"fieldLabel": ' }, 'Invalid Form Fields (JSON) in item 0'],
		['two fields of the same name', { formFields: { values: [{ fieldLabel: 'A' }, { fieldLabel: 'A' }] } }, 'Invalid Form Elements 2 → Field Label in item 0: got "A", expected each field name once'],
		['a dropdown without options', { formFields: { values: [{ fieldLabel: 'A', fieldType: 'dropdown', fieldOptions: { values: [] } }] } }, 'Invalid Form Elements 1 → Field Options in item 0'],
		['no fields', { formFields: {} }, 'Invalid Form Elements in item 0: got [], expected at least one field for the person to fill in'],
	])('custom form with %s fails before anything is sent', async (_what, parameters, message) => {
		await sandbox.client.inbound(CUSTOMER, 'Hi');
		const execution = await start({ responseType: 'customForm', ...parameters });

		expect(execution.run().data.resultData.error!.message).toContain(message);
		expect(await sentBodies()).toEqual([]);
	});
});

describe('Limit Wait Time', () => {
	it('after an interval: the execution waits until then and goes on by itself with its input items (no data field)', async () => {
		const before = Date.now();
		const asked = await ask({ options: { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 0.02, resumeUnit: 'minutes' } } } }, [
			{ order: '#1042' },
		]);
		const waitTill = asked.execution.waitTill()!.getTime();
		expect(waitTill).toBeGreaterThanOrEqual(before + 1200);
		expect(waitTill).toBeLessThan(Date.now() + 1200 + 50);

		await asked.execution.timeOut();
		expect(asked.execution.status()).toBe('success');
		expect(asked.execution.json('Ask')).toEqual([{ order: '#1042' }]);
		expect(asked.execution.json('After')).toEqual([{ after: true }]);
		// A late answer changes nothing.
		const late = await answerAndSettle(asked, { answer: 'approve' });
		expect(late.text).toContain('No action required');
		expect(asked.execution.resumes()).toBe(1);
	});

	it('at a date: the execution waits until that moment', async () => {
		const at = new Date(Date.now() + 3 * 86_400_000);
		const asked = await ask({ options: { limitWaitTime: { values: { limitType: 'atSpecifiedTime', maxDateAndTime: at.toISOString() } } } });

		expect(asked.execution.waitTill()).toEqual(at);
	});
});

describe('the node\'s webhooks', () => {
	// docs/send-and-wait.md: n8n's lint rule webhook-lifecycle-complete asks webhooks registered
	// with a service for webhookMethods. The node has none to register: every webhook it declares
	// is one of n8n's waiting webhooks, which n8n never registers (it skips restartWebhook ones).
	it('are only the waiting webhooks of Send and Wait (GET and POST on the node id), so there is nothing to register', () => {
		const node = new TimelineNavigation();

		expect(node.description.webhooks?.map((webhook) => [webhook.httpMethod, webhook.path, webhook.restartWebhook, webhook.isFullPath])).toEqual([
			['GET', '={{ $nodeId }}', true, true],
			['POST', '={{ $nodeId }}', true, true],
		]);
		expect((node as { webhookMethods?: unknown }).webhookMethods).toBeUndefined();
	});
});
