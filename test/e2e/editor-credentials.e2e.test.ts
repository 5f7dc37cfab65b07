/**
 * Which credential the editor shows for the action node, in a real browser: each resource asks
 * for its own service's credential and offers exactly the existing credentials of that service,
 * and a node added through an action of either service comes up with that service's credential
 * selected (n8n picks the most recently changed one: this file creates one of each service
 * first, and removes them afterwards). Screenshots in .artifacts/e2e/editor-credentials-*.png.
 *
 * n8n 2.41's editor picks a credential by itself only while the node has none at all
 * (NodeCredentials.vue), so after switching to the other service's resource the field waits
 * for one pick; see docs/compatibility.md, "In the editor".
 */
import { fetchOnOpenConnection, type StoredCredential } from '../../tools/n8n/client';
import { CREDENTIAL_TYPES, NODE_TYPES } from '../../tools/n8n/communityPackage';
import { creatorItem, newWorkflowWithManualTrigger, openBrowser, searchCreator, signIn, type Editor } from './browserSupport';
import { waitFor } from '../../tools/shared/wait';
import { escapeRegExp } from '../support/regexp';
import { env, n8n } from './support';

jest.setTimeout(240_000);

// Names as n8n serves them to the editor, so a relabelled option does not break the test.
let description: { displayName: string; properties: any[] };
const resourceName = (value: string): string =>
	description.properties.find((p) => p.name === 'resource').options.find((o: any) => o.value === value).name;
const actionOf = (resource: string, operation: string): string =>
	description.properties
		.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource))
		.options.find((o: any) => o.value === operation).action;

const SERVICES = {
	message: {
		label: 'Credential for Chat-App Messaging API',
		credential: {
			name: 'Chat-App Messaging (editor test)',
			type: CREDENTIAL_TYPES.messaging,
			data: { baseUrl: env.sandbox.url, apiKey: env.sandbox.messagingKey },
		},
	},
	time: {
		label: 'Credential for Timeline Navigation API',
		credential: {
			name: 'Timeline Navigation (editor test)',
			type: CREDENTIAL_TYPES.timeline,
			data: { baseUrl: env.sandbox.url, accessToken: env.sandbox.timelineKey },
		},
	},
};
type Service = keyof typeof SERVICES;

let created: StoredCredential[] = [];
/** Names of every existing credential of a type, sorted. */
let namesOfType: (type: string) => string[];

let editor: Editor;
let page: Editor['page'];

beforeAll(async () => {
	// Right after n8n starts (this file may run first) it can close the connection of a
	// /types request instead of answering: ask again until it answers.
	const served = (file: string) =>
		waitFor(
			`n8n to serve /types/${file}`,
			async () => {
				const response = await fetchOnOpenConnection(`${n8n.url}/types/${file}`, { headers: { cookie: n8n.cookie, 'browser-id': n8n.browserId } }).catch(
					() => undefined,
				);
				return response?.ok ? await response.json() : undefined;
			},
			{ timeoutMs: 60_000, intervalMs: 500 },
		);
	description = ((await served('nodes.json')) as Array<typeof description & { name: string }>).find(
		(type) => type.name === NODE_TYPES.action,
	)!;
	// The labels below name the package's credential types as n8n displays them.
	const types = (await served('credentials.json')) as Array<{ name: string; displayName: string }>;
	expect(types.find((t) => t.name === CREDENTIAL_TYPES.messaging)?.displayName).toBe('Chat-App Messaging API');
	expect(types.find((t) => t.name === CREDENTIAL_TYPES.timeline)?.displayName).toBe('Timeline Navigation API');

	created = await n8n.importCredentials(Object.values(SERVICES).map((service) => service.credential));
	const all = (await n8n.rest('GET', '/credentials')).body as Array<{ name: string; type: string }>;
	namesOfType = (type) => all.filter((c) => c.type === type).map((c) => c.name).sort();

	editor = await openBrowser();
	page = editor.page;
	await signIn(page);
});

afterAll(async () => {
	await editor?.close();
	for (const credential of created) await n8n.rest('DELETE', `/credentials/${credential.id}`);
});

const ndv = () => page.locator('[data-test-id=ndv]');
const credentialField = () => ndv().locator('[data-test-id=node-credentials-select] input').first();

/** A new workflow with a manual trigger, then the action node added through one of its actions. */
async function addNodeThroughAction(action: string): Promise<void> {
	await newWorkflowWithManualTrigger(page);
	await searchCreator(page, 'Timeline', description.displayName);
	await creatorItem(page, description.displayName).click();
	await page.getByText(action, { exact: true }).first().click();
	await ndv().waitFor();
}

