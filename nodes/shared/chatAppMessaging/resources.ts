// The Chat-App Messaging service's actions: its resource, and the waiting webhooks that answer
// Send and Wait's link.
import type { ServiceActions } from '../actionNode/operation';
import { messageResource } from './message/message.resource';
import { SEND_AND_WAIT_TOOLTIP, SEND_AND_WAIT_WEBHOOKS } from './sendAndWait/description';
import { sendAndWaitWebhook } from './sendAndWait/webhook';

export const MESSAGING_ACTIONS: ServiceActions = {
	resources: [messageResource],
	waitingWebhook: { webhooks: SEND_AND_WAIT_WEBHOOKS, tooltip: SEND_AND_WAIT_TOOLTIP, answer: sendAndWaitWebhook },
};
