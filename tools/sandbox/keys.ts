/**
 * Default bearer keys the sandbox accepts. They are fake and safe to commit: the sandbox
 * never verifies a signature, it only compares the whole string.
 */

/** JWT-shaped (header.payload.signature, base64url), because the timeline service documents JWT bearer tokens. */
export const DEFAULT_TIMELINE_KEY =
	'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.' +
	'eyJzdWIiOiJzYW5kYm94LXRyYXZlbGxlciIsImlzcyI6InRpbWVsaW5lLW5hdmlnYXRpb24tc2FuZGJveCIsImlhdCI6MTczNTY4OTYwMH0.' +
	'c2FuZGJveC1zaWduYXR1cmUtbm90LXZlcmlmaWVk';

export const DEFAULT_MESSAGING_KEY = 'sandbox-messaging-key-0123456789';

export const MASK = '****';

/** Extracts the token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	const match = /^Bearer\s+(.+)$/i.exec(value?.trim() ?? '');
	return match ? match[1].trim() : undefined;
}

/** Keeps the scheme so a reader can tell Bearer from Basic, hides the credential itself. */
export function maskAuthorization(value: string): string {
	const scheme = /^(\S+)\s+\S/.exec(value.trim());
	return scheme ? `${scheme[1]} ${MASK}` : MASK;
}
