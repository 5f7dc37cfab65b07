import type { INodeProperties } from 'n8n-workflow';

/** Messages in Quick Succession → Gather Into One Run. */
export const GATHER_BURSTS = 'gather';
export const MAX_QUIET_SECONDS = 600;
export const MAX_LONGEST_WAIT_SECONDS = 3600;

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
			'Paste this node\'s URL (under "Webhook URLs" above) as the account\'s webhook URL in the messaging dashboard: the Test URL while you click "Execute workflow" to listen for a test event, then the Production URL once the workflow is published.',
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
		description:
			'Whether to start the workflow only once when the service delivers the same event (message ID, event type and status) again, within 48 hours and the last 5,000 events. Events received in the last quarter second before n8n restarts or crashes can start it again. In queue mode with several webhook processes, pin this trigger\'s URL to one of them at the load balancer to catch every repeat: see <a href="https://github.com/n8n-nodes-timeline-navigation/n8n-nodes-timeline-navigation/blob/main/docs/scale-out.md">Scale-out</a>.',
	},
	{
		displayName: 'Messages in Quick Succession',
		name: 'quickMessages',
		type: 'options',
		displayOptions: { show: { events: ['message.inbound'] } },
		options: [
			{
				name: 'Gather Into One Run',
				value: GATHER_BURSTS,
				description: "One run per burst: the customer's messages until they have been quiet for the Quiet Time, in order, their texts joined",
			},
			{ name: 'One Run Each', value: 'each', description: 'Every inbound message starts a run of its own' },
		],
		default: 'each',
		description:
			'What a customer\'s quick messages ("hi" / "I ordered on Monday" / "where is it?") start: one run each, or one run for the burst, for an AI agent or a person to answer once',
	},
	{
		displayName: 'Quiet Time (Seconds)',
		name: 'quietSeconds',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_QUIET_SECONDS, numberPrecision: 0 },
		displayOptions: { show: { events: ['message.inbound'], quickMessages: [GATHER_BURSTS] } },
		default: 5,
		description: 'The burst starts once the customer has written nothing for this long',
	},
	{
		displayName: 'Longest Wait (Seconds)',
		name: 'longestWaitSeconds',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_LONGEST_WAIT_SECONDS, numberPrecision: 0 },
		displayOptions: { show: { events: ['message.inbound'], quickMessages: [GATHER_BURSTS] } },
		default: 30,
		description: 'The burst starts at the latest this long after its first message, however chatty the customer',
	},
	{
		displayName:
			"Each message is answered 200 at once and kept in the workflow's static data. The burst starts when this trigger calls its own Production URL (n8n must reach it), else with the next message to the trigger, as after an n8n restart in the middle of a burst (n8n 1.x: once n8n is back). While testing (Test URL) each message starts a run at once.",
		name: 'gatherNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { events: ['message.inbound'], quickMessages: [GATHER_BURSTS] } },
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
