/**
 * The example workflows (examples/*.json) and the sandbox data they need to run out of the box:
 * events at the event-alerts example's location within the last day, the contact whose
 * `first_name` fills the inbound reply's `{first_name}`, and the template the refund example
 * asks the manager with when the manager's 24-hour window is closed. Used by `npm start` and the e2e suite.
 * `npm start` also seeds one timeline with an anchor and an item, so that every timeline
 * picker in the editor has something to list, and opens Ada's 24-hour window (seedDemo).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { SandboxClient } from '../sandbox/client';
import { api } from '../sandbox/testkit';
import { wireCredentials, type N8nClient, type StoredCredential, type WorkflowJson } from './client';
import { PROJECT_ROOT } from './runtime';

export const EXAMPLES_DIR = path.join(PROJECT_ROOT, 'examples');

/** What the examples use; keep in step with the JSON files. */
export const EXAMPLE_DATA = {
	location: 'Alexandria, Egypt',
	customerPhone: '+14155550123',
	/**
	 * The number of `npm start`'s "simulate an inbound message" curl line: Ada, whose window the
	 * demo opens, so that the contact whose window is closed stays closed.
	 */
	demoPhone: '+14155550123',
	contacts: [
		{ phone: '+14155550123', fields: { first_name: 'Ada' } },
		{ phone: '+15551234567', fields: { first_name: 'Grace' } },
	],
	/**
	 * At `npm start`, Ada has just written in: her 24-hour window is open for the first 24 hours of
	 * the demo, so a text (or a Send and Wait question) to her goes out as it is.
	 */
	openWindow: { phone: '+14155550123', text: 'Hi, is my refund for order #1042 on its way?' },
	/** Grace never writes in: her window stays closed, for trying Fallback to Template. */
	closedWindowPhone: '+15551234567',
	/** Who the refund example asks (its "Refund Request" node). */
	managerPhone: '+14155550124',
	/**
	 * The templates the refund example falls back on when a 24-hour window is closed: the
	 * manager's question (with the link), and the customer's answer for each outcome.
	 */
	templates: [
		{
			id: 'approval_request',
			body: 'Your approval is needed: {{1}}. Answer here: {{2}}',
			parameters: [{ name: 'request' }, { name: 'link', pattern: '^https?://\\S+$' }],
		},
		...(
			[
				['refund_approved', 'Hi {{1}}, your refund of {{2}} for order {{3}} is approved. It reaches your account within 5 working days.'],
				['refund_declined', 'Hi {{1}}, we could not approve the refund of {{2}} for order {{3}}. A colleague will write to you to explain and to find another way.'],
				['refund_delayed', 'Hi {{1}}, your refund of {{2}} for order {{3}} needs a little longer: a manager decides by tomorrow, and we will write to you then.'],
			] as const
		).map(([id, body]) => ({
			id,
			body,
			parameters: [
				{ name: 'customer name', pattern: '\\p{L}' },
				{ name: 'amount', pattern: '^\\$[0-9][0-9,]*\\.[0-9]{2}$' },
				{ name: 'order number', pattern: '^#?[0-9]+$' },
			],
		})),
	],
	/** Seeded relative to now, so the event-alerts example's "last 24 hours" always holds them. */
	events: [
		{ hoursAgo: 5, description: 'The lighthouse of Pharos is lit for the first time' },
		{ hoursAgo: 2, description: 'A ship from Rhodes arrives in the Great Harbour' },
	],
	/** The timeline `npm start` seeds, with an anchor and an item (fixed points at the traveller's now). */
	timeline: {
		name: 'Library of Alexandria',
		description: 'Seeded by npm start: one anchor and one item',
		anchorDescription: 'The day the scrolls were counted',
		itemName: 'Scroll of Callimachus',
	},
} as const;

export const EXAMPLE_FILES = {
	eventAlerts: '01-new-event-alerts.json',
	inboundReply: '02-inbound-message-reply.json',
	deliveryTracking: '03-delivery-tracking.json',
	statusWebhook: '04-delivery-status-webhook.json',
	session: '05-timeline-session.json',
	refundApproval: '06-refund-approval.json',
	agentBurstReply: '07-ai-agent-burst-reply.json',
} as const;

