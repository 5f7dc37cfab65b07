// A polling trigger of the package's source, run the way n8n's leader main process runs it
// (tools/shared/poller.ts says how), with the given credentials.
import type { StoredCredential } from '../../../tools/shared/credentials';
import { hostPollerIn, hostWorkflowIn, type HostedPoller, type HostedWorkflow, type HostPollerOptions, type HostWorkflowOptions } from '../../../tools/shared/poller';
import { createCredentialsHelper, getPackage } from './run';

export type { HostedPoller, HostedWorkflow };

export async function hostPoller(options: HostPollerOptions & { credentials?: StoredCredential[] }): Promise<HostedPoller> {
	const pkg = await getPackage();
	return hostPollerIn({ nodeTypes: pkg.nodeTypes, credentialsHelper: await createCredentialsHelper(options.credentials) }, options);
}

/** A workflow of several polling triggers of the package's source, with the given credentials. */
export async function hostWorkflow(options: HostWorkflowOptions & { credentials?: StoredCredential[] }): Promise<HostedWorkflow> {
	const pkg = await getPackage();
	return hostWorkflowIn({ nodeTypes: pkg.nodeTypes, credentialsHelper: await createCredentialsHelper(options.credentials) }, options);
}
