/**
 * What a chat app does with a link in a message it accepts: its preview bot fetches (GET) the
 * page to draw a preview card, before and whether or not the recipient ever taps it. With the
 * setting `linkPreviews` on, the sandbox does the same for every http(s) link in the text of
 * each outbound message, one link after the other, and records what each fetch got.
 */
import http from 'node:http';
import https from 'node:https';
import type { LinkPreview } from './types';

/** As chat apps' preview bots announce themselves (WhatsApp's and Facebook's crawler). */
export const PREVIEW_USER_AGENT = 'WhatsApp/2.24.1 A facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php) SandboxLinkPreview';

const LINK = /https?:\/\/[^\s<>"'`]+/gi;
const PREVIEW_TIMEOUT_MS = 5000;
/** A preview needs the page's head only. */
const MAX_BODY_BYTES = 64 * 1024;

/** The http(s) links in a text, in order, without the punctuation that ends a sentence. */
export function findLinks(text: string): string[] {
	return (text.match(LINK) ?? []).map((link) => link.replace(/[.,;:!?)\]]+$/, ''));
}

function titleOf(html: string): string | undefined {
	const match = /<title[^>]*>([^<]*)<\/title>/i.exec(html);
	return match ? match[1].trim() : undefined;
}

/** One GET as a preview bot sends it: no cookies, no redirects followed, the head of the page read. */
export function fetchPreview(url: string): Promise<LinkPreview> {
	const preview: LinkPreview = { url, userAgent: PREVIEW_USER_AGENT, startedAt: new Date().toISOString() };
	return new Promise((resolve) => {
		const done = (changes: Partial<LinkPreview>) => resolve({ ...preview, ...changes, finishedAt: new Date().toISOString() });
		let request: http.ClientRequest;
		try {
			const client = url.startsWith('https:') ? https : http;
			request = client.get(url, { headers: { 'User-Agent': PREVIEW_USER_AGENT, Accept: 'text/html,*/*;q=0.8' }, agent: false, timeout: PREVIEW_TIMEOUT_MS }, (res) => {
				const chunks: Buffer[] = [];
				let size = 0;
				res.on('data', (chunk: Buffer) => {
					size += chunk.length;
					if (size <= MAX_BODY_BYTES) chunks.push(chunk);
					else res.destroy();
				});
				const finish = () =>
					done({
						status: res.statusCode,
						contentType: res.headers['content-type'],
						title: titleOf(Buffer.concat(chunks).toString('utf8')),
					});
				res.on('end', finish);
				res.on('close', finish);
			});
		} catch (error) {
			done({ error: (error as Error).message });
			return;
		}
		request.on('timeout', () => request.destroy(new Error(`no answer within ${PREVIEW_TIMEOUT_MS} ms`)));
		request.on('error', (error) => done({ error: error.message }));
	});
}
