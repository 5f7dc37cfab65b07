// Runs a polling trigger's `poll()` the way n8n's leader main process does for a published
// workflow, reduced to what a node can observe, on either of n8n 2.41's schedulers:
//
// classic (the default through 2.44, and 1.x: active-workflow-manager.ts, n8n-core's
// active-workflow-triggers.ts `activatePollTrigger` and poll-trigger-executor.ts):
// - publication builds a Workflow from the saved static data and runs one poll at once (a failure
//   fails the publication); items it returns start the workflow; then n8n saves the workflow's
//   static data if it changed; a restart ('init') does the same;
// - each scheduled poll runs on that same Workflow object; items it returns start the workflow and
//   n8n saves the static data then (`__emit`); a poll that returns null saves nothing;
//
// durable (N8N_SCHEDULER_ENABLED, N8N_SCHEDULER_POLL_TRIGGERS_ENABLED,
// N8N_POLLER_DURABLE_CURSORS_ENABLED and N8N_USE_WORKFLOW_PUBLICATION_SERVICE; by n8n's docs the
// default from 2.45; read in 2.41.1's trigger-execution-context.factory.js, poll-cursor.service.js,
// poll-trigger-task-handler.js and n8n-core's poll-trigger-executor.js):
// - the node's static data is a `poller_state` row (the cursor), created on first use from the
//   workflow's node static data; a poll works on a copy and n8n commits the copy if it changed:
//   with the run a poll starts, or alone after a scheduled poll that returned null;
// - publication inserts the scheduler's jobs and runs one poll at once, whose cursor is committed
//   only if it starts the workflow; then n8n saves the workflow's static data (global included);
// - a restart runs no poll (the jobs are in the database); every scheduled poll builds its Workflow
//   afresh from the saved workflow, and n8n gives it a time (getPollBudgetMs, about 36 s);
//
// on both, a poll that throws starts nothing and is recorded as an error execution; a restart
// drops what was never saved; Fetch Test Event runs the poll in mode 'manual', saving nothing.
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

/** n8n 2.41.1's poll budget under the durable scheduler: N8N_SCHEDULER_POLL_TIMEOUT (45 s) less its margin. */
export const DURABLE_POLL_BUDGET_MS = 36_000;

export interface HostPollerOptions {
	/** Full node type, such as `n8n-nodes-timeline-navigation.timelineNavigationEventsTrigger`. */
	type: string;
	name?: string;
	parameters?: INodeParameters;
	nodeCredentials?: INodeCredentials;
	/** Static data as saved in the database before the first publication. */
	staticData?: IDataObject;
	/** Which of n8n's schedulers runs the polls (default classic). */
	scheduler?: 'classic' | 'durable';
	/** The durable scheduler's time for a scheduled poll (default DURABLE_POLL_BUDGET_MS). */
	pollBudgetMs?: number;
}

export interface PollOutcome {
	/** The json of the items the poll returned, or null. */
	started: IDataObject[] | null;
	/** What the poll threw: the publication fails, or n8n records an error execution. */
	error?: Error & { description?: string | null };
}

