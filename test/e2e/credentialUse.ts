/**
 * Whether a saved credential works in a node, found out as a user would: a published workflow
 * that uses it, called through its production URLs, on any n8n instance (not only the suite's).
 *
 * - the timeline and messaging API credentials: n8n's Webhook node, then a package's action node
 *   (Set Anchor as the timeline session example has it, Send Template as the delivery tracking
 *   example has it) with a marker from the request, so the sandbox's record of the call is found;
 *   the sandbox answers 401 to a missing or wrong key, so its 200 means the key went;
 * - the two webhook credentials: a package's trigger with that authentication; a delivery with
 *   the credential's secret is accepted and one with a wrong secret refused, so the trigger read
 *   the credential;
 * - the API credentials in n8n's HTTP Request node as its Predefined Credential Type.
 *
 * The uses tried together share one workflow (each with its own entry point), published for the
 * calls and unpublished afterwards, so that a package can be removed without leaving a published
 * workflow on nodes n8n no longer has.
 */
import { randomUUID } from 'node:crypto';

import { EXAMPLE_FILES, readExample } from '../../tools/n8n/examples';
import { fetchOnOpenConnection, type N8nClient, type StoredCredential, type WorkflowJson } from '../../tools/n8n/client';
import { CREDENTIAL_TYPES, NODE_TYPES } from '../../tools/n8n/communityPackage';
import { SANDBOX_WEBHOOK_AUTH } from '../../tools/n8n/sandboxCredentials';
import type { RecordedRequest } from '../../tools/sandbox/types';
import { status as statusDelivery } from '../support/trigger-payloads';
import { publishWorkflow } from './communityNodes';
import type { ShippedPackage } from './shippedPackages';
import { waitFor } from '../../tools/shared/wait';
import { env, onceRegistered, sandbox } from './support';

/** The credential types the action node and the HTTP Request node send with. */
export const API_CREDENTIALS: readonly string[] = [CREDENTIAL_TYPES.timeline, CREDENTIAL_TYPES.messaging];

/** What a use reports when the credential works. */
const WORKS = {
	call: 'n8n answered 200; the sandbox accepted the key',
	trigger: 'with the secret 200, with a wrong one 401',
} as const;

/** One use of a credential: the nodes it adds to the shared workflow, and what a call through them shows. */
export interface CredentialUse {
	/** Names the use in the outcomes, such as `<node type> with <credential type>`. */
	label: string;
	/** The outcome when the credential works. */
	works: string;
	nodes: Array<Record<string, any>>;
	connections: Record<string, unknown>;
	/** Once the workflow is published: one line saying what happened (WORKS when it worked). */
	outcome(n8n: N8nClient): Promise<string>;
	/**
	 * Resolves once n8n has finished unpublishing the use. n8n 2.41 tears a workflow down after
	 * answering the deactivation, and a package uninstalled meanwhile makes it fail ("External
	 * webhook deregistration failed … Unrecognized node type").
	 */
	unpublished?(n8n: N8nClient): Promise<void>;
}

/** A node of the examples, as a template for the same node of any package. */
function exampleNode(file: string, type: string, name: string): Record<string, any> {
	const node = readExample(file).nodes.find((n) => n.type === type && n.name === name);
	if (!node) throw new Error(`${file} has no ${type} node named "${name}"`);
	return node;
}

/** The action node's call for each API credential type: the node, and how to find the request it sends. */
const ACTION_CALLS: Record<string, { node: () => Record<string, any>; parameters: object; sent: (r: RecordedRequest, marker: string) => boolean }> = {
	[CREDENTIAL_TYPES.timeline]: {
		node: () => exampleNode(EXAMPLE_FILES.session, NODE_TYPES.action, 'Set Anchor'),
		parameters: { description: '={{ $json.body.marker }}' },
		sent: (r, marker) => r.method === 'POST' && r.path === '/v1/set-anchor' && (r.body as { description?: string })?.description === marker,
	},
	[CREDENTIAL_TYPES.messaging]: {
		node: () => exampleNode(EXAMPLE_FILES.deliveryTracking, NODE_TYPES.action, 'Send Order Update'),
		// the template's first parameter is the customer's name: the marker holds letters
		parameters: { templateParameters: { placeholder1: { value: '={{ $json.body.marker }}' }, placeholder2: { value: '#1042' } } },
		sent: (r, marker) => r.method === 'POST' && r.path === '/v1/messages' && JSON.stringify(r.body).includes(marker),
	},
};

function actionCall(credentialType: string) {
	const call = ACTION_CALLS[credentialType];
	if (!call) throw new Error(`no action call uses a ${credentialType} credential`);
	return call;
}

