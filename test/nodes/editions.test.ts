// The single-service packages run the same operation modules as the combined node: each edition's
// action node sends what the combined one sends for its service's operations, refuses the other
// service's (a workflow copied from the combined package), and the messaging edition's trigger
// starts workflows as the combined package's does.
import { hostTrigger, runListSearch } from '../support/harness';
import { byId, CUSTOMER, NODE_TYPE, nodeCredentialsFor, useSandbox } from '../support/node-support';
import { inbound } from '../support/trigger-payloads';
import { CHAT_APP_MESSAGING, TIMELINE_NAVIGATION } from '../../tools/packages/packages';

const MESSAGING_NODE = `${CHAT_APP_MESSAGING.name}.chatAppMessaging`;
const MESSAGING_TRIGGER = `${CHAT_APP_MESSAGING.name}.chatAppTrigger`;
const TIMELINE_NODE = `${TIMELINE_NAVIGATION.name}.timelineNavigationService`;

const t = useSandbox();
const { sandbox } = t;

const run = (type: string, parameters: Record<string, unknown>) => t.run(parameters as never, [{}], { type });

/** What reached the sandbox, as method, path and body. */
async function received() {
	return (await t.requests()).map(({ method, path, body }) => ({ method, path, body }));
}

describe('the same operation, through the combined node and through its edition, sends the same request and outputs the same', () => {
	it.each([
		['Message → Send Text', MESSAGING_NODE, { resource: 'message', operation: 'sendText', to: CUSTOMER, text: 'Hi {first_name}', injectedFieldsInput: 'json', injectedFieldsJson: '{"first_name":"Ada"}' }],
		['Time → Fast-Forward', TIMELINE_NODE, { resource: 'time', operation: 'fastForward', durationAmount: 2, durationUnit: 'hours' }],
		['Timeline → Create', TIMELINE_NODE, { resource: 'timeline', operation: 'create', name: 'Main line' }],
	])('%s', async (_label, editionNode, parameters) => {
		await sandbox.client.inbound(CUSTOMER, 'hello');
		await sandbox.client.clearRequests();

		const combined = await run(NODE_TYPE, parameters);
		const viaCombined = await received();
		await sandbox.client.clearRequests();
		const edition = await run(editionNode, parameters);
		const viaEdition = await received();

		expect([combined.error, edition.error]).toEqual([undefined, undefined]);
		expect(viaEdition).toHaveLength(1);
		expect(viaEdition).toEqual(viaCombined);
		const stable = (output: object[]) => output.map((json) => Object.keys(json).sort());
		expect(stable(edition.output)).toEqual(stable(combined.output));
	});
});

describe('an edition refuses the other service’s operations by name, and sends nothing', () => {
	it.each([
		[MESSAGING_NODE, { resource: 'time', operation: 'travel', destinationTime: '2030-01-01T00:00:00Z', location: 'Rome' }, 'This node does not offer the resource "time"', 'It offers Message.'],
		[TIMELINE_NODE, { resource: 'message', operation: 'sendText', to: CUSTOMER, text: 'Hi' }, 'This node does not offer the resource "message"', 'It offers Anchor, Event, Item, Time, Timeline.'],
	])('%s', async (type, parameters, message, offered) => {
		const result = await run(type, parameters);

		expect(result.error?.message).toBe(message);
		expect(result.error?.description).toMatch(new RegExp(`^${offered.replace(/\./g, '\\.')} Choose the Resource`));
		expect(await received()).toEqual([]);
	});
});

it('the Timeline Navigation edition lists timelines in its picker', async () => {
	const created = await run(TIMELINE_NODE, { resource: 'timeline', operation: 'create', name: 'Picked line' });
	const found = await runListSearch({
		nodeType: TIMELINE_NODE,
		method: 'searchTimelines',
		filter: 'picked',
		nodeCredentials: nodeCredentialsFor('timeline'),
		credentials: t.credentials,
	});

	expect(found.results).toEqual([{ name: 'Picked line', value: created.output[0].timeline_id }]);
	expect(byId(String(created.output[0].timeline_id)).value).toBe(created.output[0].timeline_id);
});

it("the Chat-App Messaging edition's trigger starts the workflow for an inbound message, once per event", async () => {
	const hosted = await hostTrigger({ type: MESSAGING_TRIGGER, workflowId: 'edition-trigger' });
	const first = await hosted.post(JSON.stringify(inbound), { contentType: 'application/json' });
	const repeat = await hosted.post(JSON.stringify(inbound), { contentType: 'application/json' });
	await hosted.close();

	expect([first.status, repeat.status]).toEqual([200, 200]);
	expect(hosted.starts).toHaveLength(1);
	expect(hosted.starts[0].json[0]).toMatchObject({ ...inbound, window_open_until: expect.any(String) });
});
