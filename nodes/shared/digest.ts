// The short, fixed-size fingerprint the triggers remember things by (a delivery, an event, an
// anomaly): 54 bits of SHA-256 in 9 base64url characters. Among 10,000 remembered things, a new
// one is taken for a remembered one with a chance of about 1 in 3·10^12.
import { createHash } from 'crypto';

export const DIGEST_LENGTH = 9;

export function digestOf(text: string): string {
	return createHash('sha256').update(text, 'utf8').digest('base64url').slice(0, DIGEST_LENGTH);
}
