// The Chat-App Messaging package's trigger: the combined package's trigger under its own names.
// n8n records installed nodes by display name and refuses a package with a node of a display
// name already installed, so the two packages can sit in one n8n only if these differ.
import type { INodeTypeDescription } from 'n8n-workflow';
import { ChatAppMessagingTrigger } from '../../ChatAppMessagingTrigger.node';

export class ChatAppTrigger extends ChatAppMessagingTrigger {
	description: INodeTypeDescription = {
		...new ChatAppMessagingTrigger().description,
		displayName: 'Chat-App Trigger',
		name: 'chatAppTrigger',
		icon: { light: 'file:chatAppTrigger.svg', dark: 'file:chatAppTrigger.dark.svg' },
		defaults: { name: 'Chat-App Trigger' },
	};
}
