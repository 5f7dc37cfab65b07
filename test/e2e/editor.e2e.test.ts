/**
 * The editor as a newcomer meets it, in a real browser (Debian's Chromium, driven by
 * playwright-core): the node panel's search shows which service each node drives, the node is
 * listed under Human review (Send and wait for response) beside n8n's own, Send Template
 * labels each parameter with its placeholder, the canvas subtitle reads as the panel does, and the
 * trigger, while listening, names the Chat-App Messaging service. Screenshots go to
 * .artifacts/e2e/ (git-ignored).
 */
import { creatorItem, newWorkflowWithManualTrigger, openBrowser, searchCreator, signIn, type Editor } from './browserSupport';
import { EXAMPLE_FILES, importExample, readExample } from '../../tools/n8n/examples';
import { waitFor } from '../../tools/shared/wait';
import { creds, env, n8n } from './support';

const ON_N8N_1 = env.versions.n8n.startsWith('1.');

const ACTION_NODE = 'Timeline Navigation & Chat-App Messaging';
/** n8n lists a trigger with several events without the word "Trigger" (Chat-App Messaging Inbox Trigger). */
const TRIGGER_ENTRY = 'Chat-App Messaging Inbox';
const TRIGGER_DESCRIPTION = 'Starts the workflow when a customer writes to your Chat-App number, or a message you sent is delivered or read';
/** The combined node's own description: no trigger is merged into its entry (package.test.ts). */
const ACTION_ENTRY_DESCRIPTION = 'Send Chat-App messages (text, templates, media, location), ask a person and wait for the answer';
/** The node panel's entry for n8n's Send and Wait nodes: "Human review" in 2.x, "Human in the loop" in 1.x. */
const HUMAN_REVIEW = ON_N8N_1 ? 'Human in the loop' : 'Human review';

let editor: Editor;
let page: Editor['page'];

jest.setTimeout(240_000);

beforeAll(async () => {
	editor = await openBrowser();
	page = editor.page;
	await signIn(page);
});

afterAll(async () => {
	await editor?.close();
});

const shot = (name: string) => editor.shot(name);

/** n8n 2.x closes the node panel with a close button, n8n 1.x with "Back to canvas". */
const closeNdv = () => page.locator('[data-test-id=ndv-close-button], [data-test-id=back-to-canvas]').first().click();

/** Runs a step of a test, keeping a screenshot of the page if it fails. */
async function step(failureShot: string, work: () => Promise<void>): Promise<void> {
	try {
		await work();
	} catch (error) {
		await shot(failureShot).catch(() => undefined);
		throw error;
	}
}

/** The text of the panel entry whose name is `name` (name and description). */
async function creatorEntryText(name: string): Promise<string> {
	return await page.locator('[data-test-id=item-iterator-item]', { has: creatorItem(page, name) }).first().innerText();
}

/**
 * The address of the tab that `click` opens. The documentation site is answered locally (this
 * machine has no internet), so the tab keeps the address n8n gave it; the tab is closed.
 */
