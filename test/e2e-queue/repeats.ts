/**
 * Measures how many executions repeated deliveries start, against a real n8n: each case gets a
 * fresh published workflow (the trigger alone, Ignore Repeated Deliveries on), sends its
 * deliveries, then counts the workflow's executions in n8n's database once they have settled.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { settledExecutions, type N8nDatabaseUser } from '../../tools/n8n/database';
import type { N8nClient } from '../../tools/n8n/client';
import { deliverAtLeastOnce, inboundEvent, pool, publish, triggerOnlyWorkflow, unexpectedAnswers, type Answer } from './support';

export interface RepeatTarget {
	/** Where it runs, for the report ("queue, 2 webhook processes, round-robin"). */
	setup: string;
	/** The n8n to publish on and count in (a getter: it changes across a restart). */
	n8n(): N8nClient & N8nDatabaseUser;
	/** The URL the `copy`-th copy of a delivery goes to, for a webhook path. */
	url(webhookPath: string, copy: number): string;
}

export interface RepeatResult {
	setup: string;
	case: string;
	events: number;
	deliveries: number;
	/** Executions the deliveries of this case started. */
	executions: number;
	/** Repeats (deliveries of an event that had already started the workflow) that started it again. */
	repeatsStarted: number;
	/** Deliveries finally answered 200 (repeats too are acknowledged). */
	answered200: number;
	/** Calls answered other than 200 (each resent, as the service does), one line each. */
	failedCalls: string[];
}

/** One delivery as the service makes it: sent again until answered 2xx (every answer, in order). */
type Delivery = { name: string; answers: Answer[] };

async function deliver(url: string, messageId: string, copy: number): Promise<Delivery> {
	return { name: `${messageId} (copy ${copy + 1})`, answers: await deliverAtLeastOnce(url, inboundEvent(messageId)) };
}

function answerCounts(deliveries: Delivery[]): Pick<RepeatResult, 'deliveries' | 'answered200' | 'failedCalls'> {
	return {
		deliveries: deliveries.length,
		answered200: deliveries.filter((d) => d.answers[d.answers.length - 1].status === 200).length,
		failedCalls: unexpectedAnswers(deliveries, (a) => a.status === 200),
	};
}

let workflowNumber = 0;

/** A fresh published trigger workflow for one case (n8n allows names of up to 128 characters). */
async function publishCase(target: RepeatTarget, caseName: string) {
	const n = ++workflowNumber;
	const name = `Repeats ${n}: ${target.setup}: ${caseName}`.slice(0, 128);
	return { n, ...(await publish(target.n8n(), triggerOnlyWorkflow(name))) };
}

async function measure(
	target: RepeatTarget,
	caseName: string,
	events: number,
	send: (url: (copy: number) => string, messageIds: string[]) => Promise<Delivery[]>,
): Promise<RepeatResult> {
	const { n, id, path: webhookPath } = await publishCase(target, caseName);
	const messageIds = Array.from({ length: events }, (_, i) => `msg_repeat_${n}_${i}`);
	const deliveries = await send((copy) => target.url(webhookPath, copy), messageIds);
	const executions = await settledExecutions(target.n8n(), id);
	await target.n8n().deactivate(id);
	return {
		setup: target.setup,
		case: caseName,
		events,
		executions: executions.length,
		repeatsStarted: executions.length - events,
		...answerCounts(deliveries),
	};
}

/** Each event, then its repeats, one after another (each waits for the previous answer). */
export function oneAfterAnother(target: RepeatTarget, events: number, copies: number): Promise<RepeatResult> {
	return measure(target, `1 event + ${copies - 1} repeats, one after another (× ${events})`, events, async (url, ids) => {
		const deliveries: Delivery[] = [];
		for (const id of ids) {
			for (let copy = 0; copy < copies; copy++) deliveries.push(await deliver(url(copy), id, copy));
		}
		return deliveries;
	});
}

/** Two copies of a fresh event sent at the same time. */
export function atTheSameTime(target: RepeatTarget, events: number): Promise<RepeatResult> {
	return measure(target, `a fresh event sent twice at the same time (× ${events})`, events, async (url, ids) => {
		const deliveries: Delivery[] = [];
		for (const id of ids) deliveries.push(...(await Promise.all([deliver(url(0), id, 0), deliver(url(1), id, 1)])));
		return deliveries;
	});
}

