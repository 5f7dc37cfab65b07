/**
 * The editor in a real browser for the e2e files (not a test file itself): Debian's Chromium
 * driven by playwright-core, a fresh profile per file, sign-in as the owner, screenshots in
 * .artifacts/e2e/, and the node creator's search.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

import { CHROMIUM_ARGS, ensureChromium } from '../../tools/n8n/browser';
import type { N8nConnectionInfo } from '../../tools/n8n/client';
import { ARTIFACTS_DIR } from '../../tools/n8n/runtime';
import { n8n } from './support';

export const SHOTS_DIR = path.join(ARTIFACTS_DIR, 'e2e');

export interface Editor {
	page: Page;
	/** Saves a screenshot under .artifacts/e2e/ and returns its path. */
	shot(name: string): Promise<string>;
	close(): Promise<void>;
}

export async function openBrowser(): Promise<Editor> {
	const executablePath = await ensureChromium((line) => process.stderr.write(line + '\n'));
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-chromium-'));
	let context: BrowserContext | undefined;
	try {
		context = await chromium.launchPersistentContext(profile, {
			executablePath,
			headless: true,
			args: CHROMIUM_ARGS,
			viewport: { width: 1440, height: 900 },
		});
	} catch (err) {
		fs.rmSync(profile, { recursive: true, force: true });
		throw err;
	}
	const page = context.pages()[0] ?? (await context.newPage());
	// On the shared 2-core machine, with other suites running, a page of the editor can take over
	// 30 s to load or to answer a click.
	page.setDefaultTimeout(60_000);
	page.setDefaultNavigationTimeout(120_000);
	return {
		page,
		async shot(name) {
			fs.mkdirSync(SHOTS_DIR, { recursive: true });
			const file = path.join(SHOTS_DIR, name);
			await page.screenshot({ path: file });
			return file;
		},
		async close() {
			await context?.close();
			fs.rmSync(profile, { recursive: true, force: true });
		},
	};
}

/** Signs in as the owner of the suite's n8n, or of another instance (n8n 1.x and 2.x forms). */
export async function signIn(page: Page, target: Pick<N8nConnectionInfo, 'url' | 'owner'> = n8n): Promise<void> {
	await page.goto(`${target.url}/signin`);
	await page.locator('input[name=emailOrLdapLoginId], input[name=email]').first().fill(target.owner.email);
	await page.locator('input[name=password]').fill(target.owner.password);
	await page.getByRole('button', { name: /sign in/i }).click();
	await page.waitForURL((u) => !u.pathname.includes('/signin'));
}

/** A node creator entry by its exact name. */
export function creatorItem(page: Page, name: string) {
	return page.locator('[data-test-id=node-creator-item-name]').getByText(name, { exact: true }).first();
}

/**
 * Types into the node creator's search and returns the names listed once the list has settled
 * (the same names on two reads in a row) with `expected` among them. n8n filters as you type
 * and may re-render the list after the entry first shows, so clicking it earlier can miss.
 */
export async function searchCreator(page: Page, term: string, expected: string): Promise<string[]> {
	const search = page.locator('[data-test-id=node-creator-search-bar]');
	await search.fill('');
	await search.fill(term);
	const names = async () => (await page.locator('[data-test-id=node-creator-item-name]').allInnerTexts()).map((t) => t.trim());
	let previous = '';
	for (let attempt = 0; ; attempt++) {
		const listed = await names();
		const current = JSON.stringify(listed);
		if (current === previous && listed.includes(expected)) {
			await creatorItem(page, expected).waitFor();
			return listed;
		}
		if (attempt > 100) throw new Error(`the node creator did not settle on a list with "${expected}" for "${term}": ${current}`);
		previous = current;
		await page.waitForTimeout(300);
	}
}

/**
 * A new workflow (in the suite's n8n, or `target`) whose first node is a manual trigger, with the
 * node creator open for the next step.
 */
export async function newWorkflowWithManualTrigger(page: Page, target: Pick<N8nConnectionInfo, 'url'> = n8n): Promise<void> {
	await page.goto(`${target.url}/workflow/new`);
	await page.locator('[data-test-id=canvas-plus-button]').click();
	// "Trigger manually" in the unfiltered list; "Manual Trigger" once the search applies.
	await searchCreator(page, 'manual', 'Manual Trigger');
	await creatorItem(page, 'Manual Trigger').click();
	await page.locator('[data-test-id=canvas-node]').first().waitFor();
	await page.keyboard.press('Escape');
	await page.locator('[data-test-id=node-creator-plus-button]').click();
}
