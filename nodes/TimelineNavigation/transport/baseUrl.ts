// The one rule for a credential's Base URL, used by the node's requests and by both
// credentials' test requests: `https://host`, `https://host/` and `https://host/v1/` all mean
// the service root, and `/v1` is added exactly once.

/** A trailing `/v1` (any case) and any slashes around it. */
const SERVICE_ROOT_SUFFIX = /\/*(\/v1)?\/*$/i;

export function normalizeBaseUrl(raw: string): string {
	return `${String(raw ?? '').trim().replace(SERVICE_ROOT_SUFFIX, '')}/v1`;
}

/** The same rule as an n8n expression, for a credential's `test.request.baseURL`. */
export const BASE_URL_EXPRESSION = `={{$credentials.baseUrl.trim().replace(${SERVICE_ROOT_SUFFIX.toString()}, "")}}/v1`;
