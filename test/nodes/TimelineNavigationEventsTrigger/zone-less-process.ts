// Run in a process of its own with TZ set (jest's sandboxed process.env cannot change the time
// zone of a test): the trigger polls, in n8n-core's PollContext, a sandbox whose answer holds an
// event 50 minutes old (UTC) written without a zone; prints how many items each poll started.
import { startSandbox } from '../../../tools/sandbox/server';
import { hostPoller } from '../../support/harness/poll';
import { credentialsFor } from '../../support/node-support';

async function main(): Promise<void> {
	const sandbox = await startSandbox();
	try {
		const trigger = await hostPoller({
			type: 'n8n-nodes-timeline-navigation.timelineNavigationEventsTrigger',
			parameters: { event: 'newEvent', location: 'Alexandria', lookBackAmount: 1, lookBackUnit: 'hours' },
			nodeCredentials: { timelineNavigationApi: { id: 'tl', name: 'Timeline' } },
			credentials: credentialsFor(sandbox),
		});
		await trigger.activate();
		const zoneless = new Date(Date.now() - 50 * 60 * 1000).toISOString().replace(/\.\d+Z$/, '');
		const body = { status: 'ok', events: [{ time: zoneless, description: 'Written without a zone' }] };
		await sandbox.client.injectFault({ kind: 'status', status: 200, path: '/v1/monitor-events', body, count: 4 });
		const perPoll: number[] = [];
		for (let poll = 0; poll < 4; poll++) perPoll.push(((await trigger.poll()).started ?? []).length);
		process.stdout.write(`${JSON.stringify({ timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, zoneless, perPoll })}\n`);
	} finally {
		await sandbox.close();
	}
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack}\n`);
	process.exit(1);
});
