// Runs a polling trigger's `poll()` the way n8n's leader main process does for an active workflow
// (n8n 2.41: active-workflow-manager.ts `add`, n8n-core active-workflow-triggers.ts
// `activatePollTrigger` and poll-trigger-executor.ts), reduced to what a node can observe:
// - activation builds a Workflow from the saved static data and runs one poll at once (a failure
//   fails the activation); items it returns start the workflow; then n8n saves the workflow's
//   static data if it changed;
// - each scheduled poll runs on that same Workflow object, in n8n-core's PollContext (mode
//   'trigger'); items it returns start the workflow and n8n saves the static data then (`__emit`);
//   a poll that returns null saves nothing; a poll that throws starts nothing and is recorded as
//   an error execution (`__emitError`);
// - a restart drops the Workflow object: changes never saved are lost, and the next activation
//   ('init') starts again from what was saved;
// - Fetch Test Event runs the poll in mode 'manual', whose static data n8n never saves.
// Everything the trigger starts, and every failed poll, is recorded.
// Shared by the test harness (test/support/harness/poll.ts, the package's source classes) and the
// bench (tools/bench/poll-process.ts, the built package as n8n loads it).
import { PollContext } from 'n8n-core';
import {
	Workflow,
	type IDataObject,
	type INode,
	type INodeCredentials,
	type INodeParameters,
	type INodeTypes,
	type IWorkflowBase,
	type WorkflowActivateMode,
} from 'n8n-workflow';
import { buildAdditionalDataForTests } from './additionalData';
import type { HarnessCredentialsHelper } from './credentials';

export interface HostPollerOptions {
	/** Full node type, such as `n8n-nodes-timeline-navigation.timelineNavigationEventsTrigger`. */
	type: string;
	name?: string;
	parameters?: INodeParameters;
	nodeCredentials?: INodeCredentials;
	/** Static data as saved in the database before the first activation. */
	staticData?: IDataObject;
}

export interface PollOutcome {
	/** The json of the items the poll returned, or null. */
	started: IDataObject[] | null;
	/** What the poll threw: the activation fails, or n8n records an error execution. */
	error?: Error & { description?: string | null };
}

export interface HostedPoller {
	node: INode;
	/** Activation (the user's, or 'init' after a restart): one poll, then n8n saves the static data. */
	activate(activation?: WorkflowActivateMode): Promise<PollOutcome>;
	/** One scheduled poll. */
	poll(): Promise<PollOutcome>;
	/** Fetch Test Event in the editor. */
	fetchTestEvent(): Promise<PollOutcome>;
	/** n8n stops: what was never saved is gone. Activate again to go on. */
	restart(): void;
	/** Renames the node (its static data lives under its name). */
	rename(name: string): void;
	/** Changes parameters, as a user saving the workflow does (n8n then activates it again). */
	setParameters(parameters: INodeParameters): void;
	/** The static data as saved in the database. */
	savedStaticData(): IDataObject;
	/** Every item each started execution got, in order. */
	starts: IDataObject[][];
	/** The error executions n8n recorded for failed scheduled polls. */
	errors: Error[];
}

const copy = (data: IDataObject): IDataObject => JSON.parse(JSON.stringify(data)) as IDataObject;

/** Where the poller runs: the node types n8n resolves and the credentials it decrypts. */
export interface PollerHost {
	nodeTypes: INodeTypes;
	credentialsHelper: HarnessCredentialsHelper;
}

export function hostPollerIn({ nodeTypes, credentialsHelper }: PollerHost, options: HostPollerOptions): HostedPoller {
	const nodeType = nodeTypes.getByNameAndVersion(options.type);
	if (!nodeType.poll) throw new Error(`${options.type} has no poll()`);
	const node: INode = {
		id: 'poller',
		name: options.name ?? 'Timeline Navigation Events Trigger',
		type: options.type,
		typeVersion: Math.max(...[nodeType.description.version].flat()),
		position: [0, 0],
		parameters: options.parameters ?? {},
		credentials: options.nodeCredentials,
	};
	let saved = copy(options.staticData ?? {});
	let active: Workflow | undefined;
	const starts: IDataObject[][] = [];
	const errors: Error[] = [];
	let executions = 0;

	const workflowOf = () =>
		new Workflow({ id: 'polled-workflow', name: 'Polled', nodes: [node], connections: {}, active: true, nodeTypes, staticData: copy(saved) });
	const save = (workflow: Workflow) => {
		const data = workflow.staticData as IDataObject & { __dataChanged?: boolean };
		if (data.__dataChanged) saved = copy(data);
		data.__dataChanged = false;
	};
	const run = async (workflow: Workflow, mode: 'trigger' | 'manual', activation: WorkflowActivateMode): Promise<PollOutcome> => {
		const workflowData = { id: workflow.id, name: workflow.name, nodes: [node], connections: {}, active: true } as unknown as IWorkflowBase;
		const additionalData = buildAdditionalDataForTests(credentialsHelper, workflowData, `poll-${++executions}`);
		const context = new PollContext(workflow, workflow.getNode(node.name) as INode, additionalData, mode, activation);
		try {
			const returned = await nodeType.poll!.call(context);
			return { started: returned === null ? null : (returned[0] ?? []).map((item) => item.json) };
		} catch (error) {
			return { started: null, error: error as Error };
		}
	};

	return {
		node,
		starts,
		errors,
		async activate(activation = 'activate') {
			const workflow = workflowOf();
			const outcome = await run(workflow, 'trigger', activation);
			if (outcome.error) return outcome;
			if (outcome.started) starts.push(outcome.started);
			active = workflow;
			save(workflow);
			return outcome;
		},
		async poll() {
			if (!active) throw new Error('The workflow is not active: activate it first');
			const outcome = await run(active, 'trigger', 'activate');
			if (outcome.error) errors.push(outcome.error);
			else if (outcome.started) {
				starts.push(outcome.started);
				save(active);
			}
			return outcome;
		},
		async fetchTestEvent() {
			return await run(workflowOf(), 'manual', 'manual');
		},
		restart() {
			active = undefined;
		},
		rename(name) {
			node.name = name;
			active = undefined;
		},
		setParameters(parameters) {
			node.parameters = parameters;
			active = undefined;
		},
		savedStaticData: () => copy(saved),
	};
}