async function chooseResource(value: Service): Promise<void> {
	await ndv().locator('[data-test-id=parameter-input-resource]').click();
	await page.locator('.el-select-dropdown__item:visible', { hasText: new RegExp(`^${escapeRegExp(resourceName(value))}$`) }).click();
	await credentialLabel(value).waitFor();
}

const credentialLabel = (service: Service) =>
	ndv().locator('[data-test-id=credentials-label]', { hasText: SERVICES[service].label });

/** The existing credentials the field offers (without "Create new credential"), sorted. */
async function offeredCredentials(): Promise<string[]> {
	// Right after the resource changes, the first click on the field may only focus it: click
	// until the list is open.
	const field = credentialField();
	for (let attempt = 1; (await field.getAttribute('aria-expanded')) !== 'true'; attempt++) {
		if (attempt > 5) throw new Error('The credential list did not open after 5 clicks.');
		await field.click();
		await page
			.waitForFunction(
				`document.querySelector('[data-test-id=ndv] [data-test-id=node-credentials-select] input')?.getAttribute('aria-expanded') === 'true'`,
				undefined,
				{ timeout: 1_000 },
			)
			.catch(() => undefined);
	}
	const items = page.locator('[data-test-id^=node-credentials-select-item-]:visible:not([data-test-id$="-new"])');
	await items.first().waitFor();
	return (await items.allInnerTexts()).map((text) => text.split('\n')[0].trim()).sort();
}

async function pick(credential: string): Promise<void> {
	await page.locator('[data-test-id^=node-credentials-select-item-]:visible', { hasText: credential }).first().click();
	await expectShown(credential);
}

/** Polls until the credential field shows the credential (the editor updates asynchronously). */
async function expectShown(credential: string): Promise<void> {
	const selector = '[data-test-id=ndv] [data-test-id=node-credentials-select] input';
	await page
		.waitForFunction(`document.querySelector(${JSON.stringify(selector)})?.value === ${JSON.stringify(credential)}`, undefined, {
			timeout: 15_000,
		})
		.catch(async () => {
			throw new Error(`The credential field shows "${await credentialField().inputValue()}", not "${credential}".`);
		});
}

/** Runs the steps, with a screenshot of the page if one fails. */
async function withFailureShot(name: string, steps: () => Promise<void>): Promise<void> {
	try {
		await steps();
	} catch (err) {
		await editor.shot(`editor-credentials-failure-${name}.png`).catch(() => undefined);
		throw err;
	}
}

/** Adds the node through the action; it comes up with the service's existing credential. */
async function addAndExpectCredential(service: Service, operation: string, shotNumber: number): Promise<void> {
	await addNodeThroughAction(actionOf(service, operation));
	await credentialLabel(service).waitFor();
	if (env.versions.n8n.startsWith('1.')) {
		// n8n 1.x fills in an existing credential of the service, not the most recently changed one
		await page.waitForFunction(`!!document.querySelector('[data-test-id=ndv] [data-test-id=node-credentials-select] input')?.value`);
		expect(namesOfType(SERVICES[service].credential.type)).toContain(await credentialField().inputValue());
	} else {
		await expectShown(SERVICES[service].credential.name);
	}
	await editor.shot(`editor-credentials-${shotNumber}-added-as-${service}.png`);
}

/**
 * Switches Resource to the service's resource: the field asks for that service's credential and
 * offers exactly the existing one; picks it. Screenshots before and after the pick.
 */
async function switchAndPick(service: Service, shotNumber: number): Promise<void> {
	await chooseResource(service);
	await expect(ndv().locator('[data-test-id=credentials-label]').allInnerTexts()).resolves.toEqual([SERVICES[service].label]);
	await editor.shot(`editor-credentials-${shotNumber}-switched-to-${service}.png`);
	expect(await offeredCredentials()).toEqual(namesOfType(SERVICES[service].credential.type));
	await pick(SERVICES[service].credential.name);
	await editor.shot(`editor-credentials-${shotNumber + 1}-${service}-credential-picked.png`);
}

describe('the credential the editor shows for each resource', () => {
	test('added as Message → Send Template it shows the messaging credential; Time and back each ask for their own service and offer exactly its credential', async () => {
		await withFailureShot('message-time-message', async () => {
			await addAndExpectCredential('message', 'sendTemplate', 1);

			await switchAndPick('time', 2);
			await switchAndPick('message', 4);
		});
	});

	test('added as Time → Travel it shows the timeline credential', async () => {
		await withFailureShot('added-as-time', async () => {
			await addAndExpectCredential('time', 'travel', 6);
		});
	});
});
