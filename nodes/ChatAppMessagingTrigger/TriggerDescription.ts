import type { INodeProperties } from 'n8n-workflow';
import { MAX_REMEMBERED } from './deliveryMemory';

const EVENT_OPTIONS = [
	{
		name: 'Inbound Message',
		value: 'message.inbound',
		description: 'A customer writes to the account (message.inbound); opens the 24-hour window',
	},
	{
		name: 'Message Status',
		value: 'message.status',
		description: 'The delivery status of a sent message changes, e.g. delivered, then read (message.status)',
	},
];

/** Under the node on the canvas: the chosen events as the panel names them, "On Inbound Message". */
const eventNames = Object.fromEntries(EVENT_OPTIONS.map((option) => [option.value, option.name]));
export const triggerSubtitle = `={{ "On " + [].concat($parameter["events"]).map((event) => (${JSON.stringify(eventNames)})[event] ?? event).join(" and ") }}`;

export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			'The messaging service has no API for its webhook: copy this node\'s Production URL (under "Webhook URLs" above) and paste it as the account webhook URL in the messaging dashboard, then publish this workflow. One URL receives every event of the account.',
		name: 'setupNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Trigger On',
		name: 'events',
		type: 'multiOptions',
		required: true,
		options: EVENT_OPTIONS,
		default: ['message.inbound', 'message.status'],
		description: 'Which events start the workflow. Other events are acknowledged and start nothing.',
	},
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		displayOptions: { show: { events: ['message.status'] } },
		options: [
			{
				name: 'Any Status',
				value: 'any',
				description: 'Every status change, including statuses the documentation does not list',
			},
			{ name: 'Delivered', value: 'delivered' },
			{ name: 'Read', value: 'read' },
		],
		default: 'any',
		description: 'Which delivery status starts the workflow. Other statuses are acknowledged and start nothing.',
	},
	{
		displayName: 'Authentication',
		name: 'authentication',
		type: 'options',
		options: [
			{ name: 'Basic Auth', value: 'basicAuth' },
			{ name: 'Header Auth', value: 'headerAuth' },
			{ name: 'None', value: 'none' },
		],
		default: 'none',
		description:
			'How calls must prove they come from your messaging account: a secret header or a user name and password that you also set for the webhook in the dashboard. Calls without them get HTTP 401 and start nothing.',
	},
	{
		displayName: 'Ignore Repeated Deliveries',
		name: 'ignoreRepeatedDeliveries',
		type: 'boolean',
		default: true,
		description: `Whether to start the workflow only once for the same message ID, event type and status: the service may deliver an event more than once. The last ${MAX_REMEMBERED.toLocaleString('en-US')} events of the past 48 hours are remembered, in the n8n process and in the workflow's static data. Caught: every repeat that reaches the n8n process that took the first copy, and repeats after n8n restarts. In queue mode with several webhook processes, copies that reach two processes at about the same time can both start the workflow (measured with 2 processes: 8–10 of 10 events sent twice at once, 43–49 of 50 at 10 in flight), and right after a burst a process's last events can be missing from static data until its next call (5–7 of 50 started again after a restart). Pin this trigger's URL to one webhook process at the load balancer (for example nginx "hash $request_uri consistent") to catch every repeat while n8n runs, or make the workflow's first step idempotent. See the README, Scale-out.`,
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Include Unknown Event Types',
				name: 'includeUnknownEvents',
				type: 'boolean',
				default: false,
				description:
					'Whether to start the workflow for event types other than message.status and message.inbound, with the payload as it came. When off, they are acknowledged and ignored.',
			},
		],
	},
];
