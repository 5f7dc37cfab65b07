// When each customer last wrote in, as one trigger node of one n8n process saw it, so that an
// inbound item can say when the same number's previous message came (`previous_inbound_at`):
// a workflow then answers the first message of a conversation and not every message of a burst.
// Checked and updated without awaiting anything, so two calls handled by one process always see
// each other, however close together. It lives in the process only: after a restart, or on
// another webhook process, a conversation's first message there has no previous one.
// Bounded like the repeat memory: the past REMEMBER_FOR_MS and the MAX_REMEMBERED latest senders.
import { MAX_REMEMBERED, REMEMBER_FOR_MS } from './deliveryMemory';

interface LastInbound {
	/** The message's own `timestamp`, as the service wrote it. */
	timestamp: string;
	/** When this process received it (ms). */
	receivedAt: number;
}

/** Per workflow and trigger node: sender -> their latest message, least recently written first. */
const memories = new Map<string, Map<string, LastInbound>>();

function forget(senders: Map<string, LastInbound>, now: number): void {
	for (const [sender, last] of senders) {
		if (senders.size <= MAX_REMEMBERED && now - last.receivedAt < REMEMBER_FOR_MS) break;
		senders.delete(sender);
	}
}

/**
 * Records an inbound message from `from` at `timestamp` and returns the timestamp of the
 * latest earlier one this trigger received from the same number, or null. An unsaved workflow
 * (no id) has nothing stable to remember by: always null.
 */
export function previousInbound(
	owner: { workflowId: string | undefined; nodeName: string },
	from: string,
	timestamp: string,
	now = Date.now(),
): string | null {
	if (!owner.workflowId) return null;
	const scope = `${owner.workflowId}\u0000${owner.nodeName}`;
	let senders = memories.get(scope);
	if (!senders) {
		senders = new Map();
		memories.set(scope, senders);
	}
	forget(senders, now);
	const previous = senders.get(from);
	const latest = previous && Date.parse(previous.timestamp) > Date.parse(timestamp) ? previous.timestamp : timestamp;
	// Deleted and set again: the map keeps the least recently written sender first.
	senders.delete(from);
	senders.set(from, { timestamp: latest, receivedAt: now });
	return previous?.timestamp ?? null;
}
