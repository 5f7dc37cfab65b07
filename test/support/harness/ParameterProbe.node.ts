// A node used only by the cache tests: for every item it reads each of its parameters twice,
// through the action nodes' parameter cache (`ActionExecution.parameter`) and through n8n's own
// `getNodeParameter`, and outputs both, so a test can see they never differ.
import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';
import { ActionExecution } from '../../../nodes/shared/execution';

export const PROBED_PARAMETERS = ['fixed', 'expression', 'templateLike', 'count', 'flag', 'payload', 'options', 'pairs', 'locator'];

export class ParameterProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Parameter Probe',
		name: 'parameterProbe',
		group: ['transform'],
		version: 1,
		description: 'Reads its parameters through the cache and directly (tests only)',
		defaults: { name: 'Parameter Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Fixed', name: 'fixed', type: 'string', default: '' },
			{ displayName: 'Expression', name: 'expression', type: 'string', default: '' },
			{ displayName: 'Template Like', name: 'templateLike', type: 'string', default: '' },
			{ displayName: 'Count', name: 'count', type: 'number', default: 0 },
			{ displayName: 'Flag', name: 'flag', type: 'boolean', default: false },
			{ displayName: 'Payload', name: 'payload', type: 'json', default: '{}' },
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				default: {},
				options: [
					{ displayName: 'Label', name: 'label', type: 'string', default: '' },
					{ displayName: 'Deep', name: 'deep', type: 'string', default: '' },
				],
			},
			{
				displayName: 'Pairs',
				name: 'pairs',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				options: [
					{
						displayName: 'Pair',
						name: 'pair',
						values: [
							{ displayName: 'Name', name: 'name', type: 'string', default: '' },
							{ displayName: 'Value', name: 'value', type: 'string', default: '' },
						],
					},
				],
			},
			{
				displayName: 'Locator',
				name: 'locator',
				type: 'resourceLocator',
				default: { mode: 'id', value: '' },
				modes: [{ displayName: 'ID', name: 'id', type: 'string' }],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const execution = new ActionExecution(this);
		return [
			this.getInputData().flatMap((_item, itemIndex) =>
				PROBED_PARAMETERS.map((name) => ({
					json: {
						itemIndex,
						name,
						cached: execution.parameter(name, itemIndex) as never,
						direct: this.getNodeParameter(name, itemIndex) as never,
						cachedValueOnly: execution.parameter(name, itemIndex, undefined, { extractValue: true }) as never,
						directValueOnly: this.getNodeParameter(name, itemIndex, undefined, { extractValue: true }) as never,
					},
					pairedItem: { item: itemIndex },
				})),
			),
		];
	}
}
