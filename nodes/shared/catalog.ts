// The nodes the three packages ship, as data: what the editor shows of each (names, description,
// icon) and what n8n's node panel searches (its codex: categories and aliases). The three action
// nodes are one class (actionNode/actionNode.ts) given their entry and services; each trigger's
// class takes its description from its entry (timelineNavigation/trigger/trigger.ts,
// chatAppMessaging/trigger/trigger.ts). The build writes each node's codex file (`X.node.json`) from
// here (tools/packages/assemble.ts).
//
// A node of the combined package and its single-service counterpart need different display
// names: n8n records installed nodes by display name and refuses a second package holding one
// already installed.
import type { INodeTypeDescription } from 'n8n-workflow';
import type { Service } from './services';

/** What n8n's node panel reads from a node's codex file, but for the node's type name. */
export interface Codex {
	categories: string[];
	subcategories?: Record<string, string[]>;
	alias: string[];
	/** Documents under docs/ the panel links to. */
	documentation: { primary: string; credentials?: string };
}

export interface NodeEntry {
	/** The node's type name, stored in saved workflows: never rename it once released. */
	name: string;
	displayName: string;
	description: string;
	codex: Codex;
}

/**
 * An action node: also its icon, which services it offers, and the resource a new node opens on.
 * (A trigger's class names its icon itself, where n8n's scanner checks that the files exist.)
 */
export interface ActionNodeEntry extends NodeEntry {
	/** `<icon>.svg` and `<icon>.dark.svg`, beside the node's class. */
	icon: string;
	services: Service[];
	defaultResource: string;
}

/** What each service adds to an action node's codex, so a node of both services is found by either's words. */
const SERVICE_CODEX: Record<Service, Pick<Codex, 'categories' | 'subcategories' | 'alias'>> = {
	timeline: {
		categories: ['Productivity'],
		alias: ['time travel', 'travel', 'timeline', 'anchor', 'pause time', 'resume time', 'rewind', 'fast forward', 'paradox'],
	},
	messaging: {
		// n8n's editor lists nodes of the category HITL under Human review → Send and wait for response.
		categories: ['Communication', 'HITL'],
		subcategories: { HITL: ['Human in the Loop', '*'] },
		alias: [
			'chat-app', 'chat', 'messaging', 'sms', 'send message', 'send text', 'text message', 'send template',
			'template message', 'send media', 'send image', 'send file', 'send location', 'location',
			'delivery status', 'send and wait', 'approval', 'approve', 'human', 'human in the loop', 'hitl', 'form', 'wait',
		],
	},
};

const ACTION_DOCUMENTATION = { primary: 'operations.md', credentials: 'credentials.md' };

function actionNode(entry: Omit<ActionNodeEntry, 'codex'>): ActionNodeEntry {
	const parts = entry.services.map((service) => SERVICE_CODEX[service]);
	const subcategories = Object.assign({}, ...parts.map((part) => part.subcategories ?? {})) as Record<string, string[]>;
	return {
		...entry,
		codex: {
			categories: parts.flatMap((part) => part.categories),
			...(Object.keys(subcategories).length > 0 && { subcategories }),
			alias: [...new Set(parts.flatMap((part) => part.alias))],
			documentation: ACTION_DOCUMENTATION,
		},
	};
}


export const ACTION_NODES = {
	timelineNavigation: actionNode({
		name: 'timelineNavigation',
		displayName: 'Timeline Navigation & Chat-App Messaging',
		description:
			'Send Chat-App messages (text, templates, media, location), ask a person and wait for the answer; travel, anchor, pause, fast-forward and rewind with the Timeline Navigation service',
		icon: 'timelineNavigation',
		services: ['timeline', 'messaging'],
		defaultResource: 'time',
	}),
	timelineNavigationService: actionNode({
		name: 'timelineNavigationService',
		displayName: 'Timeline Navigation',
		description:
			'Drive the Timeline Navigation service: travel, anchors, pause, resume, fast-forward, rewind, events, timelines, items and paradox checks',
		icon: 'timelineNavigation',
		services: ['timeline'],
		defaultResource: 'time',
	}),
	chatAppMessaging: actionNode({
		name: 'chatAppMessaging',
		displayName: 'Chat-App Messaging',
		description:
			"Send Chat-App messages (templates, text, media, location, custom), ask a person and wait for the answer, and check a message's delivery",
		icon: 'chatAppMessaging',
		services: ['messaging'],
		defaultResource: 'message',
	}),
} satisfies Record<string, ActionNodeEntry>;

const TIMELINE_TRIGGER_CODEX: Codex = {
	categories: ['Productivity'],
	alias: ['time travel', 'timeline', 'new event', 'event', 'anomaly', 'paradox', 'monitor', 'poll', 'schedule'],
	documentation: { primary: 'timeline-trigger.md', credentials: 'credentials.md' },
};

const TIMELINE_TRIGGER_DESCRIPTION =
	'Starts the workflow once for each new event at a location or new anomaly in a timeline of the Timeline Navigation service, by polling it';

export const TIMELINE_TRIGGERS = {
	timelineNavigationEventsTrigger: {
		name: 'timelineNavigationEventsTrigger',
		displayName: 'Timeline Navigation Events Trigger',
		description: TIMELINE_TRIGGER_DESCRIPTION,
		codex: TIMELINE_TRIGGER_CODEX,
	},
	timelineEventsTrigger: {
		name: 'timelineEventsTrigger',
		displayName: 'Timeline Events Trigger',
		description: TIMELINE_TRIGGER_DESCRIPTION,
		codex: TIMELINE_TRIGGER_CODEX,
	},
} satisfies Record<string, NodeEntry>;

const MESSAGING_TRIGGER_CODEX: Codex = {
	categories: ['Communication'],
	alias: ['chat-app', 'chat', 'messaging', 'inbound message', 'reply', 'delivery status', 'read receipt', 'webhook'],
	documentation: { primary: 'trigger.md' },
};

/** What the node panel shows under the trigger's name, in every package: it starts, it does not send. */
const MESSAGING_TRIGGER_DESCRIPTION = 'Starts the workflow when a customer writes to your Chat-App number, or a message you sent is delivered or read';

// n8n's node panel shows a trigger with several events without the word "Trigger": the rest of
// the name must still say it is where messages come in, and differ from every action node's name
// ("Chat-App Messaging" is the Chat-App Messaging package's action node).
export const MESSAGING_TRIGGERS = {
	chatAppMessagingTrigger: {
		name: 'chatAppMessagingTrigger',
		displayName: 'Chat-App Messaging Inbox Trigger',
		description: MESSAGING_TRIGGER_DESCRIPTION,
		codex: MESSAGING_TRIGGER_CODEX,
	},
	chatAppTrigger: {
		name: 'chatAppTrigger',
		displayName: 'Chat-App Inbox Trigger',
		description: MESSAGING_TRIGGER_DESCRIPTION,
		codex: MESSAGING_TRIGGER_CODEX,
	},
} satisfies Record<string, NodeEntry>;

/** Each node's codex, by the node's type name. */
export const CODEX: Record<string, Codex> = Object.fromEntries(
	[...Object.values(ACTION_NODES), ...Object.values(TIMELINE_TRIGGERS), ...Object.values(MESSAGING_TRIGGERS)].map((entry) => [entry.name, entry.codex]),
);

/** What a node's description takes from its entry: its names and description. */
export function namingOf(entry: NodeEntry): Pick<INodeTypeDescription, 'displayName' | 'name' | 'description' | 'defaults'> {
	return {
		displayName: entry.displayName,
		name: entry.name,
		description: entry.description,
		defaults: { name: entry.displayName },
	};
}
