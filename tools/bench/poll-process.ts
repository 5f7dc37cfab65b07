/**
 * The "polling" part's n8n, in a process of its own: n8n-core's PollContext and execution engine
 * (the project's n8n-core, the release of the bench's n8n) on the Node the bench's n8n runs on.
 * It loads the built combined package as n8n loads a community package (n8n-core's
 * PackageDirectoryLoader), hosts the Timeline Navigation Events Trigger as n8n's leader main process
 * does (tools/shared/poller.ts: activation, scheduled polls, the static data saved when a poll
 * starts the workflow), and runs the action node's Event → Monitor through WorkflowExecute.
 *
 * What it times is each call of the node's own method as n8n-core makes it: the trigger's poll()
 * (the span of n8n's own metric `n8n_poll_trigger_duration_seconds`) and the action node's execute().
 * Per call: wall time, and this process's CPU time (user + system, all threads), which holds
 * nothing else: the sandbox answers from its own process, and between calls this one waits.
 * Where a poll's own time goes is timed apart ('breakdown'): the window's answer read once, then
 * the steps of the trigger's memory module (the built one) on it, one by one.
 *
 * Started by polling.ts over IPC: each request `{ id, kind, ... }` gets one answer `{ id, result }`
 * or `{ id, error }`; it exits on 'close' or when its parent goes away.
 */
import { createRequire } from 'node:module';
import * as path from 'node:path';

import { PackageDirectoryLoader, WorkflowExecute } from 'n8n-core';
import { NodeHelpers, Workflow, type IDataObject, type INode, type INodeType, type IWorkflowBase } from 'n8n-workflow';

import { SERVICES } from '../../nodes/shared/services';
import { COMBINED, packageDir } from '../packages/packages';
import { buildAdditionalDataForTests } from '../shared/additionalData';
import { HarnessCredentialsHelper } from '../shared/credentials';
import { HarnessNodeTypes } from '../shared/nodeTypes';
import { hostPollerIn, type HostedPoller } from '../shared/poller';
import { rememberedEvents } from './staticData';

/** What the parent asks for (each message also carries the `id` its answer repeats). */
export type PollProcessRequest =
	| { kind: 'start'; sandboxUrl: string; timelineKey: string; triggerName: string; location: string; lookBackHours: number }
	| { kind: 'poll' }
	| { kind: 'monitor'; rangeStart: string; rangeEnd: string }
	| { kind: 'breakdown'; rangeStart: string; rangeEnd: string };

/** One call of a node's method: wall time and CPU time, ms. */
export interface TimedCall {
	ms: number;
	cpuMs: number;
}

export interface StaticDataMeasure {
	/** Bytes of the workflow's static data as n8n saves it (JSON). */
	bytes: number;
	/** Events the trigger's memory holds. */
	remembered: number;
	/** The JSON.stringify of that save, ms. */
	serialiseMs: number;
}

export interface PollAnswer {
	call: TimedCall;
	/** The descriptions of the events the poll started the workflow for, in its order (null: none). */
	started: string[] | null;
	error?: string;
	staticData: StaticDataMeasure;
}

export interface MonitorAnswer {
	call: TimedCall;
	items: number;
	error?: string;
}

/** Where a poll's own time goes, ms per step (medians of BREAKDOWN_REPEATS), for the window's events. */
export interface PollBreakdown {
	events: number;
	/** JSON.parse of the service's answer (n8n's HTTP helper does it; the Monitor call does it too). */
	parseMs: number;
	/** The fingerprint (digest) of every listed event, afresh (a poll's first in a process). */
	fingerprintMs: number;
	/** The same with the process's cache of the last listing, as every later poll makes them. */
	cachedFingerprintMs: number;
	/** The comparison with the memory and its update (the memory's copy as saved). */
	compareMs: number;
}
const BREAKDOWN_REPEATS = 5;

const MONITOR_NAME = 'Monitor Events';
const CREDENTIAL = { id: 'bench-timeline', name: 'Bench timeline' };
const CREDENTIAL_TYPE = SERVICES.timeline.credentialType;

