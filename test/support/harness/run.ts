// Runs workflow JSON (the JSON n8n exports and imports) through n8n-core's WorkflowExecute,
// in-process, with credentials applied as n8n's server applies them.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// n8n-core writes an encryption key into the user folder: keep it out of the home folder.
// jest's global setup provides one for the run (and removes it); this covers other callers.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-harness-'));
// n8n-core logs every failed request; tests assert on errors themselves.
process.env.N8N_LOG_LEVEL ??= 'silent';

import { WorkflowExecute } from 'n8n-core';
import {
	Workflow,
	type ExecutionError,
	type IConnections,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type IPinData,
	type IRun,
	type IWorkflowBase,
} from 'n8n-workflow';
import { HarnessCredentialsHelper, type StoredCredential } from '../../../tools/shared/credentials';
import { EDITIONS } from '../../../tools/packages/packages';
import { loadSourcePackage, type LoadedPackage } from './sourcePackage';
import { registerFixtureNodes, INPUT_NODE_TYPE } from './fixtures';
import { buildAdditionalDataForTests } from '../../../tools/shared/additionalData';

export interface WorkflowJson {
	name?: string;
	nodes: INode[];
	connections: IConnections;
	pinData?: IPinData;
	staticData?: IDataObject;
	settings?: IDataObject;
}

export interface NodeRun {
	items: INodeExecutionData[];
	/** Every output branch (the trigger and the action node have one). */
	outputs: INodeExecutionData[][];
	error?: ExecutionError;
}

export interface RunResult {
	run: IRun;
	error?: ExecutionError;
	nodes: Record<string, NodeRun>;
	/** The json of the items a node output. */
	json(nodeName: string): IDataObject[];
	staticData: IDataObject;
}

let loaded: Promise<LoadedPackage> | undefined;

/** The packages' source classes (see sourcePackage.ts), loaded once per test file. */
export function getPackage(): Promise<LoadedPackage> {
	loaded ??= loadSourcePackage(undefined, EDITIONS).then((pkg) => {
		registerFixtureNodes(pkg.nodeTypes);
		return pkg;
	});
	return loaded;
}

let executionCounter = 0;

export async function createCredentialsHelper(credentials: StoredCredential[] = []) {
	const pkg = await getPackage();
	const helper = new HarnessCredentialsHelper(pkg.credentialTypes);
	credentials.forEach((credential) => helper.add(credential));
	return helper;
}

/** Runs a whole workflow from its first node without inputs (or `startNode`). */
export async function runWorkflow(
	workflowJson: WorkflowJson,
	options: { credentials?: StoredCredential[]; startNode?: string } = {},
): Promise<RunResult> {
	const pkg = await getPackage();
	const credentialsHelper = await createCredentialsHelper(options.credentials);
	const staticData = workflowJson.staticData ?? {};
	const workflow = new Workflow({
		id: 'harness-workflow',
		name: workflowJson.name ?? 'Harness workflow',
		nodes: workflowJson.nodes,
		connections: workflowJson.connections,
		active: false,
		nodeTypes: pkg.nodeTypes,
		staticData,
		settings: workflowJson.settings,
		pinData: workflowJson.pinData,
	});
	const workflowData = {
		id: workflow.id,
		name: workflow.name,
		nodes: workflowJson.nodes,
		connections: workflowJson.connections,
		active: false,
		settings: workflowJson.settings ?? {},
	} as unknown as IWorkflowBase;
	const executionId = `harness-${++executionCounter}`;
	const additionalData = buildAdditionalDataForTests(credentialsHelper, workflowData, executionId);
	const startNode =
		(options.startNode ? workflow.getNode(options.startNode) : undefined) ??
		workflowJson.nodes.find((node) => workflow.getParentNodes(node.name).length === 0);
	if (!startNode) throw new Error('The workflow has no start node');

	const run = await new WorkflowExecute(additionalData, 'manual').run({
		workflow,
		startNode,
		pinData: workflowJson.pinData,
	});
	return toResult(run, staticData);
}

function toResult(run: IRun, staticData: IDataObject): RunResult {
	const nodes: Record<string, NodeRun> = {};
	for (const [name, tasks] of Object.entries(run.data.resultData.runData)) {
		const task = tasks[tasks.length - 1];
		const outputs = (task.data?.main ?? []).map((branch) => branch ?? []);
		nodes[name] = { items: outputs[0] ?? [], outputs, error: task.error };
	}
	return {
		run,
		error: run.data.resultData.error,
		nodes,
		json: (nodeName) => {
			const node = nodes[nodeName];
			if (!node) throw new Error(`Node "${nodeName}" did not run (ran: ${Object.keys(nodes).join(', ')})`);
			return node.items.map((item) => item.json);
		},
		staticData,
	};
}

export interface NodeUnderTest {
	type: string;
	parameters: INode['parameters'];
	credentials?: INode['credentials'];
	typeVersion?: number;
	name?: string;
	continueOnFail?: boolean;
	/** "On Error → Continue (using error output)": failed items go to a second output. */
	errorOutput?: boolean;
}

/**
 * Runs one node on the given input items, the way n8n runs it when a previous node
 * (here the harness's input node) produced those items.
 */
export async function runNode(
	node: NodeUnderTest,
	items: IDataObject[] = [{}],
	options: { credentials?: StoredCredential[]; settings?: IDataObject } = {},
): Promise<RunResult & { node: NodeRun; output: IDataObject[] }> {
	const name = node.name ?? 'Node Under Test';
	const workflowJson: WorkflowJson = {
		nodes: [
			{
				id: 'input',
				name: 'Input',
				type: INPUT_NODE_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: { items: JSON.stringify(items) },
			},
			{
				id: 'under-test',
				name,
				type: node.type,
				typeVersion: node.typeVersion ?? 1,
				position: [200, 0],
				parameters: node.parameters,
				credentials: node.credentials,
				...(node.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
				...(node.errorOutput ? { onError: 'continueErrorOutput' as const } : {}),
			},
		],
		connections: { Input: { main: [[{ node: name, type: 'main', index: 0 }]] } },
		settings: options.settings,
	};
	const result = await runWorkflow(workflowJson, { credentials: options.credentials, startNode: 'Input' });
	const ran = result.nodes[name] ?? { items: [], outputs: [], error: result.error };
	return { ...result, node: ran, output: ran.items.map((item) => item.json) };
}
