// Test-only node types the harness registers beside the package's own.
import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';
import type { HarnessNodeTypes } from './sourcePackage';
import { SandboxProbe } from './SandboxProbe.node';

export const INPUT_NODE_TYPE = 'harness.input';
export const SANDBOX_PROBE_NODE_TYPE = 'harness.sandboxProbe';

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

export function registerFixtureNodes(nodeTypes: HarnessNodeTypes): void {
	nodeTypes.register(INPUT_NODE_TYPE, new HarnessInput());
	nodeTypes.register(SANDBOX_PROBE_NODE_TYPE, new SandboxProbe());
}
