import {
	NodeConnectionTypes,
	type IWebhookFunctions,
	type IWebhookResponseData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

// Skeleton: the full trigger (filters, authentication, repeated deliveries) is issue 6.
export class TimelineNavigationTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Timeline Navigation Trigger',
		name: 'timelineNavigationTrigger',
		icon: { light: 'file:timelineNavigationTrigger.svg', dark: 'file:timelineNavigationTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{"On " + $parameter["events"]}}',
		description: 'Starts the workflow when the messaging service reports a delivery status or an inbound message',
		defaults: { name: 'Timeline Navigation Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'chat-app' }],
		properties: [
			{
				displayName: 'Trigger On',
				name: 'events',
				type: 'options',
				options: [{ name: 'Any Messaging Event', value: 'any' }],
				default: 'any',
			},
		],
	};

	webhookMethods = {
		default: {
			async checkExists(): Promise<boolean> {
				return true;
			},
			async create(): Promise<boolean> {
				return true;
			},
			async delete(): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return { workflowData: [this.helpers.returnJsonArray(this.getBodyData())] };
	}
}