/** Each call of `method` on `type`, timed into `calls` (the node's own code, as n8n-core calls it). */
function timed(type: INodeType, method: 'poll' | 'execute', calls: TimedCall[]): INodeType {
	const inner = type[method] as (...args: unknown[]) => Promise<unknown>;
	const wrapper = Object.create(type) as INodeType;
	(wrapper as unknown as Record<string, unknown>)[method] = async function (this: unknown, ...args: unknown[]) {
		const cpuBefore = process.cpuUsage();
		const started = performance.now();
		try {
			return await inner.apply(this, args);
		} finally {
			const cpu = process.cpuUsage(cpuBefore);
			calls.push({ ms: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000 });
		}
	};
	return wrapper;
}

interface Host {
	request: Extract<PollProcessRequest, { kind: 'start' }>;
	triggerMemory: typeof import('../../nodes/shared/timelineNavigation/trigger/memory');
	poller: HostedPoller;
	nodeTypes: HarnessNodeTypes;
	credentialsHelper: HarnessCredentialsHelper;
	actionType: string;
	polls: TimedCall[];
	monitors: TimedCall[];
}

let host: Host | undefined;
let executions = 0;

function staticDataMeasure(poller: HostedPoller): StaticDataMeasure {
	const saved = poller.savedStaticData();
	const started = performance.now();
	const text = JSON.stringify(saved);
	return { bytes: Buffer.byteLength(text), remembered: rememberedEvents(saved), serialiseMs: performance.now() - started };
}

async function start(request: Extract<PollProcessRequest, { kind: 'start' }>): Promise<{ activation: PollAnswer }> {
	const loader = new PackageDirectoryLoader(packageDir(COMBINED));
	await loader.loadAll();
	const polls: TimedCall[] = [];
	const monitors: TimedCall[] = [];
	const nodeTypes = new HarnessNodeTypes();
	const credentialsHelper = new HarnessCredentialsHelper(new Map(Object.values(loader.credentialTypes).map(({ type }) => [type.name, type])));
	const types: Record<string, string> = {};
	for (const [name, { type }] of Object.entries(loader.nodeTypes)) {
		const nodeType = NodeHelpers.getVersionedNodeType(type);
		types[name] = `${loader.packageName}.${name}`;
		if (nodeType.poll) nodeTypes.register(types[name], timed(nodeType, 'poll', polls));
		else if (nodeType.execute) nodeTypes.register(types[name], timed(nodeType, 'execute', monitors));
	}
	credentialsHelper.add({ ...CREDENTIAL, type: CREDENTIAL_TYPE, data: { baseUrl: request.sandboxUrl, accessToken: request.timelineKey } });
	const poller = hostPollerIn(
		{ nodeTypes, credentialsHelper },
		{
			type: types.timelineNavigationEventsTrigger,
			name: request.triggerName,
			parameters: { event: 'newEvent', location: request.location, lookBackAmount: request.lookBackHours, lookBackUnit: 'hours' },
			nodeCredentials: { [CREDENTIAL_TYPE]: CREDENTIAL },
		},
	);
	// The trigger's memory module as the loader loaded it (the built package), for the breakdown.
	const triggerMemory = createRequire(path.join(packageDir(COMBINED), 'package.json'))('./dist/nodes/shared/timelineNavigation/trigger/memory.js') as Host['triggerMemory'];
	host = { request, triggerMemory, poller, nodeTypes, credentialsHelper, actionType: types.timelineNavigation, polls, monitors };
	return { activation: pollAnswer(await poller.activate(), polls) };
}

function pollAnswer(outcome: Awaited<ReturnType<HostedPoller['poll']>>, polls: TimedCall[]): PollAnswer {
	return {
		call: polls.at(-1)!,
		started: outcome.started?.map((item) => String(item.description)) ?? null,
		error: outcome.error?.message,
		staticData: staticDataMeasure(host!.poller),
	};
}

async function poll(): Promise<PollAnswer> {
	const h = started();
	return pollAnswer(await h.poller.poll(), h.polls);
}

