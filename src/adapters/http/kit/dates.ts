import * as t from 'io-ts';
import { check } from './codec-kit';
import { component, Documented } from './json-schema';

/** An ISO 8601 date-time with seconds, at most 9 fraction digits and a timezone, on the clock. */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?:\.(\d{1,9}))?(Z|([+-])([01]\d|2[0-3]):([0-5]\d))$/;

/** A date-time as people write it, seconds and zone optional, to say which part is missing. */
const DATE_TIME_PARTS = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2})(:\d{2}(?:\.\d{1,9})?)?)?(Z|[+-]\d{2}:\d{2})?$/;

const NOT_A_DATE_TIME = 'must be an ISO 8601 date-time with seconds and a time zone, such as 2026-01-02T03:04:05Z';

/**
 * Why `text` is not a date-time the service takes: the part that is missing, and the text as it
 * should be written (decision 0024), rather than one sentence for every mistake.
 */
export const dateTimeProblem = (text: unknown): string => {
  const parts = typeof text === 'string' ? DATE_TIME_PARTS.exec(text) : null;
  if (parts === null) return NOT_A_DATE_TIME;
  const [, day, minutes, seconds, zone] = parts as (string | undefined)[];
  if (minutes === undefined) return `is a date without a time: write a date-time with seconds and a time zone, such as ${day}T00:00:00Z`;
  const written = `${day}T${minutes}${seconds ?? ':00'}`;
  if (seconds === undefined && zone === undefined)
    return `is missing its seconds and its time zone: write ${written}, then an offset (such as -03:00) or Z for UTC`;
  if (seconds === undefined) return `is missing its seconds: write ${written}${zone}`;
  if (zone === undefined) return `is missing its time zone: end it with an offset (such as -03:00) or Z for UTC, as in ${written}Z`;
  return NOT_A_DATE_TIME;
};

/**
 * The instant an ISO 8601 date-time with a timezone names, or undefined when the text is not one or
 * names no real calendar date (2026-02-30). The instant may fall outside four-digit years in UTC.
 */
const calendarInstant = (text: string): Date | undefined => {
  const m = ISO_DATE.exec(text);
  if (m === null) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const millis = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  const offsetMinutes = m[8] === 'Z' ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  const local = new Date(Date.UTC(year, month - 1, day, hour, minute, second, millis));
  local.setUTCFullYear(year);
  if (local.getUTCMonth() !== month - 1 || local.getUTCDate() !== day) return undefined;
  return new Date(local.getTime() - offsetMinutes * 60_000);
};

/** Whether an instant is in the years 0000–9999 once in UTC, which every store and client can write. */
const inFourDigitYears = (instant: Date): boolean => instant.getUTCFullYear() >= 0 && instant.getUTCFullYear() <= 9999;

/**
 * The instant an ISO 8601 date-time with a timezone names, or undefined when the text is not one,
 * names no real calendar date (2026-02-30), or falls outside the years 0000–9999 once in UTC (an
 * offset can push a date at the edge of the calendar out of them).
 */
export const parseIsoInstant = (text: string): Date | undefined => {
  const instant = calendarInstant(text);
  return instant !== undefined && inFourDigitYears(instant) ? instant : undefined;
};

const describeInstant = () =>
  ({
    type: 'string',
    format: 'date-time',
    pattern: ISO_DATE.source,
    description:
      'An ISO 8601 date-time with seconds and a timezone (`Z` or `±hh:mm`) naming a real calendar date, with at most ' +
      '9 fraction digits, whose instant falls in the years 0000 to 9999 once in UTC (`0000-01-01T00:00:00+01:00` does not). ' +
      'A date-time without a timezone is refused.',
    examples: ['2026-01-02T03:04:05Z', '2026-01-02T00:04:05-03:00'],
  }) as const;

const instantOf = (name: string, read: (u: unknown) => unknown): Documented<Date, string> =>
  new Documented<Date, string>(
    name,
    (u): u is Date => u instanceof Date,
    (input, c) => {
      const u = read(input);
      if (typeof u !== 'string' || !ISO_DATE.test(u)) return t.failure(input, c, dateTimeProblem(u));
      const instant = calendarInstant(u);
      if (instant === undefined) return t.failure(input, c, 'must be a real calendar date and time');
      return inFourDigitYears(instant) ? t.success(instant) : t.failure(input, c, 'must fall in the years 0000 to 9999 once in UTC');
    },
    (d) => d.toISOString(),
    describeInstant,
    'DateTimeWithTimezone',
  );

/** An ISO 8601 date-time with a timezone, decoded to the instant it names. */
export const isoInstant = instantOf('IsoDateTimeWithTimezone', (u) => u);

/**
 * The same in a query string, where a `+` of an offset that was not percent-encoded arrives as a
 * space; nothing else can put a space there, so it is read back as the `+` it was.
 */
export const queryInstant = new Documented<Date, string>(
  isoInstant.name,
  isoInstant.is,
  (u, c) => isoInstant.validate(typeof u === 'string' ? u.replace(/ (\d{2}:\d{2})$/, '+$1') : u, c),
  isoInstant.encode,
  (w) => w.schemaOf(isoInstant),
);

const UTC_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A date in a response: UTC with milliseconds, as `Date.prototype.toISOString` writes it. */
export const utcDateTime = component(
  'UtcDateTime',
  check('UtcDateTime', (u): u is string => typeof u === 'string' && UTC_MILLIS.test(u), 'must be a UTC date-time', {
    type: 'string',
    format: 'date-time',
    pattern: UTC_MILLIS.source,
    description: 'An instant in UTC with milliseconds.',
    examples: ['2026-01-02T03:04:05.000Z'],
  }),
);
