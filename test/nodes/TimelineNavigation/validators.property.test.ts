// Property-based tests of the pure input checks and of the transport's parsers: for any
// input they return a value or a problem (never throw), and what they accept is what the
// service's grammar accepts. The grammars are stated here, in the test, from the documents
// (E.164, the duration grammar), not taken from the code under test.
import fc from 'fast-check';
import { buildDuration, checkDurationUnit } from '../../../nodes/shared/fields/duration';
import {
	buildTimeRange,
	checkE164,
	findPlaceholders,
	normalizePhoneNumber,
	toIsoDateTime,
} from '../../../nodes/shared/fields/validation';
import { normalizeBaseUrl } from '../../../nodes/shared/services';
import { parseRetryAfter, serviceMessageOf } from '../../../nodes/shared/transport';

const RUNS = { numRuns: 500 };
let casesTried = 0;
const count = <T extends unknown[]>(check: (...args: T) => void) => (...args: T) => {
	casesTried++;
	check(...args);
};
afterAll(() => {
	console.log(`property-validators: ${casesTried} generated cases`);
});

const anyInput = fc.oneof(fc.anything(), fc.string({ unit: 'binary' }), fc.double(), fc.date({ noInvalidDate: false }));

// ---- E.164 ---------------------------------------------------------------------------

const isDigit = (char: string) => char >= '0' && char <= '9';

/** E.164 as the messaging document states it: a +, the country code (never starting with 0) and the number, 7 to 15 digits in all. */
function isE164(text: string): boolean {
	const digits = text.slice(1);
	return text.startsWith('+') && [...digits].every(isDigit) && digits.length >= 7 && digits.length <= 15 && digits[0] !== '0';
}

const e164 = fc
	.tuple(fc.integer({ min: 1, max: 9 }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 6, maxLength: 14 }))
	.map(([first, rest]) => `+${first}${rest.join('')}`);
const separator = fc.constantFrom(' ', '-', '.', '(', ')', '\u00a0', '  ');

/** Scatters separators between the digits of a number, as people write them. */
const written = e164.chain((number) =>
	fc
		.array(fc.option(separator, { nil: '' }), { minLength: number.length, maxLength: number.length })
		.map((gaps) => ({ number, text: [...number].map((char, index) => (index === 0 ? char : gaps[index] + char)).join('') })),
);

describe('E.164: checkE164 and normalizePhoneNumber', () => {
	it('accepts exactly the E.164 numbers when not normalising', () => {
		fc.assert(
			fc.property(fc.oneof(fc.string(), e164, fc.stringMatching(/^\+?[0-9 ]{0,18}$/)), count((text) => {
				const checked = checkE164(text, false);
				expect(checked.ok).toBe(isE164(text.trim()));
				if (checked.ok) expect(checked.value).toBe(text.trim());
			})),
			RUNS,
		);
	});

	it('gives back the number however it is written with separators, and a 00 prefix means +', () => {
		fc.assert(
			fc.property(written, fc.boolean(), count(({ number, text }, doubleZero) => {
				const input = doubleZero ? `00${text.slice(1)}` : ` ${text} `;
				expect(checkE164(input, true)).toEqual({ ok: true, value: number });
			})),
			RUNS,
		);
	});

	it('normalises idempotently and anything it accepts is E.164', () => {
		// Random text is (almost) never a phone number: numbers as people write them, and the
		// characters they use, make the accepted branch run too.
		const phoneish = fc.string({ unit: fc.constantFrom(...'+0123456789 -.()\u00a0x') });
		let accepted = 0;
		fc.assert(
			fc.property(fc.oneof(fc.string({ unit: 'binary' }), written.map(({ text }) => text), phoneish), count((text) => {
				const once = normalizePhoneNumber(text);
				expect(normalizePhoneNumber(once)).toBe(once);
				const checked = checkE164(text, true);
				if (checked.ok) {
					accepted++;
					expect(isE164(checked.value)).toBe(true);
				}
			})),
			RUNS,
		);
		expect(accepted).toBeGreaterThan(RUNS.numRuns / 10);
	});

	it('never throws and refuses what is not text, with a problem that shows an example', () => {
		fc.assert(
			fc.property(anyInput, fc.boolean(), count((value, normalize) => {
				const checked = checkE164(value, normalize);
				if (!checked.ok) expect(checked.problem).toMatch(/E\.164.*\+14155550123/);
				if (typeof value !== 'string' && typeof value !== 'number') expect(checked.ok).toBe(false);
			})),
			RUNS,
		);
	});

	it('refuses too short, too long and letters', () => {
		fc.assert(
			fc.property(
				fc.oneof(
					fc.stringMatching(/^\+[1-9][0-9]{0,5}$/),
					fc.stringMatching(/^\+[1-9][0-9]{15,20}$/),
					fc.stringMatching(/^\+0[0-9]{6,14}$/),
					fc.stringMatching(/^\+[1-9][0-9]{3,6}[a-zA-Z][0-9]{3,6}$/),
				),
				fc.boolean(),
				count((text, normalize) => expect(checkE164(text, normalize).ok).toBe(false)),
			),
			RUNS,
		);
	});
});