async function openedBy(click: () => Promise<void>): Promise<string> {
	const context = page.context();
	await context.route('https://github.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: 'docs' }));
	try {
		const [tab] = await Promise.all([context.waitForEvent('page'), click()]);
		await tab.waitForLoadState();
		const url = tab.url();
		await tab.close();
		return url;
	} finally {
		await context.unroute('https://github.com/**');
	}
}

/** The names the node panel lists now. */
async function creatorNames(): Promise<string[]> {
	return (await page.locator('[data-test-id=node-creator-item-name]').allInnerTexts()).map((name) => name.trim());
}

async function newWorkflow(): Promise<void> {
	await page.goto(`${n8n.url}/workflow/new`);
	await page.locator('[data-test-id=canvas-plus-button]').click();
}

describe('the editor in headless Chromium', () => {
	test('searching shows which service each node drives, with its own icon', async () => {
		await step('editor-failure-search.png', async () => {
			await newWorkflow();
			// An empty workflow first asks for a trigger.
			for (const term of ['chat', 'messaging']) {
				expect(await searchCreator(page, term, TRIGGER_ENTRY)).toEqual(expect.arrayContaining([TRIGGER_ENTRY, ACTION_NODE]));
			}
			// n8n 1.x lists search results by name only; 2.x adds the node's description
			if (!ON_N8N_1) expect(await creatorEntryText(TRIGGER_ENTRY)).toContain(TRIGGER_DESCRIPTION);
			await shot('editor-search-chat.png');
			const triggerIcons = await page
				.locator('[data-test-id=node-creator] img[src*="/icons/n8n-nodes-timeline-navigation/"]')
				.evaluateAll((imgs) => imgs.map((i) => (i as unknown as { naturalWidth: number }).naturalWidth));
			expect(triggerIcons.length).toBeGreaterThanOrEqual(2);
			for (const width of triggerIcons) expect(width).toBeGreaterThan(0);

			// Start with a manual trigger; the action node is then offered as a next step.
			await newWorkflowWithManualTrigger(page);
			expect(await searchCreator(page, 'timeline', ACTION_NODE)).toContain(ACTION_NODE);
			if (!ON_N8N_1) expect(await creatorEntryText(ACTION_NODE)).toContain(ACTION_ENTRY_DESCRIPTION);
			await shot('editor-search-timeline.png');
			expect(await searchCreator(page, 'chat', ACTION_NODE)).toContain(ACTION_NODE);
			const actionIcons = await page
				.locator('img[src*="timelineNavigation.svg"], img[src*="timelineNavigation.dark.svg"]')
				.evaluateAll((imgs) => imgs.map((i) => (i as unknown as { naturalWidth: number }).naturalWidth));
			expect(actionIcons.length).toBeGreaterThanOrEqual(1);
			for (const width of actionIcons) expect(width).toBeGreaterThan(0);
		});
	});

	test('"What happens next?", typing "chat-app": the node that sends and the Inbox trigger are told apart by name and description, and one click on the sender shows its send actions', async () => {
		await step(`editor-failure-what-next-chat-app-${env.versions.n8n}.png`, async () => {
			await newWorkflowWithManualTrigger(page);
			const listed = await searchCreator(page, 'chat-app', ACTION_NODE);
			// the trigger is listed as what it is, never under an action node's name
			expect(listed).toEqual(expect.arrayContaining([ACTION_NODE, TRIGGER_ENTRY]));
			expect(listed).not.toContain('Chat-App Messaging');
			if (!ON_N8N_1) {
				expect(await creatorEntryText(TRIGGER_ENTRY)).toContain(TRIGGER_DESCRIPTION);
				expect(await creatorEntryText(ACTION_NODE)).toContain(ACTION_ENTRY_DESCRIPTION);
			}
			await shot(`editor-what-next-chat-app-${env.versions.n8n}.png`);
			// one click: the sender's actions, the sends among them
			await creatorItem(page, ACTION_NODE).click();
			const creator = page.locator('[data-test-id=node-creator]');
			await creator.getByText('Actions (24)', { exact: true }).waitFor();
			for (const action of ['Send a text message', 'Send a template message', 'Send message and wait for response']) {
				await creator.getByText(action, { exact: true }).first().waitFor();
			}
			await creator.getByText('Send a text message', { exact: true }).first().scrollIntoViewIfNeeded();
			await shot(`editor-what-next-chat-app-actions-${env.versions.n8n}.png`);
		});
	});

	test('Send and Wait shows before a run what the person gets and what it outputs: both buttons, the template that carries the link, the answer\'s shape', async () => {
		await step(`editor-failure-send-and-wait-panel-${env.versions.n8n}.png`, async () => {
			await newWorkflowWithManualTrigger(page);
			await searchCreator(page, 'chat-app', ACTION_NODE);
			await creatorItem(page, ACTION_NODE).click();
			await page.getByText('Send message and wait for response', { exact: true }).first().click();
			const ndv = page.locator('[data-test-id=ndv]');
			await ndv.waitFor();
			await ndv.getByText('The page offers Approve and Decline (Approval Options changes them).', { exact: false }).first().waitFor();
			const notice = ndv.getByText('Output: one item', { exact: false }).first();
			await notice.scrollIntoViewIfNeeded();
			const said = await notice.innerText();
			expect(said).toContain('Output: one item, { "data": { "approved": true or false, "respondedAt": the date and time } }');
			expect(said).toContain('If nobody answers within Limit Wait Time, the input items go on unchanged, without data.');
			expect(said).toContain("turn on Options → Include Input Fields (then {{ $json.from }}), or refer to the trigger: {{ $('On Inbound Message').item.json.from }}");
			await shot(`editor-send-and-wait-panel-${env.versions.n8n}.png`);

			// Fallback to Template: the fields lead to a template with a parameter for the link.
			await ndv.locator('[data-test-id=parameter-input-fallbackToTemplate]').click();
			await ndv.getByText('that template needs a parameter for the answer link: write {link} as its value', { exact: false }).first().waitFor();
			await expect(ndv.locator('[data-test-id=parameter-input-questionTemplateId] input').getAttribute('placeholder')).resolves.toBe('e.g. approval_request');
			await ndv.locator('[data-test-id=parameter-input-fallbackToTemplate]').scrollIntoViewIfNeeded();
			await shot(`editor-send-and-wait-fallback-${env.versions.n8n}.png`);
			await closeNdv();
		});
	});

	test('the node is found by the words of its actions (n8n searches names and codex aliases)', async () => {
		await step('editor-failure-search-actions.png', async () => {
			await newWorkflowWithManualTrigger(page);
			for (const term of ['send text', 'text message', 'send template', 'send media', 'location', 'fast forward', 'rewind', 'anchor']) {
				expect(await searchCreator(page, term, ACTION_NODE)).toContain(ACTION_NODE);
			}
			await searchCreator(page, 'send text', ACTION_NODE);
			await shot('editor-search-send-text.png');
			await creatorItem(page, ACTION_NODE).click();
			await page.getByText('Send a text message', { exact: true }).first().waitFor();
			await shot('editor-search-send-text-actions.png');
		});
	});

	test('"send and wait", "approval", "human", "chat" and "sms" find the node; Human review → Send and wait for response lists it and opens it on Send and Wait', async () => {
		await step(`editor-failure-human-review-${env.versions.n8n}.png`, async () => {
			await newWorkflowWithManualTrigger(page);
			for (const term of ['send and wait', 'approval', 'human', 'chat', 'sms']) {
				expect(await searchCreator(page, term, ACTION_NODE)).toContain(ACTION_NODE);
			}
			await shot(`editor-search-sms-${env.versions.n8n}.png`);

			// The panel's own list, beside n8n's Send and Wait nodes.
			await page.locator('[data-test-id=node-creator-search-bar]').fill('');
			await page.locator('[data-test-id=node-creator]').getByText(HUMAN_REVIEW, { exact: true }).click();
			const creator = page.locator('[data-test-id=node-creator]');
			await creator.getByText('Send and wait for response', { exact: true }).waitFor();
			await creatorItem(page, ACTION_NODE).waitFor();
			expect(await creatorNames()).toEqual(expect.arrayContaining(['Slack', 'Telegram', 'Gmail', ACTION_NODE]));
			await shot(`editor-human-review-${env.versions.n8n}.png`);

			// It opens on its one Send and Wait action, with a Docs link that keeps its page.
			await creatorItem(page, ACTION_NODE).click();
			await creator.getByText('Actions (1)', { exact: true }).waitFor();
			const action = creator.getByText('Send message and wait for response', { exact: true });
			await action.waitFor();
			await shot(`editor-human-review-actions-${env.versions.n8n}.png`);
			await action.click();
			const ndv = page.locator('[data-test-id=ndv]');
			await ndv.waitFor();
			const selected = await ndv.locator('input').evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
			expect(selected).toEqual(expect.arrayContaining(['Message', 'Send and Wait for Response']));
			// The panel's Docs link (the codex's primaryDocumentation, n8n's tracking query appended)
			// opens the node's own page: no fragment for the query to break.
			const docs = new URL(await openedBy(() => ndv.getByText('Docs', { exact: true }).first().click()));
			expect(`${docs.origin}${docs.pathname}`).toBe('https://github.com/n8n-nodes-timeline-navigation/n8n-nodes-timeline-navigation/blob/main/docs/operations.md');
			expect(docs.hash).toBe('');
			expect(docs.searchParams.get('utm_source')).toBe('n8n_app');
			await closeNdv();
		});
	});

	test('Human review does not take the node out of "Action in an app"', async () => {
		await step(`editor-failure-action-in-an-app-${env.versions.n8n}.png`, async () => {
			await newWorkflowWithManualTrigger(page);
			await page.locator('[data-test-id=node-creator]').getByText('Action in an app', { exact: true }).click();
			// The list renders as it scrolls: scroll until the node shows or the list ends.
			let seen = new Set<string>();
			for (let unchanged = 0; !seen.has(ACTION_NODE) && unchanged < 5; ) {
				const before = seen.size;
				seen = new Set([...seen, ...(await creatorNames())]);
				unchanged = seen.size === before ? unchanged + 1 : 0;
				await page.locator('[data-test-id=node-creator-item-name]').last().scrollIntoViewIfNeeded();
				await page.mouse.wheel(0, 1500);
				await page.waitForTimeout(200);
			}
			expect([...seen]).toContain(ACTION_NODE);
			// n8n's own Send and Wait nodes leave it: the list is the one that would have lost the node.
			expect([...seen]).not.toContain('Slack');
			await creatorItem(page, ACTION_NODE).scrollIntoViewIfNeeded();
			await shot(`editor-action-in-an-app-${env.versions.n8n}.png`);
		});
	});

	test('Send Template labels each parameter with its placeholder, and the canvas reads "Message: Send Template"', async () => {
		await step('editor-failure-send-template.png', async () => {
			await newWorkflowWithManualTrigger(page);
			await searchCreator(page, 'timeline', ACTION_NODE);
			await creatorItem(page, ACTION_NODE).click();
			await page.getByText('Send a template message', { exact: true }).first().click();

			const ndv = page.locator('[data-test-id=ndv]');
			await ndv.waitFor();
			const selected = await ndv.locator('input').evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
			expect(selected).toEqual(expect.arrayContaining(['Message', 'Send Template']));
			await ndv.locator('[data-test-id=parameter-input-templateId] input').fill('event_alert');
			await page.keyboard.press('Tab');

			const parameters = ndv.locator('[data-test-id=fixed-collection-templateParameters]');
			const values = ['Alexandria', 'noon', 'The lighthouse is lit'];
			for (const [index, value] of values.entries()) {
				const position = index + 1;
				await parameters.locator('input[placeholder="Add Parameter"]').last().click();
				// The choices name the placeholders still free, in order.
				const offered = page.locator('.el-select-dropdown__item:visible');
				await offered.first().waitFor();
				expect((await offered.allInnerTexts())[0]).toBe(`Parameter {{${position}}}`);
				await offered.getByText(`Parameter {{${position}}}`, { exact: true }).click();
				await parameters.getByText(`Value of {{${position}}}`, { exact: true }).waitFor();
				await parameters.locator('[data-test-id=parameter-input-value] input').nth(index).fill(value);
			}
			await page.keyboard.press('Tab');
			const labels = (await parameters.innerText()).split('\n').filter((line) => /\{\{\d\}\}/.test(line));
			expect(labels).toEqual([
				'Parameter {{1}}',
				'Value of {{1}}',
				'Parameter {{2}}',
				'Value of {{2}}',
				'Parameter {{3}}',
				'Value of {{3}}',
			]);
			await expect(page.locator('img[src*="/icons/n8n-nodes-timeline-navigation/"]').count()).resolves.toBeGreaterThan(0);
			await shot('editor-send-template.png');

			await closeNdv();
			const node = page.locator('[data-test-id=canvas-node]', { has: page.locator('img[src*="timelineNavigation"]') });
			await node.first().waitFor();
			expect(await node.first().innerText()).toContain('Message: Send Template');
			await expect(page.locator('[data-test-id=canvas-node]').count()).resolves.toBe(2);
			await shot('editor-canvas.png');
		});
	});

	test('the refund example reads left to right: no wires crossing, the sticky note beside the nodes', async () => {
		await step(`editor-failure-refund-example-${env.versions.n8n}.png`, async () => {
			const id = await importExample(n8n, EXAMPLE_FILES.refundApproval, creds);
			await page.goto(`${n8n.url}/workflow/${id}`);
			const example = readExample(EXAMPLE_FILES.refundApproval);
			const stickyTitle = 'Ask a manager over chat before a big refund';
			const nodeCount = example.nodes.filter((node) => node.type !== 'n8n-nodes-base.stickyNote').length;
			// The nodes (n8n draws a sticky note as a node of its canvas graph too: left out here).
			const nodes = page.locator('[data-test-id=canvas-node]').filter({ hasNotText: stickyTitle });
			await waitFor(`the ${nodeCount} nodes of the example on the canvas`, async () => (await nodes.count()) === nodeCount, { timeoutMs: 60_000 });
			const sticky = (await page.locator('.vue-flow__node').filter({ hasText: stickyTitle }).first().boundingBox())!;
			const boxes = await nodes.evaluateAll((els) =>
				els.map((el) => {
					const { x, y, width, height } = el.getBoundingClientRect();
					return { text: (el as unknown as { innerText: string }).innerText, x, y, width, height };
				}),
			);
			const overlapsSticky = (box: (typeof boxes)[number]) =>
				box.x < sticky.x + sticky.width && sticky.x < box.x + box.width && box.y < sticky.y + sticky.height && sticky.y < box.y + box.height;
			expect(boxes.filter(overlapsSticky).map((box) => box.text)).toEqual([]);
			await shot(`editor-refund-example-${env.versions.n8n}.png`);
		});
	});

	test('the trigger, while listening, says which service to go to', async () => {
		await step('editor-failure-trigger.png', async () => {
			await newWorkflow();
			await searchCreator(page, 'chat', TRIGGER_ENTRY);
			await creatorItem(page, TRIGGER_ENTRY).click();
			// The trigger's events are offered as its actions.
			await page.getByText('On inbound message', { exact: true }).first().click();
			const ndv = page.locator('[data-test-id=ndv]');
			await ndv.waitFor();
			await ndv.locator('[data-test-id=trigger-execute-button]').click();
			await ndv.getByText('Listening for test event', { exact: true }).waitFor();
			await expect(ndv.getByText('Go to Chat-App Messaging Inbox and create an event', { exact: true }).isVisible()).resolves.toBe(true);
			await shot('editor-trigger-listening.png');

			// On the canvas, the waiting trigger explains itself and names its event as the panel does.
			await closeNdv();
			const canvas = page.locator('[data-test-id=canvas-wrapper]');
			await canvas
				.getByText('Waiting for the Chat-App Messaging service on the Test URL: set it as the webhook URL in the messaging dashboard (with the sandbox of npm start: POST {"url": "<Test URL>"} to its /_sandbox/webhook), then write to your chat-app number or send a message and wait for its delivery status', { exact: true })
				.first()
				.waitFor();
			expect(await canvas.innerText()).toContain('On Inbound Message');
			await shot('editor-trigger-waiting.png');
		});
	});
});
