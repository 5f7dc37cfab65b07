/**
 * The guided tour of `npm start`: the sandbox page's "start here" (write as Ada, add an event, add
 * an anomaly, ask for a refund), each step started from the page and answered on a phone, and the
 * workflow that makes events and anomalies reach Ada's phone within a minute of being added: example
 * 01's event alert, polling every minute, beside an anomaly alert on the demo timeline. npm start
 * publishes it with examples 02 (the reply) and 06 (the refund approval); see demo.ts.
 */
import type { SandboxClient } from '../sandbox/client';
import { HttpError } from '../sandbox/http';
import type { Tour, TourStep } from '../sandbox/tour';
import type { N8nClient, WorkflowJson } from './client';
import { fetchOnOpenConnection } from './client';
import { NODE_TYPES } from './communityPackage';
import { EXAMPLE_DATA, EXAMPLE_FILES, readExample } from './examples';

/** The alerts workflow's record among the examples npm start keeps (demoExamples.ts). */
export const ALERTS_KEY = 'sandbox-demo-alerts';

/** The anomaly alert's template: the demo seeds it into the sandbox (event alerts use the sandbox's `event_alert`). */
export const ANOMALY_ALERT_TEMPLATE = {
	id: 'anomaly_alert',
	body: 'Anomaly alert in the timeline {{1}}: a {{2}} on {{3}}: {{4}}',
	parameters: [{ name: 'timeline' }, { name: 'type' }, { name: 'time' }, { name: 'description' }],
};

const EVERY_MINUTE = { item: [{ mode: 'everyMinute' }] };

/** The demo timeline in the sandbox's world now (a reset seeds it with another id), if it is there. */
export async function demoTimeline(sandbox: SandboxClient): Promise<{ id: string; name: string } | undefined> {
	const view = await sandbox.view();
	const found = view.worlds.flatMap((w) => w.timelines).find((t) => t.name === EXAMPLE_DATA.timeline.name);
	return found && { id: found.timeline_id, name: found.name };
}

/**
 * Example 01 (its trigger and alert, polling every minute instead of every 5 minutes) and, when
 * the demo timeline is there, a trigger on its anomalies with an alert of its own, both to Ada.
 */
export function alertsWorkflow(timeline: { id: string; name: string } | undefined): WorkflowJson {
	const example = readExample(EXAMPLE_FILES.eventAlerts);
	const nodes = example.nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote');
	const eventTrigger = nodes.find((n) => n.type === NODE_TYPES.pollingTrigger)!;
	eventTrigger.parameters.pollTimes = EVERY_MINUTE;
	const eventAlert = nodes.find((n) => n.parameters.templateId === 'event_alert')!;
	const connections: Record<string, unknown> = { ...example.connections };
	const note = [
		'## Sandbox demo: alerts within a minute',
		'Published by `npm start` so that an event or an anomaly added on the sandbox page (its "start here") reaches Ada\'s phone within about a minute.',
		`**${eventTrigger.name}** is example 01's trigger, polling every minute instead of every 5 minutes; its alert is example 01's.`,
		timeline
			? `**New Anomaly in ${timeline.name}** watches the demo timeline (${timeline.id}) and sends the \`${ANOMALY_ALERT_TEMPLATE.id}\` template.`
			: 'The demo timeline was not there when this was published: Reset on the sandbox page seeds it and publishes this again.',
		"Reset on the page imports this workflow afresh (what it remembers is forgotten), unless you changed it here. To change an alert for real, start from example 01's own workflow.",
	].join('\n\n');
	nodes.push({
		id: 'b0e6c4a1-6f5d-4c1e-9a3b-2d7e8f9a0b1c',
		name: 'About this workflow',
		type: 'n8n-nodes-base.stickyNote',
		typeVersion: 1,
		position: [-40, -100],
		parameters: { content: note, height: 320, width: 700, color: 7 },
	});
	if (timeline) {
		const trigger = `New Anomaly in ${timeline.name}`;
		const alert = 'Alert the Customer of the Anomaly';
		nodes.push(
			{
				id: '4c2a9e7b-1d3f-4b6a-8e5c-7f9a0b1c2d3e',
				name: trigger,
				type: NODE_TYPES.pollingTrigger,
				typeVersion: 1,
				position: [0, 620],
				parameters: { pollTimes: EVERY_MINUTE, event: 'newAnomaly', timelineId: { __rl: true, mode: 'id', value: timeline.id }, options: {} },
				credentials: eventTrigger.credentials,
			},
			{
				id: '9e1f3a5c-7b2d-4e6f-8a0b-1c3d5e7f9a2b',
				name: alert,
				type: NODE_TYPES.action,
				typeVersion: 1,
				position: [260, 620],
				parameters: {
					resource: 'message',
					operation: 'sendTemplate',
					to: eventAlert.parameters.to,
					templateId: ANOMALY_ALERT_TEMPLATE.id,
					templateParameters: {
						placeholder1: { value: timeline.name },
						placeholder2: { value: '={{ $json.type }}' },
						// the time as example 01 writes it
						placeholder3: eventAlert.parameters.templateParameters.placeholder2,
						placeholder4: { value: "={{ $json.description || 'no description given' }}" },
					},
				},
				credentials: eventAlert.credentials,
			},
		);
		connections[trigger] = { main: [[{ node: alert, type: 'main', index: 0 }]] };
	}
	return { name: 'Sandbox demo: alert Ada of new events and anomalies, every minute', nodes, connections, settings: example.settings };
}

