/**
 * The credentials `npm start` and the e2e suite create in n8n, all pointing at the sandbox,
 * and the headers the sandbox must send with its webhooks to pass the trigger's optional
 * authentication (header secret or basic auth).
 */
import type { CredentialInput, StoredCredential, WorkflowJson } from './client';
import { NODE_TYPES } from './communityPackage';

export const SANDBOX_CREDENTIAL_NAMES = {
	timeline: 'Timeline Navigation (sandbox)',
	messaging: 'Chat-App Messaging (sandbox)',
	webhookHeader: 'Chat-App Webhook Secret (sandbox)',
	webhookBasic: 'Chat-App Webhook Basic Auth (sandbox)',
} as const;

export const SANDBOX_WEBHOOK_AUTH = {
	headerName: 'X-Webhook-Secret',
	secret: 'sandbox-webhook-secret-0123456789',
	user: 'sandbox',
	password: 'sandbox-webhook-password-0123',
} as const;

export function sandboxCredentials(sandbox: {
	url: string;
	timelineKey: string;
	messagingKey: string;
}): CredentialInput[] {
	return [
		{
			name: SANDBOX_CREDENTIAL_NAMES.timeline,
			type: 'timelineNavigationApi',
			data: { baseUrl: sandbox.url, accessToken: sandbox.timelineKey },
		},
		{
			name: SANDBOX_CREDENTIAL_NAMES.messaging,
			type: 'chatAppMessagingApi',
			data: { baseUrl: sandbox.url, apiKey: sandbox.messagingKey },
		},
		{
			name: SANDBOX_CREDENTIAL_NAMES.webhookHeader,
			type: 'chatAppWebhookHeaderAuthApi',
			data: { headerName: SANDBOX_WEBHOOK_AUTH.headerName, secret: SANDBOX_WEBHOOK_AUTH.secret },
		},
		{
			name: SANDBOX_CREDENTIAL_NAMES.webhookBasic,
			type: 'chatAppWebhookBasicAuthApi',
			data: { user: SANDBOX_WEBHOOK_AUTH.user, password: SANDBOX_WEBHOOK_AUTH.password },
		},
	];
}

/** Credentials by role, from the list importCredentials returned for sandboxCredentials(). */
export function byRole(stored: StoredCredential[]): Record<keyof typeof SANDBOX_CREDENTIAL_NAMES, StoredCredential> {
	const find = (name: string) => {
		const c = stored.find((s) => s.name === name);
		if (!c) throw new Error(`credential "${name}" was not imported`);
		return c;
	};
	return {
		timeline: find(SANDBOX_CREDENTIAL_NAMES.timeline),
		messaging: find(SANDBOX_CREDENTIAL_NAMES.messaging),
		webhookHeader: find(SANDBOX_CREDENTIAL_NAMES.webhookHeader),
		webhookBasic: find(SANDBOX_CREDENTIAL_NAMES.webhookBasic),
	};
}

/**
 * The headers the sandbox sends with each webhook so that this workflow's trigger (of type
 * `triggerType`, default the combined package's) accepts it.
 */
export function webhookHeadersFor(workflow: WorkflowJson, triggerType: string = NODE_TYPES.trigger): Record<string, string> {
	const trigger = workflow.nodes.find((n) => n.type === triggerType);
	const auth = trigger?.parameters?.authentication;
	if (auth === 'basicAuth') {
		const token = Buffer.from(`${SANDBOX_WEBHOOK_AUTH.user}:${SANDBOX_WEBHOOK_AUTH.password}`).toString('base64');
		return { Authorization: `Basic ${token}` };
	}
	if (auth === 'headerAuth') return { [SANDBOX_WEBHOOK_AUTH.headerName]: SANDBOX_WEBHOOK_AUTH.secret };
	return {};
}
