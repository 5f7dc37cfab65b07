/**
 * `npm run sandbox`: starts the sandbox for a person (or a demo) and prints how to use it.
 * Env: SANDBOX_PORT (default 4010), SANDBOX_TIMELINE_KEY, SANDBOX_MESSAGING_KEY (each may be
 * a comma-separated list), SANDBOX_WEBHOOK_URL.
 */
import { CONTROL_ENDPOINTS } from './control';
import { startSandbox } from './server';

function list(value: string | undefined): string[] | undefined {
	const keys = value
		?.split(',')
		.map((k) => k.trim())
		.filter(Boolean);
	return keys?.length ? keys : undefined;
}

async function main(): Promise<void> {
	const port = Number(process.env.SANDBOX_PORT ?? 4010);
	if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`SANDBOX_PORT must be a port number; got '${process.env.SANDBOX_PORT}'.`);
	const timelineKeys = list(process.env.SANDBOX_TIMELINE_KEY);
	const messagingKeys = list(process.env.SANDBOX_MESSAGING_KEY);
	const sandbox = await startSandbox({
		port,
		timelineKeys,
		messagingKeys,
		webhookUrl: process.env.SANDBOX_WEBHOOK_URL || undefined,
		log: (line) => console.log(`[sandbox] ${line}`),
	});
	const u = sandbox.url;
	const lines = [
		'',
		`Service sandbox listening on ${u}`,
		`  Its page, live: ${u}/   (a customer's phone, the timeline, faults and the request log)`,
		`  Base URL for both credentials: ${u}   (the APIs are under ${u}/v1)`,
		'',
		'Accepted bearer keys (fake, for local use only):',
		`  timeline navigation: ${(timelineKeys ?? [sandbox.timelineKey]).join(', ')}`,
		`  messaging:           ${(messagingKeys ?? [sandbox.messagingKey]).join(', ')}`,
		`  webhook URL:         ${process.env.SANDBOX_WEBHOOK_URL || '(none; set one with POST /_sandbox/webhook)'}`,
		'',
		'Try it:',
		`  curl -s -X POST ${u}/v1/travel -H 'Authorization: Bearer ${sandbox.timelineKey}' -H 'Content-Type: application/json' -d '{"destination_time":"2030-01-01T12:00:00Z","location":"Rome"}'`,
		`  curl -s -X POST ${u}/_sandbox/inbound -H 'Content-Type: application/json' -d '{"from":"+14155550123","text":"hi"}'`,
		`  curl -s -X POST ${u}/v1/messages -H 'Authorization: Bearer ${sandbox.messagingKey}' -H 'Content-Type: application/json' -d '{"channel":"chatapp","to":"+14155550123","message_type":"text","text":"Hello {first_name}","injected_fields":{"first_name":"Ada"}}'`,
		'',
		'Control endpoints (no auth, loopback only):',
		...CONTROL_ENDPOINTS.map((e) =>
			e.body
				? `  curl -s -X ${e.method} ${u}${e.path} -H 'Content-Type: application/json' -d '${e.body}'   # ${e.purpose}`
				: `  curl -s${e.method === 'GET' ? '' : ` -X ${e.method}`} ${u}${e.path}   # ${e.purpose}`,
		),
		'',
		'Press Ctrl+C to stop.',
		'',
	];
	console.log(lines.join('\n'));

	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) return;
		stopping = true;
		console.log(`\n[sandbox] ${signal} received, stopping.`);
		sandbox.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
	console.error(`[sandbox] failed to start: ${error instanceof Error ? error.message : String(error)}`);
	process.exit(1);
});