const credentialRef = (credential: StoredCredential) => ({ [credential.type]: { id: credential.id, name: credential.name } });

/**
 * `actionType` (a package's action node) set up for the call that uses `credential`, with the
 * marker from the request of n8n's Webhook node.
 */
export function actionNodeUsing(actionType: string, credential: StoredCredential): Record<string, any> {
	const call = actionCall(credential.type);
	const template = call.node();
	return {
		...template,
		id: randomUUID(),
		type: actionType,
		parameters: { ...template.parameters, ...call.parameters },
		credentials: credentialRef(credential),
	};
}

/**
 * n8n's Webhook node answering with the last node's output, then `node`: the use is a POST with a
 * marker to the webhook, and what the sandbox received with that marker.
 */
function throughWebhook(
	label: string,
	node: Record<string, any>,
	sent: (r: RecordedRequest, marker: string) => boolean,
	accepted = 200,
): CredentialUse {
	const path = randomUUID();
	const webhook = `Webhook ${path.slice(0, 8)}`;
	return {
		label,
		works: WORKS.call,
		nodes: [
			{
				id: randomUUID(),
				name: webhook,
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: path,
				parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', options: {} },
			},
			{ ...node, position: [240, 0] },
		],
		connections: { [webhook]: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
		async outcome(n8n) {
			const marker = `Marker-${randomUUID()}`;
			const res = await onceRegistered(() =>
				fetchOnOpenConnection(`${n8n.webhookBaseUrl}/${path}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ marker }),
				}),
			);
			await res.text();
			const statuses = (await sandbox.requests()).filter((r) => sent(r, marker)).map((r) => r.responseStatus);
			const sandboxSaw = statuses.map((s) => (s === accepted ? 'accepted the key' : `answered ${s}`)).join(', ') || 'got nothing';
			return `n8n answered ${res.status}; the sandbox ${sandboxSaw}`;
		},
	};
}

/** `actionType` (a package's action node) calling the sandbox with `credential`. */
export function actionUse(actionType: string, credential: StoredCredential): CredentialUse {
	const node = { ...actionNodeUsing(actionType, credential), name: `${actionType} ${credential.type}` };
	return throughWebhook(`${actionType} with ${credential.type}`, node, actionCall(credential.type).sent);
}

/** Where each API credential's raw call goes, the sandbox's answer once the key is accepted, and how to find the call. */
const RAW_CALLS: Record<string, { url: string; accepted: number; sent: (r: RecordedRequest, marker: string) => boolean }> = {
	[CREDENTIAL_TYPES.timeline]: {
		url: `=${env.sandbox.url}/v1/timelines?marker={{ $json.body.marker }}`,
		accepted: 200,
		sent: (r, marker) => r.method === 'GET' && r.path === '/v1/timelines' && r.query.marker === marker,
	},
	// a message id that cannot exist: 404 once the key is accepted
	[CREDENTIAL_TYPES.messaging]: {
		url: `=${env.sandbox.url}/v1/messages/{{ $json.body.marker }}`,
		accepted: 404,
		sent: (r, marker) => r.method === 'GET' && r.path === `/v1/messages/${marker}`,
	},
};

/** n8n's HTTP Request node with "Predefined Credential Type" set to the credential's type, calling the sandbox. */
export function httpRequestUse(credential: StoredCredential): CredentialUse {
	const call = RAW_CALLS[credential.type];
	if (!call) throw new Error(`no raw call uses a ${credential.type} credential`);
	const node = {
		id: randomUUID(),
		name: `HTTP Request ${credential.type}`,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			url: call.url,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: credential.type,
			options: { response: { response: { neverError: true } } },
		},
		credentials: credentialRef(credential),
	};
	return throughWebhook(`HTTP Request with ${credential.type}`, node, call.sent, call.accepted);
}

/** The trigger's authentication for each webhook credential type, and the headers of a delivery with a secret. */
const TRIGGER_AUTH: Record<string, { authentication: string; secret: string; headers: (secret: string) => Record<string, string> }> = {
	[CREDENTIAL_TYPES.webhookHeader]: {
		authentication: 'headerAuth',
		secret: SANDBOX_WEBHOOK_AUTH.secret,
		headers: (secret) => ({ [SANDBOX_WEBHOOK_AUTH.headerName]: secret }),
	},
	[CREDENTIAL_TYPES.webhookBasic]: {
		authentication: 'basicAuth',
		secret: SANDBOX_WEBHOOK_AUTH.password,
		headers: (password) => ({ Authorization: `Basic ${Buffer.from(`${SANDBOX_WEBHOOK_AUTH.user}:${password}`).toString('base64')}` }),
	},
};

/**
 * `triggerType` (a package's trigger) checking deliveries against `credential` (one of the
 * sandbox's webhook credentials): the use is a delivery with the credential's secret and one
 * with a wrong secret.
 */
export function triggerUse(triggerType: string, credential: StoredCredential): CredentialUse {
	const auth = TRIGGER_AUTH[credential.type];
	if (!auth) throw new Error(`the trigger has no authentication with a ${credential.type} credential`);
	const template = exampleNode(EXAMPLE_FILES.statusWebhook, NODE_TYPES.trigger, 'On Message Status');
	const webhookId = randomUUID();
	const deliver = (n8n: N8nClient, headers: Record<string, string>) =>
		fetchOnOpenConnection(`${n8n.webhookBaseUrl}/${webhookId}/chat-app`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...headers },
			body: JSON.stringify({ ...statusDelivery, message_id: `msg_${randomUUID()}` }),
		});
	return {
		label: `${triggerType} with ${credential.type}`,
		works: WORKS.trigger,
		nodes: [
			{
				...template,
				id: randomUUID(),
				// named without the package: the log check of two-packages.e2e.test.ts looks for lines about packages
				name: `${triggerType.slice(triggerType.indexOf('.') + 1)} ${credential.type}`,
				type: triggerType,
				webhookId,
				position: [0, 240],
				parameters: { ...template.parameters, authentication: auth.authentication },
				credentials: credentialRef(credential),
			},
		],
		connections: {},
		async outcome(n8n) {
			const withSecret = await onceRegistered(() => deliver(n8n, auth.headers(auth.secret)));
			const withWrongSecret = await deliver(n8n, auth.headers(`${auth.secret}-wrong`));
			await Promise.all([withSecret.text(), withWrongSecret.text()]);
			return `with the secret ${withSecret.status}, with a wrong one ${withWrongSecret.status}`;
		},
		async unpublished(n8n) {
			// n8n removes the webhook's registration after running every node's delete hook.
			await waitFor(`${webhookId} unregistered`, async () => {
				const answer = await deliver(n8n, {});
				await answer.text();
				return answer.status === 404;
			}, { timeoutMs: 60_000, intervalMs: 250 });
		},
	};
}

/**
 * Publishes one workflow holding every use (as the editor does: Save, then Publish / Activate),
 * tries each in turn, and unpublishes it; returns each use's outcome by its label.
 */
export async function tryUses(n8n: N8nClient, uses: CredentialUse[], name = 'Credential uses'): Promise<Record<string, string>> {
	const workflow: WorkflowJson = {
		name: `${name} ${randomUUID().slice(0, 8)}`,
		nodes: uses.flatMap((use, i) => use.nodes.map((node) => ({ ...node, position: [node.position[0], node.position[1] + 480 * i] }))),
		connections: Object.assign({}, ...uses.map((use) => use.connections)),
		settings: { executionOrder: 'v1' },
	};
	const id = await publishWorkflow(n8n, workflow);
	try {
		const outcomes: Record<string, string> = {};
		for (const use of uses) outcomes[use.label] = await use.outcome(n8n);
		return outcomes;
	} finally {
		await n8n.rest('POST', `/workflows/${id}/deactivate`);
		for (const use of uses) await use.unpublished?.(n8n);
	}
}

/** The outcomes of `uses` when every credential works. */
export function working(uses: CredentialUse[]): Record<string, string> {
	return Object.fromEntries(uses.map((use) => [use.label, use.works]));
}

/**
 * Every use of the saved credentials in the nodes of `packages` (each node with each credential
 * type its package defines) and in the HTTP Request node: what a user would try.
 */
export function usesOf(packages: readonly ShippedPackage[], saved: readonly StoredCredential[]): CredentialUse[] {
	const credentialOf = (type: string) => {
		const found = saved.find((c) => c.type === type);
		if (!found) throw new Error(`no saved ${type} credential`);
		return found;
	};
	const uses: CredentialUse[] = [];
	for (const pkg of packages) {
		for (const type of pkg.credentials) {
			if (API_CREDENTIALS.includes(type)) uses.push(actionUse(pkg.nodes.action, credentialOf(type)));
			else if (pkg.nodes.trigger) uses.push(triggerUse(pkg.nodes.trigger, credentialOf(type)));
		}
	}
	const apiTypes = new Set(packages.flatMap((p) => p.credentials).filter((t) => API_CREDENTIALS.includes(t)));
	for (const type of apiTypes) uses.push(httpRequestUse(credentialOf(type)));
	return uses;
}
