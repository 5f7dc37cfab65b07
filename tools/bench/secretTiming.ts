/**
 * The trigger's secret checks, timed: a guess wrong at its first character must take as long to
 * refuse as one wrong at its last (an early-exit comparison is ~300× faster for the first), and a
 * wrong user as long as a wrong password. A measurement, so it lives in the bench, not the tests.
 */
import { checkBasicAuth, checkHeaderSecret } from '../../nodes/shared/chatAppMessaging/trigger/authentication';

/** Median time of `check` over many runs, in nanoseconds. */
function medianNs(check: () => unknown, runs: number): number {
	for (let i = 0; i < 20; i++) check();
	const times: number[] = [];
	for (let i = 0; i < runs; i++) {
		const started = process.hrtime.bigint();
		check();
		times.push(Number(process.hrtime.bigint() - started));
	}
	times.sort((a, b) => a - b);
	return times[runs >> 1];
}

const basic = (user: string, password: string) => ({
	authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});

export interface SecretTiming {
	/** Header secret of 1 MiB: time when wrong at the last character / when wrong at the first. */
	headerLateOverEarly: number;
	/** Basic auth, 256 KiB user and password: slowest / fastest of wrong user or password, first or last character. */
	basicSlowestOverFastest: number;
}

export function measureSecretTiming(): SecretTiming {
	const long = 's'.repeat(1 << 20);
	const early = medianNs(() => checkHeaderSecret({ 'x-secret': `x${long.slice(1)}` }, 'X-Secret', long), 201);
	const late = medianNs(() => checkHeaderSecret({ 'x-secret': `${long.slice(0, -1)}x` }, 'X-Secret', long), 201);

	const secret = 's'.repeat(1 << 18);
	const wrongFirst = `x${secret.slice(1)}`;
	const wrongLast = `${secret.slice(0, -1)}x`;
	const timings = [
		[wrongFirst, secret],
		[wrongLast, secret],
		[secret, wrongFirst],
		[secret, wrongLast],
	].map(([user, password]) => medianNs(() => checkBasicAuth(basic(user, password), secret, secret), 51));
	return {
		headerLateOverEarly: late / early,
		basicSlowestOverFastest: Math.max(...timings) / Math.min(...timings),
	};
}