/** `events` events × `copies` copies, the copies of an event next to each other, `concurrency` in flight. */
export function burst(target: RepeatTarget, events: number, copies: number, concurrency: number): Promise<RepeatResult> {
	return measure(target, `${events} events × ${copies} copies, ${concurrency} in flight`, events, (url, ids) => {
		const copiesOf = ids.flatMap((id) => Array.from({ length: copies }, (_, copy) => ({ id, copy })));
		return pool(copiesOf, concurrency, (d) => deliver(url(d.copy), d.id, d.copy));
	});
}

export interface RestartCase {
	target: RepeatTarget;
	events: number;
	/** Deliveries in flight before the restart (after it, each event is sent again one at a time). */
	concurrency: number;
	/** Something done after the deliveries and before the restart, named in the report. */
	between?: { name: string; run(webhookPath: string, workflowId: string): Promise<void> };
	/** Wraps each phase of the case (for example: the balancer pinning paths meanwhile). */
	around?: <T>(phase: () => Promise<T>) => Promise<T>;
}

/**
 * For each case, each event delivered once, then ONE `restart` for all cases, then each event
 * delivered again: how many of the repeats after the restart started the workflow.
 */
export async function acrossRestart(cases: RestartCase[], restart: { name: string; run(): Promise<void> }): Promise<RepeatResult[]> {
	const prepared = [];
	for (const c of cases) {
		const around = c.around ?? ((phase) => phase());
		const caseName =
			`${c.events} events (${c.concurrency === 1 ? 'one at a time' : `${c.concurrency} in flight`}), ` +
			`${c.between ? `${c.between.name}, ` : ''}${restart.name}, each sent again`;
		const { n, id, path: webhookPath } = await publishCase(c.target, caseName);
		const messageIds = Array.from({ length: c.events }, (_, i) => `msg_restart_${n}_${i}`);
		const before = await around(async () => {
			const first = await pool(messageIds, c.concurrency, (messageId, i) => deliver(c.target.url(webhookPath, i), messageId, 0));
			const started = (await settledExecutions(c.target.n8n(), id)).length;
			const { answered200, failedCalls } = answerCounts(first);
			if (started !== c.events || answered200 !== c.events) {
				const calls = failedCalls.map((line) => `\n  ${line}`).join('');
				throw new Error(`${c.events} distinct events started ${started} executions before the restart, ${answered200} answered 200${calls}`);
			}
			await c.between?.run(webhookPath, id);
			return (await settledExecutions(c.target.n8n(), id)).length;
		});
		prepared.push({ c, around, caseName, id, webhookPath, messageIds, before });
	}
	await restart.run();
	const results: RepeatResult[] = [];
	for (const { c, around, caseName, id, webhookPath, messageIds, before } of prepared) {
		const deliveries = await around(async () => {
			const list: Delivery[] = [];
			for (const [i, messageId] of messageIds.entries()) list.push(await deliver(c.target.url(webhookPath, i), messageId, 1));
			return list;
		});
		const after = (await settledExecutions(c.target.n8n(), id)).length;
		await c.target.n8n().deactivate(id);
		results.push({
			setup: c.target.setup,
			case: caseName,
			events: c.events,
			executions: after - before,
			repeatsStarted: after - before,
			...answerCounts(deliveries),
		});
	}
	return results;
}

/** The measured table, as markdown and JSON, under .artifacts/e2e-queue/. */
export function writeRepeatReport(dir: string, results: RepeatResult[]): string {
	const rows = results.map(
		(r) =>
			`| ${r.setup} | ${r.case} | ${r.deliveries} | ${r.executions} | ${r.repeatsStarted} |`,
	);
	const table = [
		'| n8n set-up | deliveries | sent | executions started | repeats that started the workflow |',
		'|---|---|---:|---:|---:|',
		...rows,
	].join('\n');
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, 'repeats.md'), `Measured ${new Date().toISOString()}\n\n${table}\n`);
	fs.writeFileSync(path.join(dir, 'repeats.json'), JSON.stringify(results, null, 2) + '\n');
	return table;
}
