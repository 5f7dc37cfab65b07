// Saved-workflow fixtures (test/fixtures/saved-workflows/<release>/*.json): workflows as a
// released version of the package saved them, with what they did on that version. The
// in-process suite runs every fixture of every release on the current code; the registry e2e
// runs a few in real n8n across an update. Both compare what happened with what the fixture
// recorded, after `comparable` has replaced the ids the service makes up.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IDataObject, INode, IConnections, IPinData } from 'n8n-workflow';
import type { SandboxClient } from '../../tools/sandbox/client';
import type { RecordedRequest } from '../../tools/sandbox/server';

export const SAVED_WORKFLOWS_DIR = join(__dirname, '..', 'fixtures', 'saved-workflows');

export interface SavedWorkflow {
	name: string;
	nodes: INode[];
	connections: IConnections;
	pinData?: IPinData;
	settings?: IDataObject;
}

/** What the sandbox must hold before the run (besides its defaults after a reset). */
export interface SandboxArrangement {
	/** Customers who wrote in just before: their 24-hour window is open. */
	inboundFrom?: string[];
}

/** One call the service makes to the trigger's webhook. */
export interface Delivery {
	body: IDataObject;
	headers?: Record<string, string>;
}

/** A form posted to a Send and Wait link: `{ answer: 'approve' }`, a free text, form fields. */
export type Answer = Record<string, string | string[]>;

/** The request as the service received it, with made-up ids replaced (see `comparable`). */
export interface SentRequest {
	method: string;
	path: string;
	query: IDataObject;
	body: unknown;
}

export interface DeliveryOutcome {
	status: number;
	response: unknown;
	/** The items the trigger output (its first output), or null when it started nothing. */
	output: IDataObject[] | null;
}

export interface Fixture {
	/** The package release that saved it (the folder's name). */
	release: string;
	/** What it covers, for a person reading a failure. */
	about: string;
	workflow: SavedWorkflow;
	sandbox?: SandboxArrangement;
	/** Trigger fixtures: the calls to the trigger's webhook, in order. */
	deliveries?: Delivery[];
	/** Send and Wait fixtures: the forms posted to the question's link, in order (as a browser posts them). */
	answers?: Answer[];
	expected: {
		/** Every request the workflow sent, in order. */
		requests: SentRequest[];
		/** Trigger fixtures: per delivery, the answer and what started. */
		deliveries?: DeliveryOutcome[];
		/** The error the run ended with, if the release ended it with one. */
		error?: string;
	};
}

export interface FixtureFile {
	/** `<release>/<file>` */
	id: string;
	fixture: Fixture;
}

/** The releases that have fixtures, oldest first. */
export function releasesWithFixtures(dir = SAVED_WORKFLOWS_DIR): string[] {
	return readdirSync(dir, { withFileTypes: true })
		.filter((entry) => entry.isDirectory() && /^\d+\.\d+\.\d+/.test(entry.name))
		.map((entry) => entry.name)
		.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

/** Every workflow fixture of a release (not its description.json). */
export function readFixtures(release: string, dir = SAVED_WORKFLOWS_DIR): FixtureFile[] {
	return readdirSync(join(dir, release))
		.filter((file) => file.endsWith('.json') && file !== 'description.json')
		.sort()
		.map((file) => ({ id: `${release}/${file}`, fixture: JSON.parse(readFileSync(join(dir, release, file), 'utf8')) as Fixture }));
}

/** The ids the services make up: timelines, anchors, items, events, travels, checks, anomalies, messages. */
const MADE_UP_ID = /\b(tl|anc|itm|evt|trv|chk|anm|msg_in|msg)_[0-9a-f]{16}\b/g;

/**
 * The requests as a fixture stores them: each made-up id replaced by `<prefix#n>`, numbered in
 * order of first appearance, so two runs that sent the same requests compare equal.
 */
export function comparable<T>(value: T): T {
	const seen = new Map<string, string>();
	const counters = new Map<string, number>();
	const text = JSON.stringify(value).replace(MADE_UP_ID, (id, prefix: string) => {
		let token = seen.get(id);
		if (!token) {
			const n = (counters.get(prefix) ?? 0) + 1;
			counters.set(prefix, n);
			token = `<${prefix}#${n}>`;
			seen.set(id, token);
		}
		return token;
	});
	return JSON.parse(text) as T;
}

export const sentRequests = (requests: RecordedRequest[]): SentRequest[] =>
	requests.map((request) => ({ method: request.method, path: request.path, query: request.query, body: request.body }));

/** Sets up what the fixture needs in a sandbox just reset, then forgets those requests. */
export async function arrange(client: SandboxClient, arrangement: SandboxArrangement = {}): Promise<void> {
	for (const phone of arrangement.inboundFrom ?? []) await client.inbound(phone, 'Hello');
	await client.clearRequests();
}

/** The workflow's trigger node, if it starts with the package's trigger. */
export function triggerNode(workflow: SavedWorkflow, triggerType: string): INode | undefined {
	return workflow.nodes.find((node) => node.type === triggerType);
}
