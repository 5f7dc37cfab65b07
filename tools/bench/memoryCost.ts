/**
 * The JavaScript side of the repeat memory's cost per webhook call, in this process, with the
 * memory filled to 1,000, 3,000 and 5,000 events: what n8n does with the stored static data for
 * every call (JSON.parse, then n8n-workflow's ObservableObject as its Workflow builds it), the
 * trigger's own check and record, and the serialisation of a save (JSON.stringify; the database
 * write itself runs in n8n's SQLite driver and shows in the webhook runs' CPU per delivery).
 */
import { ObservableObject, type IDataObject } from 'n8n-workflow';

import { deliveryMemory } from '../../nodes/shared/chatAppMessaging/trigger/deliveryMemory';

export interface MemoryCostRow {
	events: number;
	/** Bytes of the static data n8n loads for every call. */
	staticDataBytes: number;
	/** Microseconds per call: parse and make observable; the trigger's check and record; a save's JSON.stringify. */
	loadUs: number;
	triggerUs: number;
	saveUs: number;
}

const NODE = 'node:Trigger';
/** Calls per size: the memory grows by at most this many events while measured. */
const CALLS = 500;

/** Static data holding `events` events, as the trigger saves them (one event every 20 ms). */
function filled(events: number): string {
	const nodeData: IDataObject = {};
	const memory = deliveryMemory(nodeData, undefined);
	const start = Date.now() - events * 20;
	for (let i = 0; i < events; i++) memory.firstDelivery(`msg_fill_${i}|message.status|delivered`, start + i * 20);
	return JSON.stringify({ [NODE]: nodeData });
}

export function measureMemoryCost(sizes = [1000, 3000, 5000]): MemoryCostRow[] {
	return sizes.map((events) => {
		let saved = filled(events);
		const owner = { workflowId: `memory-cost-${events}-${Date.now()}`, nodeName: 'Trigger' };
		let load = 0;
		let own = 0;
		let save = 0;
		const t = Date.now();
		for (let i = 0; i < CALLS; i++) {
			const t0 = performance.now();
			const staticData = ObservableObject.create(JSON.parse(saved) as IDataObject, undefined, { ignoreEmptyOnFirstChild: true });
			const t1 = performance.now();
			// Calls 5 ms apart (200 a second): the process saves on about one call in 50.
			deliveryMemory(staticData[NODE] as IDataObject, owner).firstDelivery(`msg_cost_${events}_${i}|message.status|delivered`, t + i * 5);
			const t2 = performance.now();
			const text = JSON.stringify(staticData); // what a save serialises, timed on every call
			const t3 = performance.now();
			if (staticData.__dataChanged) saved = text;
			load += t1 - t0;
			own += t2 - t1;
			save += t3 - t2;
		}
		const us = (ms: number) => Math.round((ms / CALLS) * 1000);
		return { events, staticDataBytes: Buffer.byteLength(saved), loadUs: us(load), triggerUs: us(own), saveUs: us(save) };
	});
}