// ---- duration ------------------------------------------------------------------------

const UNITS = { minutes: 'm', hours: 'h', days: 'd' } as const;
type Unit = keyof typeof UNITS;

/** The document's duration grammar: a positive whole count, then the unit letter m, h or d. */
function isDuration(text: string): boolean {
	const count = text.slice(0, -1);
	return ['m', 'h', 'd'].includes(text.slice(-1)) && count !== '' && [...count].every(isDigit) && count[0] !== '0';
}

describe('duration: checkDurationUnit and buildDuration', () => {
	it('builds <amount><m|h|d> for every whole amount of at least 1, in the document\'s grammar', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
				fc.constantFrom(...(Object.keys(UNITS) as Unit[])),
				fc.boolean(),
				count((amount, unit, asText) => {
					expect(checkDurationUnit(unit)).toEqual({ ok: true, value: UNITS[unit] });
					const checked = buildDuration(asText ? String(amount) : amount, UNITS[unit]);
					expect(checked).toEqual({ ok: true, value: `${amount}${UNITS[unit]}` });
					if (checked.ok) expect(isDuration(checked.value)).toBe(true);
				}),
			),
			RUNS,
		);
	});

	it('refuses zero, negatives, fractions and non-numbers', () => {
		fc.assert(
			fc.property(
				fc.oneof(
					fc.integer({ max: 0 }),
					fc.double({ noInteger: true }),
					fc.constantFrom(NaN, Infinity, -Infinity, '', ' ', 'abc', '1.5', null, undefined, true, [], {}),
				),
				fc.constantFrom(...Object.values(UNITS)),
				count((amount, letter) => {
					expect(buildDuration(amount, letter)).toEqual({ ok: false, problem: 'expected a whole number of at least 1' });
				}),
			),
			RUNS,
		);
	});

	it('refuses every unit but minutes, hours and days', () => {
		fc.assert(
			fc.property(
				fc.oneof(fc.string(), fc.constantFrom('__proto__', 'toString', 'constructor', 'weeks', 'Minutes', 'm', 'h')),
				count((unit) => {
					fc.pre(!['minutes', 'hours', 'days'].includes(unit));
					expect(checkDurationUnit(unit)).toEqual({ ok: false, problem: 'expected the unit minutes, hours or days' });
				}),
			),
			RUNS,
		);
	});

	it('never throws, and anything accepted is in the document\'s grammar', () => {
		fc.assert(
			fc.property(anyInput, fc.constantFrom(...Object.values(UNITS)), count((amount, letter) => {
				const checked = buildDuration(amount, letter);
				if (checked.ok) expect(isDuration(checked.value)).toBe(true);
			})),
			RUNS,
		);
	});
});

// ---- date-times and time ranges ------------------------------------------------------

