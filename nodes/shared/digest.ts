// The short, fixed-size fingerprint the triggers remember things by (a delivery, an event, an
// anomaly): 54 bits of SHA-256 in 9 base64url characters. Among 10,000 remembered things, a new
// one is taken for a remembered one with a chance of about 1 in 3·10^12.
import * as crypto from 'crypto';

export const DIGEST_LENGTH = 9;

// One-shot hashing (Node 20.12+) takes about half the time of a Hash object for short texts, and a
// poll fingerprints every event in its window; an older Node (n8n 1.x allows 18) has only the latter.
const sha256 =
	typeof crypto.hash === 'function'
		? (text: string) => crypto.hash('sha256', text, 'base64url')
		: (text: string) => crypto.createHash('sha256').update(text, 'utf8').digest('base64url');

export function digestOf(text: string): string {
	return sha256(text).slice(0, DIGEST_LENGTH);
}
