// The Chat-App Messaging package's trigger: the combined package's under its own names and icon
// (see ../shared/catalog.ts for why the names differ).
import type { INodeTypeDescription } from 'n8n-workflow';
import { ChatAppMessagingTrigger } from '../ChatAppMessagingTrigger/ChatAppMessagingTrigger.node';
import { MESSAGING_TRIGGERS, namingOf } from '../shared/catalog';

export class ChatAppTrigger extends ChatAppMessagingTrigger {
	description: INodeTypeDescription = {
		...new ChatAppMessagingTrigger().description,
		...namingOf(MESSAGING_TRIGGERS.chatAppTrigger),
		icon: { light: 'file:chatAppTrigger.svg', dark: 'file:chatAppTrigger.dark.svg' },
	};
}
