// Times the services send. Both documents write them as ISO 8601 date-times in UTC; a time that
// carries no zone ("2030-06-01T10:00:00") is therefore read as UTC, never in the time zone n8n
// runs in (JavaScript's Date.parse would read it as local time, so the same answer would mean
// another instant on another server).
const WITHOUT_ZONE = /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?$/;

/** Milliseconds since the epoch of a time the service wrote, or NaN when it is not a time. */
export function parseServiceTime(value: unknown): number {
	if (typeof value !== 'string') return Number.NaN;
	// Most times end in "Z": no zone to add (a poll reads every event's time).
	if (value.endsWith('Z')) return Date.parse(value);
	const text = value.trim();
	return Date.parse(WITHOUT_ZONE.test(text) ? `${text.replace(' ', 'T')}Z` : text);
}
