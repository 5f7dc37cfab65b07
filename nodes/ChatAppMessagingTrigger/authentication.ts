// Checks an incoming call against the secret the user set on both sides (the service's
// webhook signing is not documented, so the dashboard's custom headers carry it).
// Comparisons hash both sides first: timingSafeEqual needs equal lengths, and comparing
// fixed-size digests reveals neither the secret's content nor its length through timing.
import { createHash, timingSafeEqual } from 'crypto';

/** Request headers as Node.js gives them (names in lower case). */
export type IncomingHeaders = Record<string, string | string[] | undefined>;

function sameSecret(received: string, expected: string): boolean {
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
