/** `text` as a regular expression that matches it literally: "Time → Travel (1.1)" stays as written. */
export function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
