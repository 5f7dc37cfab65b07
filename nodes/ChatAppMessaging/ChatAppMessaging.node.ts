import { ActionNode } from '../shared/actionNode/actionNode';
import { ACTION_NODES } from '../shared/catalog';
import { MESSAGING_ACTIONS } from '../shared/chatAppMessaging/resources';

/** The Chat-App Messaging package's action node: the messaging service's operations only. */
export class ChatAppMessaging extends ActionNode {
	constructor() {
		super(ACTION_NODES.chatAppMessaging, [MESSAGING_ACTIONS]);
	}
}
