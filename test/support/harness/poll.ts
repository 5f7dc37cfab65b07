// A polling trigger of the package's source, run the way n8n's leader main process runs it
// (tools/shared/poller.ts says how), with the given credentials.
import type { StoredCredential } from '../../../tools/shared/credentials';
import { hostPollerIn, type HostedPoller, type HostPollerOptions } from '../../../tools/shared/poller';
import { createCredentialsHelper, getPackage } from './run';

export type { HostedPoller };

export async function hostPoller(options: HostPollerOptions & { credentials?: StoredCredential[] }): Promise<HostedPoller> {
	const pkg = await getPackage();
	return hostPollerIn({ nodeTypes: pkg.nodeTypes, credentialsHelper: await createCredentialsHelper(options.credentials) }, options);
}
