// The package's action nodes, from one definition: a node is its catalog entry (names, icon,
// description) and the actions of the services it offers. Each node class is this class with
// its entry and services, so a node of one service loads only that service's modules. Its
// `execute` hands the run to the router (./router.ts).
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { type ActionNodeEntry, namingOf } from '../catalog';
import { n8nTooOld } from '../errors';
import { MAIN_CONNECTION, ON_SUPPORTED_N8N, withFloorNotice } from '../n8nVersion';
import { actionNodeParts } from './description';
import { resourcesOf, type ServiceActions } from './operation';
import { route } from './router';

/** An action node: `entry` says what it is called and shows, `services` what it does. */
export class ActionNode implements INodeType {
	readonly description: INodeTypeDescription;

	readonly methods?: INodeType['methods'];

	readonly execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

	/** The link of a Send and Wait question: the page (GET) and the answer (POST). */
	readonly webhook?: (this: IWebhookFunctions) => Promise<IWebhookResponseData>;

	constructor(entry: ActionNodeEntry, services: ServiceActions[]) {
		const parts = actionNodeParts(resourcesOf(services), entry.defaultResource);
		const waiting = services.find((service) => service.waitingWebhook)?.waitingWebhook;
		const listSearch = Object.assign({}, ...services.map((service) => service.listSearch ?? {})) as Record<string, never>;
		this.description = {
			...namingOf(entry),
			icon: { light: `file:${entry.icon}.svg`, dark: `file:${entry.icon}.dark.svg` },
			group: ['transform'],
			// A list, even of one version: n8n adds a "Custom API Call" choice to the Resource and
			// Operation lists of a node whose `defaultVersion` is missing or equals `version`, and
			// picking it names the node "__CUSTOM_API_CALL__ <resource>" (custom-api-call.e2e).
			version: [1],
			defaultVersion: 1,
			subtitle: parts.subtitle,
			usableAsTool: true,
			inputs: [MAIN_CONNECTION],
			outputs: [MAIN_CONNECTION],
			credentials: parts.credentials,
			// Message → Send and Wait for Response: n8n's waiting webhooks, never registered with a
			// service (docs/send-and-wait.md says why they need no webhookMethods).
			...(waiting && { webhooks: waiting.webhooks, waitingNodeTooltip: waiting.tooltip }),
			properties: withFloorNotice(parts.properties),
		};
		if (Object.keys(listSearch).length > 0) this.methods = { listSearch };
		// Only a node that can wait has a webhook method: n8n counts a node with one as able to
		// start a workflow.
		if (waiting) this.webhook = waiting.answer;
		const operations = parts.operations;
		this.execute = async function (this: IExecuteFunctions) {
			if (!ON_SUPPORTED_N8N) throw n8nTooOld(this, 'Nothing was sent.');
			return await route(this, operations);
		};
	}
}