/** One Event → Monitor over the window, One Item per Event (the default), as a workflow's only node. */
async function monitor(request: Extract<PollProcessRequest, { kind: 'monitor' }>): Promise<MonitorAnswer> {
	const h = started();
	const node: INode = {
		id: 'monitor',
		name: MONITOR_NAME,
		type: h.actionType,
		typeVersion: Math.max(...[h.nodeTypes.getByNameAndVersion(h.actionType).description.version].flat()),
		position: [0, 0],
		parameters: { resource: 'event', operation: 'monitor', location: h.request.location, rangeStart: request.rangeStart, rangeEnd: request.rangeEnd },
		credentials: { [CREDENTIAL_TYPE]: CREDENTIAL },
	};
	const workflowData = { id: 'bench-monitor', name: 'Monitor', nodes: [node], connections: {}, active: false, settings: {} } as unknown as IWorkflowBase;
	const workflow = new Workflow({ ...workflowData, nodeTypes: h.nodeTypes, staticData: {} });
	const additionalData = buildAdditionalDataForTests(h.credentialsHelper, workflowData, `monitor-${++executions}`);
	const run = await new WorkflowExecute(additionalData, 'trigger').run({ workflow, startNode: node });
	const task = run.data.resultData.runData[MONITOR_NAME]?.[0];
	return {
		call: h.monitors.at(-1)!,
		items: task?.data?.main?.[0]?.length ?? 0,
		error: (run.data.resultData.error ?? task?.error)?.message,
	};
}

/** The window's answer read once; then each step of the poll's own work timed on it. */
async function breakdown(request: Extract<PollProcessRequest, { kind: 'breakdown' }>): Promise<PollBreakdown> {
	const h = started();
	const query = new URLSearchParams({ location: h.request.location, time_range: `${request.rangeStart}/${request.rangeEnd}` });
	const answer = await fetch(`${h.request.sandboxUrl}/v1/monitor-events?${query}`, { headers: { authorization: `Bearer ${h.request.timelineKey}` } });
	const text = await answer.text();
	if (!answer.ok) throw new Error(`breakdown: the sandbox answered ${answer.status}: ${text.slice(0, 200)}`);
	const { FingerprintCache, fingerprinted, readMemory, compareWithMemory } = h.triggerMemory;
	const timeOf = (event: IDataObject) => event.time;
	const cache = new FingerprintCache('bench breakdown');
	fingerprinted((JSON.parse(text) as { events: IDataObject[] }).events, timeOf, cache);
	const nodeData = () => h.poller.savedStaticData()[`node:${h.request.triggerName}`] as IDataObject;
	const subject = (nodeData().memory as { subject: string }).subject;
	const steps = { parseMs: [] as number[], fingerprintMs: [] as number[], cachedFingerprintMs: [] as number[], compareMs: [] as number[] };
	let events = 0;
	for (let i = 0; i < BREAKDOWN_REPEATS; i++) {
		const memory = nodeData();
		const t0 = performance.now();
		const listedEvents = (JSON.parse(text) as { events: IDataObject[] }).events;
		const t1 = performance.now();
		const listed = fingerprinted(listedEvents, timeOf);
		const t2 = performance.now();
		compareWithMemory(readMemory(memory.memory, subject), subject, listed, { start: Date.parse(request.rangeStart), end: Date.parse(request.rangeEnd) });
		const t3 = performance.now();
		fingerprinted(listedEvents, timeOf, cache);
		const t4 = performance.now();
		steps.parseMs.push(t1 - t0);
		steps.fingerprintMs.push(t2 - t1);
		steps.compareMs.push(t3 - t2);
		steps.cachedFingerprintMs.push(t4 - t3);
		events = listed.length;
	}
	const middle = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
	return {
		events,
		parseMs: middle(steps.parseMs),
		fingerprintMs: middle(steps.fingerprintMs),
		cachedFingerprintMs: middle(steps.cachedFingerprintMs),
		compareMs: middle(steps.compareMs),
	};
}

function started(): Host {
	if (!host) throw new Error('poll-process: "start" first');
	return host;
}

async function answer(request: PollProcessRequest): Promise<unknown> {
	if (request.kind === 'start') return await start(request);
	if (request.kind === 'poll') return await poll();
	if (request.kind === 'monitor') return await monitor(request);
	if (request.kind === 'breakdown') return await breakdown(request);
	throw new Error(`poll-process: unknown request ${JSON.stringify(request as IDataObject)}`);
}

process.on('message', (message: (PollProcessRequest & { id: number }) | 'close') => {
	if (message === 'close') process.exit(0);
	answer(message).then(
		(result) => process.send?.({ id: message.id, result }),
		(error: Error) => process.send?.({ id: message.id, error: error.stack ?? error.message }),
	);
});
process.on('disconnect', () => process.exit(0));
process.send?.({ ready: process.version });
