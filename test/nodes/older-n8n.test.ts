// On an n8n older than the package's floor (its n8n-workflow has no NodeConnectionTypes, as
// n8n-workflow 1.80 in n8n 1.82.3), every node class of the three packages still constructs, so
// n8n loads it instead of logging "Class could not be found"; the node shows the notice first
// and refuses to run, saying which n8n it needs. The old n8n-workflow is simulated here (the one
// thing this suite cannot install); the compatibility matrix shows the same in a real n8n 1.82.3
// (test/compat/, and test/e2e/below-floor.e2e.test.ts).
import type { IHookFunctions, INodeType } from 'n8n-workflow';
import { TimelineNavigation } from '../../nodes/TimelineNavigation/TimelineNavigation.node';

const NODE_CLASSES: Array<[string, string]> = [
	['TimelineNavigation/TimelineNavigation.node', 'TimelineNavigation'],
	['TimelineNavigationService/TimelineNavigationService.node', 'TimelineNavigationService'],
	['ChatAppMessaging/ChatAppMessaging.node', 'ChatAppMessaging'],
	['ChatAppMessagingTrigger/ChatAppMessagingTrigger.node', 'ChatAppMessagingTrigger'],
	['ChatAppTrigger/ChatAppTrigger.node', 'ChatAppTrigger'],
	['TimelineNavigationEventsTrigger/TimelineNavigationEventsTrigger.node', 'TimelineNavigationEventsTrigger'],
	['TimelineEventsTrigger/TimelineEventsTrigger.node', 'TimelineEventsTrigger'],
];

/** A node class loaded against an n8n-workflow without NodeConnectionTypes. */
function onOlderN8n(file: string, className: string): INodeType {
	let node: INodeType | undefined;
	jest.isolateModules(() => {
		jest.doMock('n8n-workflow', () => {
			const older = { ...jest.requireActual<object>('n8n-workflow') } as Record<string, unknown>;
			delete older.NodeConnectionTypes;
			return older;
		});
		const loaded = jest.requireActual<Record<string, new () => INodeType>>(`../../nodes/${file}`);
		node = new loaded[className]();
	});
	jest.dontMock('n8n-workflow');
	return node!;
}

const context = { getNode: () => ({ name: 'Node on n8n 1.82', type: 'x', typeVersion: 1, position: [0, 0], parameters: {} }) };

describe.each(NODE_CLASSES)('%s on an n8n older than 1.85', (file, className) => {
	const node = onOlderN8n(file, className);

	it('constructs, with its main connection and the notice as its first field', () => {
		expect(node.description.outputs).toEqual(['main']);
		expect(node.description.properties[0]).toEqual(
			expect.objectContaining({
				type: 'notice',
				displayName: 'This node needs n8n 1.85 or newer. This n8n is older, so the node does not run here: update n8n to use it.',
			}),
		);
	});

	it('refuses to run, saying which n8n it needs and what did not happen', async () => {
		const refusal = node.execute
			? node.execute.call(context as never)
			: node.poll
				? node.poll.call(context as never)
				: node.webhookMethods!.default!.create.call(context as unknown as IHookFunctions);
		await expect(refusal).rejects.toThrow('This node needs n8n 1.85 or newer');
		await expect(refusal).rejects.toEqual(
			expect.objectContaining({
				description: expect.stringMatching(/^This n8n is older than 1\.85 and lacks what the node is built on\. Update n8n\. (Nothing was sent|Nothing was started|The workflow does not start from it)\.$/),
			}),
		);
	});
});

it('on n8n 1.85 and newer the nodes show no such notice', () => {
	expect(new TimelineNavigation().description.properties.some((property) => property.name === 'olderN8nNotice')).toBe(false);
});
