/**
 * The owner account of a fresh n8n (or a login on an existing one) and a public API key, through
 * the REST calls n8n's set-up page and Settings → n8n API make.
 */
import { BROWSER_ID, request, restHeaders } from './client';

export const DEFAULT_OWNER = {
	email: 'owner@example.com',
	firstName: 'Sandbox',
	lastName: 'Owner',
	password: 'Sandbox-Owner-1',
} as const;
const API_KEY_LABEL = 'timeline-navigation-tests';

async function login(url: string, email: string, password: string): Promise<string | undefined> {
	const res = await fetch(`${url}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'browser-id': BROWSER_ID },
		body: JSON.stringify({ emailOrLdapLoginId: email, password }),
	});
	if (!res.ok) return undefined;
	const cookie = res.headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.find((c) => c.startsWith('n8n-auth='));
	return cookie;
}

/** Sets the owner up on a fresh instance, or logs in on an existing one. Returns the cookie. */
export async function ownerSession(
	url: string,
	owner: { email: string; firstName: string; lastName: string; password: string },
): Promise<string> {
	const existing = await login(url, owner.email, owner.password);
	if (existing) return existing;
	const res = await request(`${url}/rest/owner/setup`, 'POST', owner, { 'browser-id': BROWSER_ID }, true);
	if (res.status >= 400) {
		throw new Error(
			`owner setup failed (${res.status}: ${JSON.stringify(res.body)}); if this user folder has ` +
				`another owner, remove it or pass its owner`,
		);
	}
	const cookie = await login(url, owner.email, owner.password);
	if (!cookie) throw new Error('login after owner setup failed');
	return cookie;
}

export async function createApiKey(url: string, cookie: string): Promise<string> {
	const headers = restHeaders(cookie);
	const list = await request(`${url}/rest/api-keys`, 'GET', undefined, headers);
	const data = list.body?.data;
	const keys: any[] = Array.isArray(data) ? data : (data?.items ?? []);
	for (const key of keys) {
		if (key.label === API_KEY_LABEL) {
			await request(`${url}/rest/api-keys/${key.id}`, 'DELETE', undefined, headers, true);
		}
	}
	const scopesRes = await request(`${url}/rest/api-keys/scopes`, 'GET', undefined, headers, true);
	const scopes: string[] = Array.isArray(scopesRes.body?.data) ? scopesRes.body.data : [];
	const res = await request(`${url}/rest/api-keys`, 'POST', { label: API_KEY_LABEL, scopes, expiresAt: null }, headers);
	const raw = res.body?.data?.rawApiKey ?? res.body?.data?.apiKey;
	if (!raw) throw new Error(`no rawApiKey in ${JSON.stringify(res.body).slice(0, 300)}`);
	return raw;
}
