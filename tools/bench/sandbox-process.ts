/**
 * The sandbox in a process of its own, so that the bench's load generators (the plain
 * client loop, the webhook sender) never share an event loop with the server they measure.
 * Started by run.ts over IPC: it sends `{ url, port, timelineKey, messagingKey }` once
 * listening and closes on 'close' or when its parent goes away.
 */
import { startSandbox } from '../sandbox/server';

async function main(): Promise<void> {
	const sandbox = await startSandbox({ port: 0 });
	const stop = async () => {
		await sandbox.close();
		process.exit(0);
	};
	process.on('message', (msg) => {
		if (msg === 'close') void stop();
	});
	process.on('disconnect', () => void stop());
	process.on('SIGTERM', () => void stop());
	process.send?.({
		url: sandbox.url,
		port: sandbox.port,
		timelineKey: sandbox.timelineKey,
		messagingKey: sandbox.messagingKey,
	});
}

main().catch((err) => {
	console.error(err);
	process.exit(1);
});
