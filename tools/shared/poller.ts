// Runs polling triggers' `poll()` the way n8n's leader main process does for a published workflow,
// reduced to what a node can observe, on either of n8n 2.41's schedulers, with any number of
// triggers in one workflow:
//
// classic (the default through 2.44, and 1.x: active-workflow-manager.ts, n8n-core's
// active-workflow-triggers.ts `activatePollTrigger` and poll-trigger-executor.ts):
// - publication builds a Workflow from the saved static data and runs each trigger's poll at once,
//   the triggers' polls side by side on that Workflow (measured on 2.41.1: two triggers' first
//   polls overlap); items a poll returns start the workflow; then n8n saves the workflow's static
//   data if it changed; a restart ('init') does the same;
// - each scheduled poll runs on that same Workflow object; items it returns start the workflow and
//   n8n saves the static data then (`__emit`); a poll that returns null saves nothing;
//
// durable (N8N_SCHEDULER_ENABLED, N8N_SCHEDULER_POLL_TRIGGERS_ENABLED,
// N8N_POLLER_DURABLE_CURSORS_ENABLED and N8N_USE_WORKFLOW_PUBLICATION_SERVICE; by n8n's docs the
// default from 2.45; read in 2.41.1's trigger-execution-context.factory.js, poll-cursor.service.js,
// poll-trigger-task-handler.js, workflow-trigger-activator.js and n8n-core's poll-trigger-executor.js):
// - each trigger's static data is a `poller_state` row (the cursor, by node ID), created on first
//   use from the node's static data; a poll works on a copy and n8n commits the copy if it changed:
//   with the run a poll starts, or alone after a scheduled poll that returned null;
// - publication inserts the scheduler's jobs and runs each trigger's poll at once, side by side
//   (`Promise.all` over the triggers), on one Workflow; a poll's cursor is committed only if it
//   starts the workflow; then n8n saves the workflow's static data (global included);
// - a restart runs no poll (the jobs are in the database); every scheduled poll builds its own
//   Workflow from the saved workflow, and n8n gives it a time (getPollBudgetMs, about 36 s); a poll
//   that starts the workflow saves that Workflow's static data, whole;
//
// on both, a poll that throws starts nothing and is recorded as an error execution; a restart
// drops what was never saved; Fetch Test Event runs the poll in mode 'manual', saving nothing.
// Everything a trigger starts, and every failed poll, is recorded.
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

/** n8n 2.41.1's poll budget under the durable scheduler: N8N_SCHEDULER_POLL_TIMEOUT (45 s) less its margin. */
export const DURABLE_POLL_BUDGET_MS = 36_000;

export interface TriggerSpec {
	/** Full node type, such as `n8n-nodes-timeline-navigation.timelineNavigationEventsTrigger`. */
	type: string;
	name?: string;
	/** The node's ID (n8n gives every node one; unique in the workflow). */
	id?: string;
	parameters?: INodeParameters;
	nodeCredentials?: INodeCredentials;
}

export interface HostWorkflowOptions {
	triggers: TriggerSpec[];
	/** Static data as saved in the database before the first publication. */
	staticData?: IDataObject;
	/** Which of n8n's schedulers runs the polls (default classic). */
	scheduler?: 'classic' | 'durable';
	/** The durable scheduler's time for a scheduled poll (default DURABLE_POLL_BUDGET_MS). */
	pollBudgetMs?: number;
}

export type HostPollerOptions = TriggerSpec & Omit<HostWorkflowOptions, 'triggers'>;

export interface PollOutcome {
	/** The json of the items the poll returned, or null. */
	started: IDataObject[] | null;
	/** What the poll threw: the publication fails, or n8n records an error execution. */
	error?: Error & { description?: string | null };
}

export interface HostedWorkflow {
	/** The triggers, by name (a rename moves one). */
	nodes: INode[];
	/** Publication (the user's, or 'init' after a restart): every trigger's poll, side by side; then n8n saves the static data. */
	activate(activation?: WorkflowActivateMode): Promise<Record<string, PollOutcome>>;
	/** One scheduled poll of each named trigger (default all), at the same moment. */
	poll(...names: string[]): Promise<Record<string, PollOutcome>>;
	/** Fetch Test Event of one trigger in the editor. */
	fetchTestEvent(name: string): Promise<PollOutcome>;
	/** n8n stops: what was never saved is gone. Activate again ('init') to go on. */
	restart(): void;
	/** The workflow is unpublished: its polls stop (the durable scheduler's jobs are removed). */
	deactivate(): void;
	/** Renames a trigger (on the classic scheduler its static data lives under its name), as a user does before publishing again. */
	rename(name: string, to: string): void;
	/** Deletes a trigger from the workflow, as a user does before publishing again. */
	remove(name: string): void;
	/** Changes a trigger's parameters, as a user does before publishing again. */
	setParameters(name: string, parameters: INodeParameters): void;
	/** The static data as saved in the database. */
	savedStaticData(): IDataObject;
	/** The durable scheduler's cursor (the `poller_state` row) of a trigger as committed, if there is one. */
	committedCursor(name: string): IDataObject | undefined;
	/** Every item each execution a trigger started got, in order, by the trigger's current name. */
	starts: Record<string, IDataObject[][]>;
	/** The error executions n8n recorded for failed scheduled polls, by trigger. */
	errors: Record<string, Error[]>;
}

