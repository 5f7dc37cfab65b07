// What the editor shows of the action node, operation by operation, is exactly the approved
// description (description/approved.json beside this file): every field, option, default and
// display rule; a field several operations show the same way is written there once. The node
// assembles its description from the operation registry, so this catches a field lost,
// duplicated or changed by a refactor. After a deliberate change, run
// `npx tsx test/nodes/TimelineNavigation/description/approve.ts` and review the diff of approved.json.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeHelpers, Workflow, type INode } from 'n8n-workflow';
import { ChatAppMessagingTrigger } from '../../../nodes/ChatAppMessagingTrigger/ChatAppMessagingTrigger.node';
import { TimelineNavigation } from '../../../nodes/TimelineNavigation/TimelineNavigation.node';
import { OPERATIONS } from '../../../nodes/shared/registry';
import {
	descriptionViews,
	expandOperations,
	repeatedFields,
	type ApprovedDescription,
	type DescriptionViews,
} from './description/views';
import { getPackage } from '../../support/harness';

const approved: ApprovedDescription = JSON.parse(readFileSync(join(__dirname, 'description', 'approved.json'), 'utf8'));
const approvedOperations = expandOperations(approved);

/** The views of the node class's description, as n8n reads it from the class. */
async function currentViews(): Promise<DescriptionViews> {
	return descriptionViews(new TimelineNavigation().description);
}

describe('the action node as the editor shows it', () => {
	it('offers the approved resources and operations, no more and no fewer', async () => {
		expect(Object.keys((await currentViews()).operations).sort()).toEqual(Object.keys(approved.operations).sort());
	});

	it('stays light for the editor: its description is at most 90,000 characters of JSON (n8n sends it to every editor and AI tool)', () => {
		expect(JSON.stringify(new TimelineNavigation().description).length).toBeLessThanOrEqual(90_000);
	});

	it('has the approved node settings (names, icon, subtitle, credentials per resource, operation choices)', async () => {
		expect((await currentViews()).node).toEqual(approved.node);
	});

	it.each(Object.keys(approved.operations))('%s shows the approved fields, in order', async (key) => {
		expect((await currentViews()).operations[key]).toEqual(approvedOperations[key]);
	});

	it('is approved with every field written once: each shared field used, none written out again', () => {
		expect(repeatedFields(approved)).toEqual([]);
	});
});

/** A node's subtitle as the editor evaluates it for these parameters. */
async function subtitleOf(type: string, subtitle: string, parameters: INode['parameters']): Promise<unknown> {
	const pkg = await getPackage();
	const node: INode = { id: 'subtitle', name: 'Node', type, typeVersion: 1, position: [0, 0], parameters };
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: pkg.nodeTypes });
	return await workflow.expression.getSimpleParameterValue(node, subtitle, 'internal', {});
}

describe('the canvas subtitle', () => {
	it.each(OPERATIONS.map((op) => [op.key, op] as const))('for %s reads as the panel names it', async (_key, op) => {
		const subtitle = new TimelineNavigation().description.subtitle!;
		const parameters = { resource: op.resource.value, operation: op.operation.value };
		expect(await subtitleOf('n8n-nodes-timeline-navigation.timelineNavigation', subtitle, parameters)).toBe(
			`${op.resource.name}: ${op.operation.name}`,
		);
	});

	it.each([
		[['message.inbound'], 'On Inbound Message'],
		[['message.status'], 'On Message Status'],
		[['message.inbound', 'message.status'], 'On Inbound Message and Message Status'],
	])("for the trigger on %j reads '%s'", async (events, expected) => {
		const subtitle = new ChatAppMessagingTrigger().description.subtitle!;
		expect(await subtitleOf('n8n-nodes-timeline-navigation.chatAppMessagingTrigger', subtitle, { events })).toBe(expected);
	});
});

describe('fields whose own display condition is set by an expression', () => {
	// n8n shows a field as soon as one of its conditions reads an expression, so a switch such as
	// Fallback to Template set to `{{ true }}` must not reveal (and demand) the fields of other
	// operations: n8n would refuse to run the node for "issues" in fields the user cannot see.
	const description = new TimelineNavigation().description;
	const conditionKeys = [
		...new Set(
			description.properties.flatMap((property) =>
				Object.keys(property.displayOptions?.show ?? {}).filter((key) => !['resource', 'operation', '@version'].includes(key)),
			),
		),
	];

	it.each(OPERATIONS.map((op) => [op.key, op] as const))('%s: only its own fields can have issues', (_key, op) => {
		const parameters = {
			resource: op.resource.value,
			operation: op.operation.value,
			...Object.fromEntries(conditionKeys.map((key) => [key, '={{ $json.anything }}'])),
		};
		const node: INode = { id: 'n', name: 'Node', type: 'x', typeVersion: 1, position: [0, 0], parameters };
		const issues = NodeHelpers.getNodeParametersIssues(description.properties, node, description)?.parameters ?? {};
		const ownFields = description.properties
			.filter((property) => (property.displayOptions?.show?.operation as string[] | undefined)?.includes(op.operation.value))
			.filter((property) => (property.displayOptions?.show?.resource as string[] | undefined)?.includes(op.resource.value))
			.map((property) => property.name);
		expect(Object.keys(issues).filter((name) => !ownFields.includes(name))).toEqual([]);
	});
});
