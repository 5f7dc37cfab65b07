/** One node of workflow JSON, on the canvas's first row at `x`, with a fresh id. */
import { randomUUID } from 'node:crypto';

export function workflowNode(name: string, type: string, typeVersion: number, x: number, parameters: object, extra: object = {}) {
	return { id: randomUUID(), name, type, typeVersion, position: [x, 0], parameters, ...extra };
}
