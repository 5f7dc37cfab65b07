/**
 * The editor as a newcomer meets it, in a real browser (Debian's Chromium, driven by
 * playwright-core): the node panel's search shows which service each node drives, Send Template
 * labels each parameter with its placeholder, the canvas subtitle reads as the panel does, and the
 * trigger, while listening, names the Chat-App Messaging service. Screenshots go to
 * .artifacts/e2e/ (git-ignored).
 */
import { creatorItem, newWorkflowWithManualTrigger, openBrowser, searchCreator, signIn, type Editor } from './browserSupport';
import { env, n8n } from './support';

const ON_N8N_1 = env.versions.n8n.startsWith('1.');

const ACTION_NODE = 'Timeline Navigation & Chat-App Messaging';
/** n8n lists a trigger under its app's name, without " Trigger". */
const TRIGGER_ENTRY = 'Chat-App Messaging';
const TRIGGER_DESCRIPTION = 'Starts the workflow when the Chat-App Messaging service reports an inbound message or a delivery status';
const ACTION_DESCRIPTION_START = 'Drive the Timeline Navigation service';

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
			if (!ON_N8N_1) expect(await creatorEntryText(ACTION_NODE)).toContain(ACTION_DESCRIPTION_START);
			await shot('editor-search-timeline.png');
			expect(await searchCreator(page, 'chat', ACTION_NODE)).toContain(ACTION_NODE);
			const actionIcons = await page
				.locator('img[src*="timelineNavigation.svg"], img[src*="timelineNavigation.dark.svg"]')
				.evaluateAll((imgs) => imgs.map((i) => (i as unknown as { naturalWidth: number }).naturalWidth));
			expect(actionIcons.length).toBeGreaterThanOrEqual(1);
			for (const width of actionIcons) expect(width).toBeGreaterThan(0);
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
			await expect(ndv.getByText('Go to Chat-App Messaging and create an event', { exact: true }).isVisible()).resolves.toBe(true);
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