/** What a step of the tour needs of the demo, as it is at the moment the step starts. */
export interface TourContext {
	sandbox: () => SandboxClient;
	/** n8n, once npm start has put the workflows into it. */
	n8n: () => N8nClient | undefined;
	/** The refund example's workflow in n8n, when npm start put it there. */
	refundWorkflowId(): string | undefined;
	/** What Reset does and keeps, as the demo stands now. */
	resetNote(): string;
}

const ADA = EXAMPLE_DATA.customerPhone;
const REFUND = { order: '#1042', amount: 250, customer_name: 'Ada', customer_phone: ADA };
const REFUND_TEXT = `$${REFUND.amount}.00`;

const STEPS: TourStep[] = [
	{
		id: 'write',
		label: 'Write as Ada',
		happens: 'Ada writes "Hello, is my order on its way?". The reply example answers her within seconds: look at Ada\'s phone.',
		phone: ADA,
	},
	{
		id: 'event',
		label: `Add an event at ${EXAMPLE_DATA.location}`,
		happens: "The demo's alert workflow asks for new events every minute: Ada's phone gets an event alert within about a minute.",
		phone: ADA,
	},
	{
		id: 'anomaly',
		label: `Add an anomaly to ${EXAMPLE_DATA.timeline.name}`,
		happens: "The same workflow watches the timeline's anomalies every minute: Ada's phone gets an anomaly alert within about a minute.",
		phone: ADA,
	},
	{
		id: 'refund',
		label: `Ask for a ${REFUND_TEXT} refund for Ada`,
		happens: `The refund example asks the manager: the manager's phone gets a link. Open it, click Approve refund, and Ada's phone is told.`,
		phone: EXAMPLE_DATA.managerPhone,
	},
];

/** Where the refund example listens: its Webhook node's path under n8n's production webhooks. */
function refundUrl(n8n: N8nClient): string {
	const webhook = readExample(EXAMPLE_FILES.refundApproval).nodes.find((n) => n.type === 'n8n-nodes-base.webhook')!;
	return `${n8n.webhookBaseUrl}/${webhook.parameters.path}`;
}

async function requestRefund(context: TourContext, n8n: N8nClient): Promise<string> {
	const url = refundUrl(n8n);
	let answer: Response;
	try {
		answer = await fetchOnOpenConnection(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(REFUND) });
	} catch (error) {
		throw new HttpError(502, 'n8n_unreachable', `n8n did not answer at ${url} (${(error as Error).message}): is npm start still running?`);
	}
	if (!answer.ok) {
		const id = context.refundWorkflowId();
		const where = id ? `${n8n.url}/workflow/${id}` : 'the editor';
		throw new HttpError(
			502,
			'n8n_refused',
			`n8n answered HTTP ${answer.status} at ${url}: ${(await answer.text()).slice(0, 200)}. Publish "${readExample(EXAMPLE_FILES.refundApproval).name}" (${where}) and try again.`,
		);
	}
	return `A ${REFUND_TEXT} refund for order ${REFUND.order} was requested: the manager's phone shows the link.`;
}

export function demoTour(context: TourContext): Tour {
	return {
		view: () => ({ steps: STEPS, reset: context.resetNote() }),
		async start(step) {
			const n8n = context.n8n();
			if (!n8n) throw new HttpError(503, 'n8n_starting', 'n8n is still starting: try again once npm start has printed its banner.');
			const sandbox = context.sandbox();
			// The trigger asks for the events of the last 24 hours by n8n's clock, not the sandbox's.
			const now = new Date().toISOString();
			switch (step) {
				case 'write':
					await sandbox.inbound(ADA, 'Hello, is my order on its way?');
					return { started: 'Ada wrote: the reply comes to her phone within seconds.' };
				case 'event':
					await sandbox.seedEvent({ location: EXAMPLE_DATA.location, time: now, description: 'A ship from Cyprus brings papyrus' });
					return { started: `Event added at ${EXAMPLE_DATA.location}: the alert reaches Ada's phone within about a minute.` };
				case 'anomaly': {
					const timeline = await demoTimeline(sandbox);
					if (!timeline) throw new HttpError(409, 'no_demo_timeline', `The timeline "${EXAMPLE_DATA.timeline.name}" is gone: Reset on this page seeds it again.`);
					await sandbox.addAnomaly({ timelineId: timeline.id, type: 'paradox', time: now, description: 'A scroll is both burnt and unburnt' });
					return { started: `Anomaly added to ${timeline.name}: the alert reaches Ada's phone within about a minute.` };
				}
				case 'refund':
					return { started: await requestRefund(context, n8n) };
				default:
					throw new HttpError(404, 'not_found', `No tour step '${step}'.`, 'step');
			}
		},
	};
}