const instant = fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true });
const modernInstant = fc.date({ min: new Date('1971-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true });
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/St_Johns', 'Asia/Kathmandu'];

const pad = (value: number, length = 2) => String(value).padStart(length, '0');
function wallClockIn(zone: string, millis: number): string {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone: zone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(millis));
	const get = (type: string) => parts.find((part) => part.type === type)!.value;
	return `${pad(Number(get('year')), 4)}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}:${get('second')}`;
}

const daysIn = (year: number, month: number) => new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 1 : 0);

describe('date-times: toIsoDateTime', () => {
	it('gives back any instant written in UTC, to the millisecond (years 0001-9999)', () => {
		fc.assert(
			fc.property(instant, count((date) => {
				expect(toIsoDateTime(date.toISOString())).toEqual({ ok: true, value: date.toISOString() });
				expect(toIsoDateTime(date)).toEqual({ ok: true, value: date.toISOString() });
			})),
			RUNS,
		);
	});

	it('applies an explicit offset (±hh:mm or ±hhmm) whatever the workflow time zone', () => {
		fc.assert(
			fc.property(
				modernInstant,
				fc.integer({ min: -12 * 60, max: 14 * 60 }),
				fc.boolean(),
				fc.constantFrom(...ZONES),
				count((date, offsetMinutes, colon, zone) => {
					const local = new Date(date.getTime() + offsetMinutes * 60000);
					const sign = offsetMinutes < 0 ? '-' : '+';
					const abs = Math.abs(offsetMinutes);
					const offset = `${sign}${pad(Math.floor(abs / 60))}${colon ? ':' : ''}${pad(abs % 60)}`;
					const text = `${local.toISOString().slice(0, 23)}${offset}`;
					expect(toIsoDateTime(text, zone)).toEqual({ ok: true, value: date.toISOString() });
				}),
			),
			RUNS,
		);
	});

	it('reads a time without offset in the workflow time zone (any wall clock that exists round-trips)', () => {
		fc.assert(
			fc.property(modernInstant, fc.constantFrom(...ZONES), count((date, zone) => {
				const seconds = Math.floor(date.getTime() / 1000) * 1000;
				const wall = wallClockIn(zone, seconds);
				const checked = toIsoDateTime(wall, zone);
				expect(checked.ok).toBe(true);
				if (!checked.ok) return;
				// The wall clock exists (it was formatted from an instant): reading it back gives that
				// wall clock again (in an ambiguous hour either instant is right).
				expect(wallClockIn(zone, Date.parse(checked.value))).toBe(wall);
			})),
			RUNS,
		);
	});

	it('refuses impossible calendar dates and times, and accepts every real one', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 9999 }),
				fc.integer({ min: 0, max: 13 }),
				fc.integer({ min: 0, max: 32 }),
				fc.integer({ min: 0, max: 25 }),
				fc.integer({ min: 0, max: 61 }),
				fc.integer({ min: 0, max: 61 }),
				count((year, month, day, hour, minute, second) => {
					const text = `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}Z`;
					const real = month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month) && hour <= 23 && minute <= 59 && second <= 59;
					const checked = toIsoDateTime(text);
					expect(checked.ok).toBe(real);
					if (checked.ok) expect(checked.value).toBe(`${text.slice(0, 19)}.000Z`);
					else expect(checked.problem).toBe('expected a real calendar date-time');
				}),
			),
			RUNS,
		);
	});

	it('refuses an offset that no time zone has', () => {
		fc.assert(
			fc.property(
				fc.oneof(fc.integer({ min: 15, max: 99 }).map((h) => `+${h}:00`), fc.integer({ min: 60, max: 99 }).map((m) => `-01:${m}`)),
				count((offset) => expect(toIsoDateTime(`2026-05-01T09:30:00${offset}`).ok).toBe(false)),
			),
			RUNS,
		);
	});

	it('never throws, and anything accepted is an ISO 8601 UTC instant', () => {
		fc.assert(
			fc.property(fc.oneof(anyInput, fc.stringMatching(/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/)), fc.constantFrom(...ZONES), count((value, zone) => {
				const checked = toIsoDateTime(value, zone);
				if (checked.ok) expect(new Date(checked.value).toISOString()).toBe(checked.value);
			})),
			RUNS,
		);
	});
});

