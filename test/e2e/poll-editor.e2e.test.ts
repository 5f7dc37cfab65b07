/**
 * The Timeline Navigation Events Trigger in the editor, in a real browser: in example 01, Fetch Test
 * Event shows the latest event at the location, with the location it came from, and leaves the
 * trigger's memory (the workflow's static data) untouched; the node panel explains how the
 * trigger starts the workflow.
 */
import { EXAMPLE_DATA, EXAMPLE_FILES, importExample, seedExampleData } from '../../tools/n8n/examples';
import { openBrowser, signIn, type Editor } from './browserSupport';
import { creds, env, n8n, sandbox } from './support';

jest.setTimeout(240_000);

let editor: Editor;
let seeded: Awaited<ReturnType<typeof seedExampleData>>;

beforeAll(async () => {
	await sandbox.reset();
	seeded = await seedExampleData(sandbox);
	editor = await openBrowser();
	await signIn(editor.page);
});

afterAll(async () => {
	await editor?.close();
});

test('Fetch Test Event shows the latest event, with its location, and remembers nothing', async () => {
	const { page } = editor;
	const id = await importExample(n8n, EXAMPLE_FILES.eventAlerts, creds);
	await sandbox.clearRequests();
	try {
		await page.goto(`${n8n.url}/workflow/${id}`);
		await page.locator('[data-test-id=canvas-node]', { hasText: 'New Event at Alexandria' }).first().dblclick();
		const ndv = page.locator('[data-test-id=ndv]');
		await ndv.waitFor();
		await ndv.getByText('Starts the workflow once for each new event or anomaly', { exact: false }).first().waitFor();
		await ndv.getByRole('button', { name: /Fetch Test Event/i }).first().click();

		const latest = seeded.at(-1)!;
		const output = page.locator('[data-test-id=output-panel], [data-test-id=ndv-output-panel]').first();
		await output.getByText(latest.description, { exact: false }).first().waitFor();
		const shown = await output.innerText();
		expect(shown).toContain(EXAMPLE_DATA.location);
		for (const older of seeded.slice(0, -1)) expect(shown).not.toContain(older.description);
		await editor.shot(`poll-fetch-test-event-${env.versions.n8n}.png`);
	} catch (error) {
		await editor.shot(`poll-fetch-test-event-failure-${env.versions.n8n}.png`).catch(() => undefined);
		throw error;
	}

	const monitors = await sandbox.requests({ path: '/v1/monitor-events' });
	expect(monitors).toHaveLength(1);
	expect(monitors[0].query.location).toBe(EXAMPLE_DATA.location);
	// What the trigger remembers lives in the workflow's static data: a test fetch saves none.
	const { body } = await n8n.api('GET', `/workflows/${id}`);
	expect(body.staticData ?? null).toBeNull();
});
