// Which n8n the package runs on: the oldest n8n of each feature, and what the nodes do on an
// n8n older than the package's floor. The versions are proved by the compatibility matrix
// (`npm run test:compat`, docs/compatibility.md).
//
// Every node names its connections with n8n-workflow's `NodeConnectionTypes`, exported from
// n8n 1.85 on (n8n-workflow 1.83). Read on an older n8n, it made each node class throw while n8n
// loaded the package, and n8n said only "Class could not be found" in its log. The package
// cannot ask n8n to refuse it there (n8n's scanner wants `"n8n-workflow": "*"` as its only peer
// range, and n8n checks no other), so below the floor the nodes load, show a notice above their
// fields, and refuse to run, saying which n8n they need (errors.ts: `n8nTooOld`).
import { NodeConnectionTypes, type INodeProperties } from 'n8n-workflow';

/** The oldest n8n the package runs on. */
export const N8N_FLOOR = '1.85';

/** Send and Wait for Response: n8n signs the answer link from 1.107 on (its context's getSignedResumeUrl). */
export const SEND_AND_WAIT_FLOOR = '1.107';

/** Whether this n8n is the floor or newer: its n8n-workflow exports what the nodes are built on. */
export const ON_SUPPORTED_N8N: boolean = NodeConnectionTypes !== undefined;

/** The main connection of `inputs` and `outputs` (the enum's own value, which older n8n lacks). */
export const MAIN_CONNECTION = ON_SUPPORTED_N8N ? NodeConnectionTypes.Main : 'main';

/** What the editor shows first in the node on an n8n older than the floor. */
const OLDER_N8N_NOTICE: INodeProperties = {
	displayName: `This node needs n8n ${N8N_FLOOR} or newer. This n8n is older, so the node does not run here: update n8n to use it.`,
	name: 'olderN8nNotice',
	type: 'notice',
	default: '',
};

/** A node's fields for the n8n it runs on: as written, or below the floor with the notice on top. */
export function withFloorNotice(properties: INodeProperties[]): INodeProperties[] {
	return ON_SUPPORTED_N8N ? properties : [OLDER_N8N_NOTICE, ...properties];
}