describe('time range: buildTimeRange', () => {
	it('joins start/end when start is not after end, and names both otherwise', () => {
		fc.assert(
			fc.property(instant, instant, count((a, b) => {
				const [start, end] = [a.toISOString(), b.toISOString()];
				const checked = buildTimeRange(start, end);
				if (a.getTime() <= b.getTime()) {
					expect(checked).toEqual({ ok: true, value: `${start}/${end}` });
				} else {
					expect(checked).toEqual({ ok: false, problem: `the start (${start}) is after the end (${end})` });
				}
			})),
			RUNS,
		);
	});

	it('refuses a range whose ends are not date-times', () => {
		fc.assert(
			fc.property(fc.string(), instant, fc.boolean(), count((text, date, first) => {
				fc.pre(Number.isNaN(Date.parse(text)));
				const [start, end] = first ? [text, date.toISOString()] : [date.toISOString(), text];
				expect(buildTimeRange(start, end).ok).toBe(false);
			})),
			RUNS,
		);
	});
});

// ---- placeholders --------------------------------------------------------------------

const placeholderName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.-]{0,20}$/);
const filler = fc.string().map((text) => text.replace(/[{}]/g, ''));

describe('placeholders: findPlaceholders', () => {
	it('finds every {name} and {{name}} once, in order of first appearance', () => {
		fc.assert(
			fc.property(
				fc.array(fc.tuple(placeholderName, fc.boolean(), fc.boolean(), filler), { maxLength: 8 }),
				filler,
				count((parts, head) => {
					const text =
						head +
						parts
							.map(([name, doubled, spaced, after]) => {
								const inner = spaced ? ` ${name} ` : name;
								return `${doubled ? `{{${inner}}}` : `{${inner}}`}${after}`;
							})
							.join('');
					expect(findPlaceholders(text)).toEqual([...new Set(parts.map(([name]) => name))]);
				}),
			),
			RUNS,
		);
	});

	it('never throws, finds nothing without braces, and only returns valid names', () => {
		// Random text has (almost) no braces: text made of braces, name characters and others
		// makes names come back too.
		const braced = fc
			.array(fc.constantFrom('{', '{{', '}', '}}', ' ', 'first_name', 'a.b', '_', '9', '-', '$', 'é', '\n', '{name}', '{{ name }}', '{9x}', '{}'))
			.map((parts) => parts.join(''));
		let found = 0;
		fc.assert(
			fc.property(fc.oneof(fc.string({ unit: 'binary' }), braced), count((text) => {
				const names = findPlaceholders(text);
				found += names.length;
				for (const name of names) expect(name).toMatch(/^[A-Za-z_][A-Za-z0-9_.-]*$/);
				expect(new Set(names).size).toBe(names.length);
				if (!text.includes('{')) expect(names).toEqual([]);
			})),
			RUNS,
		);
		expect(found).toBeGreaterThan(RUNS.numRuns / 10);
	});
});

// ---- Base URL ------------------------------------------------------------------------

const host = fc.tuple(fc.constantFrom('http', 'https'), fc.domain(), fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }));
const basePath = fc.array(fc.stringMatching(/^[a-z0-9_-]{1,8}$/), { maxLength: 3 }).map((parts) => parts.filter((p) => p.toLowerCase() !== 'v1'));

describe('Base URL: normalizeBaseUrl', () => {
	it('maps every way of writing the service root to <root>/v1, never doubling /v1', () => {
		fc.assert(
			fc.property(
				host,
				basePath,
				fc.constantFrom('', '/', '//', '/v1', '/v1/', '/V1', '/v1//', ' ', '/ '),
				count(([scheme, domain, port], path, suffix) => {
					const root = `${scheme}://${domain}${port ? `:${port}` : ''}${path.map((p) => `/${p}`).join('')}`;
					const normalized = normalizeBaseUrl(` ${root}${suffix}`);
					expect(normalized).toBe(`${root}/v1`);
					expect(normalized).not.toMatch(/\/v1\/v1$/i);
				}),
			),
			RUNS,
		);
	});

	it('is idempotent and always ends in exactly one /v1 without a trailing slash', () => {
		fc.assert(
			fc.property(fc.oneof(fc.string(), fc.webUrl(), fc.webUrl().map((url) => `${url}/v1/`)), count((raw) => {
				const once = normalizeBaseUrl(raw);
				expect(normalizeBaseUrl(once)).toBe(once);
				expect(once).toMatch(/\/v1$/);
				expect(once).not.toMatch(/\/\/v1$/);
			})),
			RUNS,
		);
	});
});