/** One trigger of a hosted workflow, as the single-trigger tests and the bench use it. */
export interface HostedPoller {
	node: INode;
	activate(activation?: WorkflowActivateMode): Promise<PollOutcome>;
	poll(): Promise<PollOutcome>;
	fetchTestEvent(): Promise<PollOutcome>;
	restart(): void;
	deactivate(): void;
	/** Renames the node (its static data lives under its name on the classic scheduler). */
	rename(name: string): void;
	setParameters(parameters: INodeParameters): void;
	savedStaticData(): IDataObject;
	committedCursor(): IDataObject | undefined;
	starts: IDataObject[][];
	errors: Error[];
}

const copy = (data: IDataObject): IDataObject => JSON.parse(JSON.stringify(data)) as IDataObject;

/** Where the poller runs: the node types n8n resolves and the credentials it decrypts. */
export interface PollerHost {
	nodeTypes: INodeTypes;
	credentialsHelper: HarnessCredentialsHelper;
}

/** What one poll left behind: its outcome, and the cursor it staged (durable only) if it changed. */
interface Ran extends PollOutcome {
	staged?: IDataObject;
}

/** Each hosted workflow its own id, so that what n8n keeps per workflow (and the trigger per process) is its own. */
let hostedWorkflows = 0;

export function hostWorkflowIn({ nodeTypes, credentialsHelper }: PollerHost, options: HostWorkflowOptions): HostedWorkflow {
	const durable = options.scheduler === 'durable';
	const workflowId = `polled-workflow-${++hostedWorkflows}`;
	const nodes: INode[] = options.triggers.map((trigger, index) => {
		const nodeType = nodeTypes.getByNameAndVersion(trigger.type);
		if (!nodeType.poll) throw new Error(`${trigger.type} has no poll()`);
		return {
			id: trigger.id ?? `trigger-${index + 1}`,
			name: trigger.name ?? (index === 0 ? 'Timeline Navigation Events Trigger' : `Timeline Navigation Events Trigger ${index + 1}`),
			type: trigger.type,
			typeVersion: Math.max(...[nodeType.description.version].flat()),
			position: [0, index * 200],
			parameters: trigger.parameters ?? {},
			credentials: trigger.nodeCredentials,
		};
	});
	const named = (name: string): INode => {
		const node = nodes.find((candidate) => candidate.name === name);
		if (!node) throw new Error(`The workflow has no trigger "${name}" (it has ${nodes.map((n) => `"${n.name}"`).join(', ')})`);
		return node;
	};
	let saved = copy(options.staticData ?? {});
	/** The durable scheduler's `poller_state` rows by node ID: created on a poll's first use, kept across restarts and renames. */
	const cursors = new Map<string, IDataObject>();
	/** The durable scheduler's jobs exist (publication inserted them; unpublishing removes them). */
	let scheduled = false;
	let active: Workflow | undefined;
	const starts: Record<string, IDataObject[][]> = Object.fromEntries(nodes.map((node) => [node.name, []]));
	const errors: Record<string, Error[]> = Object.fromEntries(nodes.map((node) => [node.name, []]));
	let executions = 0;

	const workflowOf = () =>
		new Workflow({ id: workflowId, name: 'Polled', nodes: nodes.map((node) => ({ ...node })), connections: {}, active: true, nodeTypes, staticData: copy(saved) });
	const save = (workflow: Workflow) => {
		const data = workflow.staticData as IDataObject & { __dataChanged?: boolean };
		if (data.__dataChanged) saved = copy(data);
		data.__dataChanged = false;
	};
	const run = async (workflow: Workflow, node: INode, mode: 'trigger' | 'manual', activation: WorkflowActivateMode, budgetMs?: number): Promise<Ran> => {
		const workflowData = { id: workflow.id, name: workflow.name, nodes, connections: {}, active: true } as unknown as IWorkflowBase;
		const additionalData = buildAdditionalDataForTests(credentialsHelper, workflowData, `poll-${++executions}`);
		const staging = durable && mode !== 'manual';
		if (staging && !cursors.has(node.id)) cursors.set(node.id, copy((workflow.staticData[`node:${node.name}`] as IDataObject | undefined) ?? {}));
		const snapshot = staging ? copy(cursors.get(node.id)!) : undefined;
		const context = new PollContext(
			workflow,
			workflow.getNode(node.name) as INode,
			additionalData,
			mode,
			activation,
			undefined,
			undefined,
			undefined,
			undefined,
			snapshot ? () => snapshot : undefined,
			budgetMs === undefined ? undefined : () => budgetMs,
		);
		try {
			const returned = await nodeTypes.getByNameAndVersion(node.type).poll!.call(context);
			const changed = snapshot && JSON.stringify(snapshot) !== JSON.stringify(cursors.get(node.id)) ? copy(snapshot) : undefined;
			return { started: returned === null ? null : (returned[0] ?? []).map((item) => item.json), staged: changed };
		} catch (error) {
			return { started: null, error: error as Error };
		}
	};
	const outcomeOf = ({ started, error }: Ran): PollOutcome => (error ? { started, error } : { started });
	const byName = async (list: INode[], poll: (node: INode) => Promise<PollOutcome>) =>
		Object.fromEntries(await Promise.all(list.map(async (node) => [node.name, await poll(node)] as const)));

	return {
		nodes,
		starts,
		errors,
		async activate(activation = 'activate') {
			const workflow = workflowOf();
			if (durable && scheduled) {
				// The jobs are in the database: a restart runs no poll.
				active = workflow;
				return Object.fromEntries(nodes.map((node) => [node.name, { started: null }]));
			}
			const outcomes = await byName(nodes, async (node) => {
				const ran = await run(workflow, node, 'trigger', activation);
				if (ran.started) {
					starts[node.name].push(ran.started);
					if (ran.staged) cursors.set(node.id, ran.staged);
				}
				// Durable: a publication poll that started nothing commits nothing (`testingTrigger`).
				return outcomeOf(ran);
			});
			if (Object.values(outcomes).some((outcome) => outcome.error)) return outcomes;
			scheduled = durable;
			active = workflow;
			save(workflow);
			return outcomes;
		},
		async poll(...names) {
			if (!active) throw new Error('The workflow is not active: activate it first');
			const shared = active;
			return await byName(names.length > 0 ? names.map(named) : nodes, async (node) => {
				// The durable scheduler builds each poll's Workflow from the saved workflow.
				const workflow = durable ? workflowOf() : shared;
				const ran = await run(workflow, node, 'trigger', durable ? 'update' : 'activate', durable ? (options.pollBudgetMs ?? DURABLE_POLL_BUDGET_MS) : undefined);
				if (ran.error) errors[node.name].push(ran.error);
				else if (ran.started) {
					starts[node.name].push(ran.started);
					if (ran.staged) cursors.set(node.id, ran.staged);
					save(workflow);
				} else if (ran.staged) cursors.set(node.id, ran.staged);
				return outcomeOf(ran);
			});
		},
		async fetchTestEvent(name) {
			return outcomeOf(await run(workflowOf(), named(name), 'manual', 'manual'));
		},
		restart() {
			active = undefined;
		},
		deactivate() {
			active = undefined;
			scheduled = false;
		},
		rename(name, to) {
			named(name).name = to;
			starts[to] = starts[name];
			errors[to] = errors[name];
			delete starts[name];
			delete errors[name];
			active = undefined;
			scheduled = false;
		},
		remove(name) {
			const node = named(name);
			nodes.splice(nodes.indexOf(node), 1);
			cursors.delete(node.id);
			active = undefined;
			scheduled = false;
		},
		setParameters(name, parameters) {
			named(name).parameters = parameters;
			active = undefined;
			scheduled = false;
		},
		savedStaticData: () => copy(saved),
		committedCursor: (name) => {
			const cursor = cursors.get(named(name).id);
			return cursor === undefined ? undefined : copy(cursor);
		},
	};
}

/** A workflow of one polling trigger. */
export function hostPollerIn(host: PollerHost, options: HostPollerOptions): HostedPoller {
	const { staticData, scheduler, pollBudgetMs, ...trigger } = options;
	const workflow = hostWorkflowIn(host, { triggers: [trigger], staticData, scheduler, pollBudgetMs });
	const node = workflow.nodes[0];
	return {
		node,
		get starts() {
			return workflow.starts[node.name];
		},
		get errors() {
			return workflow.errors[node.name];
		},
		activate: async (activation) => (await workflow.activate(activation))[node.name],
		poll: async () => (await workflow.poll(node.name))[node.name],
		fetchTestEvent: async () => await workflow.fetchTestEvent(node.name),
		restart: () => workflow.restart(),
		deactivate: () => workflow.deactivate(),
		rename: (name) => workflow.rename(node.name, name),
		setParameters: (parameters) => workflow.setParameters(node.name, parameters),
		savedStaticData: () => workflow.savedStaticData(),
		committedCursor: () => workflow.committedCursor(node.name),
	};
}
