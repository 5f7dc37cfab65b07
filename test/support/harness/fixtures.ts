// Test-only node types the harness registers beside the package's own.
import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';
import type { HarnessNodeTypes } from '../../../tools/shared/nodeTypes';
import { SandboxProbe } from './SandboxProbe.node';

export const INPUT_NODE_TYPE = 'harness.input';
export const SANDBOX_PROBE_NODE_TYPE = 'harness.sandboxProbe';
/** n8n's Manual Trigger, which saved workflows start with (the harness has no n8n-nodes-base). */
export const MANUAL_TRIGGER_NODE_TYPE = 'n8n-nodes-base.manualTrigger';

/** Emits the items given as JSON in its `items` parameter: how a test feeds input items. */
class HarnessInput implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Harness Input',
		name: 'harnessInput',
		group: ['input'],
		version: 1,
		description: 'Emits test items',
		defaults: { name: 'Input' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[{}]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = JSON.parse(this.getNodeParameter('items', 0) as string) as object[];
		return [items.map((json, index) => ({ json: json as INodeExecutionData['json'], pairedItem: { item: index } }))];
	}
}

/** What n8n's Manual Trigger does when a run starts at it: one empty item. */
class ManualTriggerStandIn implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Manual Trigger (stand-in)',
		name: 'manualTrigger',
		group: ['trigger'],
		version: 1,
		description: "Stands in for n8n's Manual Trigger in saved-workflow fixtures",
		defaults: { name: 'Manual Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [[{ json: {} }]];
	}
}

export function registerFixtureNodes(nodeTypes: HarnessNodeTypes): void {
	nodeTypes.register(INPUT_NODE_TYPE, new HarnessInput());
	nodeTypes.register(SANDBOX_PROBE_NODE_TYPE, new SandboxProbe());
	nodeTypes.register(MANUAL_TRIGGER_NODE_TYPE, new ManualTriggerStandIn());
}