// ---- Retry-After ---------------------------------------------------------------------

describe('Retry-After: parseRetryAfter', () => {
	it('reads delta seconds', () => {
		fc.assert(
			fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.constantFrom('', ' '), count((seconds, space) => {
				expect(parseRetryAfter(`${space}${seconds}${space}`)).toBe(seconds);
			})),
			RUNS,
		);
	});

	it('reads an HTTP date as the whole seconds from now until then (0 when past)', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1_600_000_000, max: 2_000_000_000 }).map((s) => s * 1000),
				fc.integer({ min: -100_000, max: 100_000 }),
				count((now, deltaSeconds) => {
					const header = new Date(now + deltaSeconds * 1000).toUTCString();
					expect(parseRetryAfter(header, now)).toBe(Math.max(0, deltaSeconds));
				}),
			),
			RUNS,
		);
	});

	it('never throws; answers undefined or a whole number of seconds of at least 0', () => {
		fc.assert(
			fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.stringMatching(/^-?\d{0,400}(\.\d*)?$/), fc.constant(undefined)), count((value) => {
				const seconds = parseRetryAfter(value);
				if (seconds !== undefined) {
					expect(Number.isSafeInteger(seconds)).toBe(true);
					expect(seconds).toBeGreaterThanOrEqual(0);
				}
			})),
			RUNS,
		);
	});

	it('does not read numbers that are not delta seconds as dates', () => {
		for (const value of ['-1', '1e3', '0x10', '12 13', 'soon', '']) expect(parseRetryAfter(value)).toBeUndefined();
		expect(parseRetryAfter('1.5')).toBe(2);
	});
});

// ---- the service's own words ---------------------------------------------------------

const secret = fc.stringMatching(/^[A-Za-z0-9_-]{12,40}$/);

describe("service message: serviceMessageOf", () => {
	it('never throws, and answers undefined or a non-empty string', () => {
		fc.assert(
			fc.property(fc.oneof(fc.anything(), fc.json(), fc.string({ unit: 'binary' })), count((body) => {
				const message = serviceMessageOf(body);
				if (message !== undefined) {
					expect(typeof message).toBe('string');
					expect(message.trim()).not.toBe('');
				}
			})),
			RUNS,
		);
	});

	it('finds the message in every documented error shape, as an object or as JSON text', () => {
		fc.assert(
			fc.property(
				fc.string({ minLength: 1 }).filter((text) => text.trim() !== '' && !/bearer/i.test(text)),
				fc.constantFrom('message', 'error.message', 'error', 'detail', 'status'),
				fc.boolean(),
				count((text, shape, asText) => {
					const body = shape === 'error.message' ? { error: { code: 'x', message: text } } : { [shape]: text };
					expect(serviceMessageOf(asText ? JSON.stringify(body) : body)).toBe(text);
				}),
			),
			RUNS,
		);
	});

	it('keeps the word "bearer" in the service\'s prose: only a token after it is blanked', () => {
		expect(serviceMessageOf({ message: 'The bearer key is not valid for the messaging service.' })).toBe(
			'The bearer key is not valid for the messaging service.',
		);
		expect(serviceMessageOf('Send the header Authorization: Bearer <API_KEY>.')).toBe('Send the header Authorization: Bearer ****');
		expect(serviceMessageOf('Bearer sk_live_51Hx rejected')).toBe('Bearer **** rejected');
	});

	it('never repeats a bearer token the service echoes, in JSON or plain text', () => {
		fc.assert(
			fc.property(secret, fc.constantFrom('json', 'text', 'html'), count((key, kind) => {
				const said = `Invalid header Authorization: Bearer ${key} for this account`;
				const body =
					kind === 'json' ? { error: { code: 'unauthorized', message: said } } : kind === 'text' ? said : `<html><body>${said}</body></html>`;
				const message = serviceMessageOf(body);
				expect(message).toBeDefined();
				expect(message).not.toContain(key);
			})),
			RUNS,
		);
	});
});
