// The Chat-App Messaging package's trigger: the combined package's trigger under its own names
// (see ../shared/catalog.ts for why the names differ).
import type { INodeTypeDescription } from 'n8n-workflow';
import { ChatAppMessagingTrigger } from '../ChatAppMessagingTrigger/ChatAppMessagingTrigger.node';

export class ChatAppTrigger extends ChatAppMessagingTrigger {
	description: INodeTypeDescription = {
		...new ChatAppMessagingTrigger().description,
		displayName: 'Chat-App Inbox Trigger',
		name: 'chatAppTrigger',
		icon: { light: 'file:chatAppTrigger.svg', dark: 'file:chatAppTrigger.dark.svg' },
		defaults: { name: 'Chat-App Inbox Trigger' },
	};
}
