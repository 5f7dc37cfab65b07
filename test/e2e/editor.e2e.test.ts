/**
 * The editor in a real browser (Debian's Chromium, driven by playwright-core): sign in, open a
 * new workflow, find both nodes in the node creator by "Timeline" and by the alias "chat", add
 * the action node through one of its actions (resource Message, operation Send Template), see
 * its typed fields and its own icon, and save a screenshot to .artifacts/e2e/ (git-ignored).
 */
import * as fs from 'node:fs';

import { openBrowser, searchCreator as searchIn, signIn, type Editor } from './browserSupport';
import { n8n } from './support';

let editor: Editor;
let page: Editor['page'];

jest.setTimeout(240_000);

beforeAll(async () => {
	editor = await openBrowser();
	page = editor.page;
});

afterAll(async () => {
	await editor?.close();
});

const shot = (name: string) => editor.shot(name);
const searchCreator = (term: string) => searchIn(page, term);

describe('the editor in headless Chromium', () => {
	test('sign in, find both nodes, add the action node as Message → Send Template, see its fields and icon', async () => {
		try {
			await signIn(page);

			await page.goto(`${n8n.url}/workflow/new`);
			await page.locator('[data-test-id=canvas-plus-button]').click();

			// An empty workflow first asks for a trigger: the trigger node is listed there (n8n
			// drops " Trigger" from its name in this list), found by name and by its alias.
			const TRIGGER_TEXT = 'Starts the workflow when the Chat-App Messaging service';
			const itemsWith = (text: string) => page.locator('[data-test-id=node-creator]').getByText(text);
			for (const term of ['chat', 'messaging']) {
				expect(await searchCreator(term)).toContain('Chat-App Messaging');
				await expect(itemsWith(TRIGGER_TEXT).count()).resolves.toBeGreaterThan(0);
			}
			await shot('editor-node-creator-trigger.png');
			// the entry carries the package's app icon (n8n lists a trigger under its app's icon), loaded
			const triggerIcons = await page.locator('[data-test-id=node-creator] img[src*="/icons/n8n-nodes-timeline-navigation/"]').evaluateAll((imgs) =>
				imgs.map((i) => (i as unknown as { naturalWidth: number }).naturalWidth),
			);
			expect(triggerIcons.length).toBeGreaterThan(0);
			for (const w of triggerIcons) expect(w).toBeGreaterThan(0);

			// Start with a manual trigger, then the action node is offered as a next step.
			const manual = await searchCreator('manual');
			await page.locator('[data-test-id=node-creator-item-name]').first().click();
			expect(manual[0]).toMatch(/manual/i);
			await page.locator('[data-test-id=canvas-node]').first().waitFor();
			await page.keyboard.press('Escape');
			await page.locator('[data-test-id=node-creator-plus-button]').click();
			// n8n lists the package once, as an app whose actions and triggers open on click
			for (const term of ['Timeline', 'chat']) {
				expect(await searchCreator(term)).toContain('Timeline Navigation & Chat-App Messaging');
			}
			await shot('editor-node-creator-action.png');

			// the creator shows the action node's own icon (an SVG file served by n8n), loaded
			const icons = await page.locator('img[src*="timelineNavigation.svg"], img[src*="timelineNavigation.dark.svg"]').evaluateAll((imgs) =>
				imgs.map((i) => ({ src: (i as unknown as { src: string }).src, w: (i as unknown as { naturalWidth: number }).naturalWidth })),
			);
			expect(icons.length).toBeGreaterThanOrEqual(1);
			for (const icon of icons) expect(icon.w).toBeGreaterThan(0);

			// open the action node's actions and choose Message → Send Template
			await page.locator('[data-test-id=node-creator-item-name]', { hasText: /^Timeline Navigation & Chat-App Messaging$/ }).first().click();
			await page.getByText('Send a template message', { exact: true }).first().click();

			// the node details view with the operation's typed fields
			const ndv = page.locator('[data-test-id=ndv]');
			await ndv.waitFor();
			for (const label of ['Resource', 'Operation', 'To', 'Template ID', 'Parameters Input']) {
				await expect(ndv.getByText(label, { exact: true }).first().isVisible()).resolves.toBe(true);
			}
			// the chosen resource and operation, and the node's own icon in the header
			const selected = await ndv.locator('input').evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
			expect(selected).toEqual(expect.arrayContaining(['Message', 'Send Template']));
			await expect(page.locator('img[src*="/icons/n8n-nodes-timeline-navigation/"]').count()).resolves.toBeGreaterThan(0);
			const file = await shot('editor-send-template.png');
			expect(fs.statSync(file).size).toBeGreaterThan(10_000);

			// back on the canvas: one node of the package's type, with its icon
			await page.keyboard.press('Escape');
			const node = page.locator('[data-test-id=canvas-node]', { has: page.locator('img[src*="timelineNavigation"]') });
			await node.first().waitFor();
			await expect(page.locator('[data-test-id=canvas-node]').count()).resolves.toBe(2);
			await shot('editor-canvas.png');
		} catch (err) {
			await shot('editor-failure.png').catch(() => undefined);
			throw err;
		}
	});
});
