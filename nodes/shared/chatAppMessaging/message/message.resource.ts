import type { ResourceDefinition } from '../../actionNode/operation';
import { getStatus } from './getStatus.operation';
import { sendAndWait } from './sendAndWait.operation';
import { sendCustom } from './sendCustom.operation';
import { sendLocation } from './sendLocation.operation';
import { sendMedia } from './sendMedia.operation';
import { sendTemplate } from './sendTemplate.operation';
import { sendText } from './sendText.operation';

export const messageResource: ResourceDefinition = {
	value: 'message',
	name: 'Message',
	service: 'messaging',
	defaultOperation: 'sendTemplate',
	operations: [getStatus, sendAndWait, sendCustom, sendLocation, sendMedia, sendTemplate, sendText],
};