/** The requests the timeline-session example makes, in order, when nothing fails (the last one travels home). */
export const SESSION_REQUESTS = [
	'POST /v1/set-anchor',
	'POST /v1/pause-time',
	'POST /v1/travel',
	'POST /v1/fast-forward',
	'POST /v1/resume-time',
	'POST /v1/travels',
	'POST /v1/travel',
] as const;

/**
 * What example 02 answers a message sent at `timestamp` (ISO 8601), in the workflow's time zone
 * (n8n's, unless the workflow sets one): as its Luxon format "HH:mm ZZZZ 'on' cccc d LLLL" writes
 * it in English, and without the name for a number it does not know.
 */
export function inboundReplyText(firstName: string | undefined, timestamp: string, timeZone: string): string {
	const answerBy = new Date(Date.parse(timestamp) + 3600_000);
	const part = (options: Intl.DateTimeFormatOptions, type: Intl.DateTimeFormatPartTypes) =>
		new Intl.DateTimeFormat('en-US', { timeZone, ...options }).formatToParts(answerBy).find((p) => p.type === type)!.value;
	const time = `${part({ hour: '2-digit', hourCycle: 'h23' }, 'hour')}:${part({ minute: '2-digit' }, 'minute').padStart(2, '0')}`;
	const zone = part({ timeZoneName: 'short' }, 'timeZoneName');
	const day = `${part({ weekday: 'long' }, 'weekday')} ${part({ day: 'numeric' }, 'day')} ${part({ month: 'long' }, 'month')}`;
	return `Hi${firstName ? ` ${firstName}` : ''}, thanks for your message. A person will answer by ${time} ${zone} on ${day}.`;
}

export function readExample(file: string): WorkflowJson {
	return JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as WorkflowJson;
}

/** Seeds the events, contacts and templates; returns the events as the sandbox stores them (ISO times). */
export async function seedExampleData(
	client: SandboxClient,
	now = Date.now(),
): Promise<Array<{ location: string; time: string; description: string }>> {
	for (const c of EXAMPLE_DATA.contacts) await client.seedContact(c.phone, { ...c.fields });
	for (const t of EXAMPLE_DATA.templates) await client.seedTemplate({ ...t, parameters: t.parameters.map((p) => ({ ...p })) });
	const seeded = [];
	for (const e of EXAMPLE_DATA.events) {
		const event = {
			location: EXAMPLE_DATA.location,
			time: new Date(now - e.hoursAgo * 3600_000).toISOString(),
			description: e.description,
		};
		await client.seedEvent(event);
		seeded.push(event);
	}
	return seeded;
}

/**
 * What `npm start` seeds: the examples' data, Ada's message (her window opens for 24 hours; a
 * message from before n8n listened, so no webhook is sent for it) and the demo timeline.
 */
export async function seedDemo(sandbox: { url: string; timelineKey: string; client: SandboxClient }) {
	const events = await seedExampleData(sandbox.client);
	await sandbox.client.inbound(EXAMPLE_DATA.openWindow.phone, EXAMPLE_DATA.openWindow.text, { history: true });
	const timeline = await seedDemoTimeline(sandbox);
	return { events, timeline };
}

export interface DemoTimeline {
	timelineId: string;
	anchorId: string;
	itemId: string;
}

/**
 * Creates EXAMPLE_DATA.timeline through the service API with the timeline key (each key has
 * its own timelines), then an anchor and an item in it.
 */
export async function seedDemoTimeline(sandbox: { url: string; timelineKey: string }): Promise<DemoTimeline> {
	const service = api(sandbox.url, sandbox.timelineKey);
	const post = async (path: string, body: object) => {
		const response = await service.post(path, body);
		if (response.status !== 201) throw new Error(`Seeding POST ${path} failed: HTTP ${response.status} ${JSON.stringify(response.data)}`);
		return response.data;
	};
	const { name, description, anchorDescription, itemName } = EXAMPLE_DATA.timeline;
	const timeline = await post('/timelines', { name, description });
	const anchor = await post('/anchors', { timeline_id: timeline.timeline_id, description: anchorDescription });
	const item = await post('/items', { timeline_id: timeline.timeline_id, name: itemName });
	return { timelineId: timeline.timeline_id, anchorId: anchor.anchor_id, itemId: item.item_id };
}

/** Imports one example with its credentials wired by type; returns the workflow id. */
export async function importExample(n8n: N8nClient, file: string, creds: StoredCredential[]): Promise<string> {
	return n8n.importWorkflow(wireCredentials(readExample(file), creds));
}
