/**
 * Measures how many executions repeated deliveries start, against a real n8n: each case gets a
 * fresh published workflow (the trigger alone, Ignore Repeated Deliveries on), sends its
 * deliveries, then counts the workflow's executions in n8n's database once they have settled.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { settledExecutions, type N8nDatabaseUser } from '../n8n/database';
import type { N8nClient } from '../n8n/instance';
import { inboundEvent, pool, post, publish, triggerOnlyWorkflow, type Answer } from './support';

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
	/** Deliveries answered 200 (repeats too are acknowledged). */
	answered200: number;
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
	send: (url: (copy: number) => string, messageIds: string[]) => Promise<Answer[]>,
): Promise<RepeatResult> {
	const { n, id, path: webhookPath } = await publishCase(target, caseName);
	const messageIds = Array.from({ length: events }, (_, i) => `msg_repeat_${n}_${i}`);
	const answers = await send((copy) => target.url(webhookPath, copy), messageIds);
	const executions = await settledExecutions(target.n8n(), id);
	await target.n8n().deactivate(id);
	return {
		setup: target.setup,
		case: caseName,
		events,
		deliveries: answers.length,
		executions: executions.length,
		repeatsStarted: executions.length - events,
		answered200: answers.filter((a) => a.status === 200).length,
	};
}

/** Each event, then its repeats, one after another (each waits for the previous answer). */
export function oneAfterAnother(target: RepeatTarget, events: number, copies: number): Promise<RepeatResult> {
	return measure(target, `1 event + ${copies - 1} repeats, one after another (× ${events})`, events, async (url, ids) => {
		const answers: Answer[] = [];
		for (const id of ids) {
			const event = inboundEvent(id);
			for (let copy = 0; copy < copies; copy++) answers.push(await post(url(copy), event));
		}
		return answers;
	});
}

/** Two copies of a fresh event sent at the same time. */
export function atTheSameTime(target: RepeatTarget, events: number): Promise<RepeatResult> {
	return measure(target, `a fresh event sent twice at the same time (× ${events})`, events, async (url, ids) => {
		const answers: Answer[] = [];
		for (const id of ids) {
			const event = inboundEvent(id);
			answers.push(...(await Promise.all([post(url(0), event), post(url(1), event)])));
		}
		return answers;
	});
}

/** `events` events × `copies` copies, the copies of an event next to each other, `concurrency` in flight. */
export function burst(target: RepeatTarget, events: number, copies: number, concurrency: number): Promise<RepeatResult> {
	return measure(target, `${events} events × ${copies} copies, ${concurrency} in flight`, events, (url, ids) => {
		const deliveries = ids.flatMap((id) => Array.from({ length: copies }, (_, copy) => ({ event: inboundEvent(id), copy })));
		return pool(deliveries, concurrency, (d) => post(url(d.copy), d.event));
	});
}

/**
 * Each event delivered once (`concurrency` in flight), optionally `between`, then `restart`,
 * then each delivered again: how many of the repeats after the restart started the workflow.
 */
export async function acrossRestart(
	target: RepeatTarget,
	events: number,
	concurrency: number,
	restart: { name: string; run(): Promise<void> },
	/** Something done after the deliveries and before the restart, named in the report. */
	between?: { name: string; run(webhookPath: string, workflowId: string): Promise<void> },
): Promise<RepeatResult> {
	const caseName =
		`${events} events (${concurrency === 1 ? 'one at a time' : `${concurrency} in flight`}), ` +
		`${between ? `${between.name}, ` : ''}${restart.name}, each sent again`;
	const { n, id, path: webhookPath } = await publishCase(target, caseName);
	const messageIds = Array.from({ length: events }, (_, i) => `msg_restart_${n}_${i}`);
	await pool(messageIds, concurrency, (messageId, i) => post(target.url(webhookPath, i), inboundEvent(messageId)));
	const started = (await settledExecutions(target.n8n(), id)).length;
	if (started !== events) throw new Error(`${events} distinct events started ${started} executions before the restart`);
	await between?.run(webhookPath, id);
	const before = (await settledExecutions(target.n8n(), id)).length;
	await restart.run();
	const answers: Answer[] = [];
	for (const [i, messageId] of messageIds.entries()) answers.push(await post(target.url(webhookPath, i), inboundEvent(messageId)));
	const after = (await settledExecutions(target.n8n(), id)).length;
	await target.n8n().deactivate(id);
	return {
		setup: target.setup,
		case: caseName,
		events,
		deliveries: answers.length,
		executions: after - before,
		repeatsStarted: after - before,
		answered200: answers.filter((a) => a.status === 200).length,
	};
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
