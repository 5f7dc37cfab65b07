'use strict';
// Programmatic entry point: the built node and credential classes.
// n8n itself loads them through the "n8n" attribute of package.json.
module.exports = {
	TimelineNavigation: require('./dist/nodes/TimelineNavigation/TimelineNavigation.node.js')
		.TimelineNavigation,
	ChatAppMessagingTrigger:
		require('./dist/nodes/ChatAppMessagingTrigger/ChatAppMessagingTrigger.node.js')
			.ChatAppMessagingTrigger,
	TimelineNavigationApi: require('./dist/credentials/TimelineNavigationApi.credentials.js')
		.TimelineNavigationApi,
	ChatAppMessagingApi: require('./dist/credentials/ChatAppMessagingApi.credentials.js')
		.ChatAppMessagingApi,
	ChatAppWebhookBasicAuthApi: require('./dist/credentials/ChatAppWebhookBasicAuthApi.credentials.js')
		.ChatAppWebhookBasicAuthApi,
	ChatAppWebhookHeaderAuthApi: require('./dist/credentials/ChatAppWebhookHeaderAuthApi.credentials.js')
		.ChatAppWebhookHeaderAuthApi,
};
