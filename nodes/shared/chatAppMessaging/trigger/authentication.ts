// The trigger's webhook authentication, in one place: checking an incoming call against the
// secret the user set on both sides (the service's webhook signing is not documented, so the
// dashboard's custom headers carry it), and the credential tests of the two webhook credentials.
// Comparisons hash both sides first: timingSafeEqual needs equal lengths, and comparing
// fixed-size digests reveals neither the secret's content nor its length through timing.
import { createHash, timingSafeEqual } from 'crypto';
import type { ICredentialDataDecryptedObject, INodeCredentialTestResult, IWebhookFunctions } from 'n8n-workflow';

/** Request headers as Node.js gives them (names in lower case). */
export type IncomingHeaders = Record<string, string | string[] | undefined>;

/** Whether two secrets match, in a time that reveals neither. */
export function sameSecret(received: string, expected: string): boolean {
	const a = createHash('sha256').update(received, 'utf8').digest();
	const b = createHash('sha256').update(expected, 'utf8').digest();
	return timingSafeEqual(a, b);
}

function headerValue(headers: IncomingHeaders, name: string): string | undefined {
	const value = headers[name.trim().toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}

export type AuthVerdict = { ok: true } | { ok: false; message: string };

export function checkHeaderSecret(headers: IncomingHeaders, headerName: string, secret: string): AuthVerdict {
	const received = headerValue(headers, headerName);
	if (received === undefined) return { ok: false, message: `Missing the "${headerName}" header.` };
	if (!sameSecret(received, secret)) return { ok: false, message: `Wrong value in the "${headerName}" header.` };
	return { ok: true };
}

export function checkBasicAuth(headers: IncomingHeaders, user: string, password: string): AuthVerdict {
	const authorization = headerValue(headers, 'authorization');
	const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
	if (!match) return { ok: false, message: 'Missing basic authentication (an "Authorization: Basic ..." header).' };
	const decoded = Buffer.from(match[1], 'base64').toString('utf8');
	const colon = decoded.indexOf(':');
	// Both parts are always compared, so a wrong user name takes as long as a wrong password.
	const userOk = sameSecret(colon === -1 ? decoded : decoded.slice(0, colon), user);
	const passwordOk = sameSecret(colon === -1 ? '' : decoded.slice(colon + 1), password);
	if (!(userOk && passwordOk)) return { ok: false, message: 'Wrong user name or password.' };
	return { ok: true };
}

type Authentication = 'none' | 'headerAuth' | 'basicAuth';

/** Checks the caller of a webhook call as the trigger's Authentication setting asks. */
export async function checkCaller(this: IWebhookFunctions): Promise<AuthVerdict> {
	const authentication = this.getNodeParameter('authentication', 'none') as Authentication;
	const headers = this.getHeaderData();
	if (authentication === 'headerAuth') {
		const credential = await this.getCredentials<{ headerName: string; secret: string }>(
			'chatAppWebhookHeaderAuthApi',
		);
		return checkHeaderSecret(headers, credential.headerName, credential.secret);
	}
	if (authentication === 'basicAuth') {
		const credential = await this.getCredentials<{ user: string; password: string }>(
			'chatAppWebhookBasicAuthApi',
		);
		return checkBasicAuth(headers, credential.user, credential.password);
	}
	return { ok: true };
}

// Credential tests for the two webhook credentials. They check locally what would make every
// call fail (nothing is sent: the secret is only ever compared with incoming calls).

/** RFC 9110 token characters: what a header name may contain. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Headers the sender or a proxy sets itself, so they cannot carry the secret. */
const RESERVED_HEADERS = new Set(['content-type', 'content-length', 'host', 'connection', 'transfer-encoding']);

function hasControlCharacter(value: string): boolean {
	return [...value].some((character) => character.charCodeAt(0) < 32 || character.charCodeAt(0) === 127);
}

function fail(message: string): INodeCredentialTestResult {
	return { status: 'Error', message };
}

function checkSecretText(label: string, value: unknown): string | undefined {
	if (typeof value !== 'string' || value === '') return `${label} is empty.`;
	if (value !== value.trim()) return `${label} starts or ends with spaces, which HTTP strips: remove them.`;
	if (hasControlCharacter(value)) return `${label} contains a line break or control character, which a header cannot carry.`;
	return undefined;
}

export function checkHeaderAuthCredential(data: ICredentialDataDecryptedObject): INodeCredentialTestResult {
	const headerName = typeof data.headerName === 'string' ? data.headerName.trim() : '';
	if (!HEADER_NAME.test(headerName)) {
		return fail(`Header Name "${headerName}" is not a valid HTTP header name (letters, digits and - only, e.g. X-Webhook-Secret).`);
	}
	if (RESERVED_HEADERS.has(headerName.toLowerCase())) {
		return fail(`Header Name "${headerName}" is set by HTTP itself; choose a custom header such as X-Webhook-Secret.`);
	}
	const problem = checkSecretText('Secret', data.secret);
	if (problem) return fail(problem);
	return { status: 'OK', message: 'The header and secret can be used. Enter the same values in the messaging dashboard.' };
}

export function checkBasicAuthCredential(data: ICredentialDataDecryptedObject): INodeCredentialTestResult {
	const userProblem = checkSecretText('User', data.user);
	if (userProblem) return fail(userProblem);
	if ((data.user as string).includes(':')) return fail('User contains ":", which basic authentication cannot carry.');
	const passwordProblem = checkSecretText('Password', data.password);
	if (passwordProblem) return fail(passwordProblem);
	return { status: 'OK', message: 'The user name and password can be used. Enter the same values in the messaging dashboard.' };
}