export interface HostedPoller {
	node: INode;
	/** Publication (the user's, or 'init' after a restart), then n8n saves the static data. */
	activate(activation?: WorkflowActivateMode): Promise<PollOutcome>;
	/** One scheduled poll. */
	poll(): Promise<PollOutcome>;
	/** Fetch Test Event in the editor. */
	fetchTestEvent(): Promise<PollOutcome>;
	/** n8n stops: what was never saved is gone. Activate again ('init') to go on. */
	restart(): void;
	/** The workflow is unpublished: its polls stop (the durable scheduler's jobs are removed). */
	deactivate(): void;
	/** Renames the node (its static data lives under its name), and publishes again. */
	rename(name: string): void;
	/** Changes parameters, as a user saving the workflow does (n8n then publishes it again). */
	setParameters(parameters: INodeParameters): void;
	/** The static data as saved in the database. */
	savedStaticData(): IDataObject;
	/** The durable scheduler's cursor (the `poller_state` row) as committed, if there is one. */
	committedCursor(): IDataObject | undefined;
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

/** What one poll left behind: its outcome, and the cursor it staged (durable only) if it changed. */
interface Ran extends PollOutcome {
	staged?: IDataObject;
}

export function hostPollerIn({ nodeTypes, credentialsHelper }: PollerHost, options: HostPollerOptions): HostedPoller {
	const nodeType = nodeTypes.getByNameAndVersion(options.type);
	if (!nodeType.poll) throw new Error(`${options.type} has no poll()`);
	const durable = options.scheduler === 'durable';
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
	/** The durable scheduler's `poller_state` row: created on a poll's first use, kept across restarts. */
	let cursor: IDataObject | undefined;
	/** The durable scheduler's jobs exist (publication inserted them; unpublishing removes them). */
	let scheduled = false;
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
	const run = async (workflow: Workflow, mode: 'trigger' | 'manual', activation: WorkflowActivateMode, budgetMs?: number): Promise<Ran> => {
		const workflowData = { id: workflow.id, name: workflow.name, nodes: [node], connections: {}, active: true } as unknown as IWorkflowBase;
		const additionalData = buildAdditionalDataForTests(credentialsHelper, workflowData, `poll-${++executions}`);
		const staging = durable && mode !== 'manual';
		if (staging && cursor === undefined) cursor = copy((workflow.staticData[`node:${node.name}`] as IDataObject | undefined) ?? {});
		const snapshot = staging ? copy(cursor!) : undefined;
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
			const returned = await nodeType.poll!.call(context);
			const changed = snapshot && JSON.stringify(snapshot) !== JSON.stringify(cursor) ? copy(snapshot) : undefined;
			return { started: returned === null ? null : (returned[0] ?? []).map((item) => item.json), staged: changed };
		} catch (error) {
			return { started: null, error: error as Error };
		}
	};
	const outcomeOf = ({ started, error }: Ran): PollOutcome => (error ? { started, error } : { started });

	return {
		node,
		starts,
		errors,
		async activate(activation = 'activate') {
			const workflow = workflowOf();
			if (durable && scheduled) {
				// The jobs are in the database: a restart runs no poll.
				active = workflow;
				return { started: null };
			}
			const ran = await run(workflow, 'trigger', activation);
			if (ran.error) return outcomeOf(ran);
			if (ran.started) {
				starts.push(ran.started);
				if (ran.staged) cursor = ran.staged;
			}
			// Durable: a publication poll that started nothing commits nothing (`testingTrigger`).
			scheduled = durable;
			active = workflow;
			save(workflow);
			return outcomeOf(ran);
		},
		async poll() {
			if (!active) throw new Error('The workflow is not active: activate it first');
			// The durable scheduler builds each poll's Workflow from the saved workflow.
			const workflow = durable ? workflowOf() : active;
			const ran = await run(workflow, 'trigger', durable ? 'update' : 'activate', durable ? (options.pollBudgetMs ?? DURABLE_POLL_BUDGET_MS) : undefined);
			if (ran.error) errors.push(ran.error);
			else if (ran.started) {
				starts.push(ran.started);
				if (ran.staged) cursor = ran.staged;
				save(workflow);
			} else if (ran.staged) cursor = ran.staged;
			return outcomeOf(ran);
		},
		async fetchTestEvent() {
			return outcomeOf(await run(workflowOf(), 'manual', 'manual'));
		},
		restart() {
			active = undefined;
		},
		deactivate() {
			active = undefined;
			scheduled = false;
		},
		rename(name) {
			node.name = name;
			active = undefined;
			scheduled = false;
		},
		setParameters(parameters) {
			node.parameters = parameters;
			active = undefined;
			scheduled = false;
		},
		savedStaticData: () => copy(saved),
		committedCursor: () => (cursor === undefined ? undefined : copy(cursor)),
	};
}
