/**
 * Calendar arithmetic in an IANA time zone with nothing but Intl: where a zone's days, weeks, months
 * and hours begin, as instants (milliseconds since the epoch). A day may last 23 or 25 hours (a DST
 * change) and an offset may be +05:45: every boundary is found from the zone's own clock.
 */

export const REPORT_INTERVALS = ['hour', 'day', 'week', 'month'] as const;
export type ReportInterval = (typeof REPORT_INTERVALS)[number];

const HOUR = 3_600_000;

/** Date.UTC, but with the years 0-99 as they are: Date.UTC reads them as 1900-1999. */
const utc = (year: number, monthIndex: number, day: number, hour = 0, minute = 0, second = 0): number => {
  if (year >= 100) return Date.UTC(year, monthIndex, day, hour, minute, second);
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
};

const formatters = new Map<string, Intl.DateTimeFormat>();
const formatterOf = (zone: string): Intl.DateTimeFormat => {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
};

/**
 * The IANA names of today's zones IANA renamed after ICU fixed its canonical names: ICU still lists
 * `Asia/Calcutta`, but people write `Asia/Kolkata`. Both are accepted; Intl knows both.
 */
const CURRENT_NAMES = [
  'Africa/Asmara',
  'America/Argentina/Buenos_Aires',
  'America/Argentina/Catamarca',
  'America/Argentina/Cordoba',
  'America/Argentina/Jujuy',
  'America/Argentina/Mendoza',
  'America/Atikokan',
  'America/Indiana/Indianapolis',
  'America/Kentucky/Louisville',
  'America/Nuuk',
  'Asia/Ho_Chi_Minh',
  'Asia/Kathmandu',
  'Asia/Kolkata',
  'Asia/Yangon',
  'Atlantic/Faroe',
  'Europe/Kyiv',
  'Pacific/Chuuk',
  'Pacific/Kanton',
  'Pacific/Pohnpei',
  'UTC',
];

const accepted = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/**
 * Every time zone the service accepts, sorted: the zones Intl lists, their current IANA names and
 * `UTC`. A closed list, so that the OpenAPI document can state it (an enum) and a name Intl would
 * take as an alias (`US/Eastern`, `EST`) is refused rather than half supported.
 */
export const TIME_ZONES: readonly string[] = [
  ...new Set([...Intl.supportedValuesOf('timeZone'), ...CURRENT_NAMES.filter(accepted)]),
].sort();
const TIME_ZONE_SET = new Set(TIME_ZONES);

/** Whether `name` is one of TIME_ZONES (`UTC`, `America/Sao_Paulo`, `Asia/Kathmandu`). */
export const isTimeZone = (name: string): boolean => TIME_ZONE_SET.has(name);

export interface WallTime {
  readonly year: number;
  /** 1-12. */
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

/** The zone's clock at `instant`, read from Intl (slow: a few microseconds a call). */
export const intlWallTimeAt = (instant: number, zone: string): WallTime => {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(zone).formatToParts(new Date(instant))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return {
    year: parts['year'],
    month: parts['month'],
    day: parts['day'],
    hour: parts['hour'],
    minute: parts['minute'],
    second: parts['second'],
  };
};

const DAY = 86_400_000;

const intlOffsetAt = (instant: number, zone: string): number => {
  const wall = intlWallTimeAt(instant, zone);
  const asUtc = utc(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return Math.round((asUtc - (instant - (((instant % 1000) + 1000) % 1000))) / 60_000);
};

/** A zone's offsets over one UTC year: `offsets[0]` from the year's start, `offsets[i]` from `changes[i - 1]`. */
interface YearOffsets {
  readonly changes: readonly number[];
  readonly offsets: readonly number[];
}

const years = new Map<string, YearOffsets>();
const MAX_YEARS = 4_096;

/**
 * Where a zone's offset changes in a UTC year: its clock read once a day, and each change found to the
 * second by bisection (a zone changes its offset a few times a year at most, never twice in a day).
 * About 400 reads of Intl once per zone and year, then each offset is a look-up: a year of daily
 * buckets no longer reads Intl a thousand times on the event loop.
 */
const offsetsOfYear = (year: number, zone: string): YearOffsets => {
  const key = `${zone} ${year}`;
  let found = years.get(key);
  if (found !== undefined) return found;
  const start = utc(year, 0, 1);
  const end = utc(year + 1, 0, 1);
  const changes: number[] = [];
  const offsets = [intlOffsetAt(start, zone)];
  for (let probe = start + DAY; probe <= end; probe += DAY) {
    const at = Math.min(probe, end);
    const offset = intlOffsetAt(at, zone);
    if (offset === offsets[offsets.length - 1]) continue;
    // The first second with the new offset, in (at - DAY, at].
    let low = (at - DAY) / 1000;
    let high = at / 1000;
    while (high - low > 1) {
      const mid = Math.floor((low + high) / 2);
      if (intlOffsetAt(mid * 1000, zone) === offset) high = mid;
      else low = mid;
    }
    if (high * 1000 < end) {
      changes.push(high * 1000);
      offsets.push(offset);
    }
  }
  if (years.size >= MAX_YEARS) years.clear();
  found = { changes, offsets };
  years.set(key, found);
  return found;
};

/** Minutes the zone's clock is ahead of UTC at `instant` (+345 in Asia/Kathmandu, -180 in America/Sao_Paulo). */
export const offsetMinutesAt = (instant: number, zone: string): number => {
  const { changes, offsets } = offsetsOfYear(new Date(instant).getUTCFullYear(), zone);
  let i = 0;
  while (i < changes.length && changes[i] <= instant) i++;
  return offsets[i];
};

/** The zone's clock at `instant` (milliseconds dropped), from its offset there. */
export const wallTimeAt = (instant: number, zone: string): WallTime => {
  const local = new Date(instant + offsetMinutesAt(instant, zone) * 60_000);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
  };
};

/**
 * The first instant at which the zone's clock reads `year-month-day hour:00` or later: the wall time
 * itself, or, when a DST change skips it, the instant the clock jumps past it.
 */
export const instantOfWallTime = (year: number, month: number, day: number, hour: number, zone: string): number => {
  const wall = utc(year, month - 1, day, hour);
  // The offset is that of an instant near the wall time; two rounds settle it unless the time is skipped.
  let guess = wall - offsetMinutesAt(wall, zone) * 60_000;
  guess = wall - offsetMinutesAt(guess, zone) * 60_000;
  const seen = wallTimeAt(guess, zone);
  const seenUtc = utc(seen.year, seen.month - 1, seen.day, seen.hour, seen.minute, seen.second);
  if (seenUtc === wall) {
    // Of two instants that read the same (a DST change that repeats an hour), the earlier.
    const earlier = guess - HOUR;
    const before = wallTimeAt(earlier, zone);
    return utc(before.year, before.month - 1, before.day, before.hour, before.minute, before.second) === wall ? earlier : guess;
  }
  // Skipped: the clock jumped over it. The first instant after the jump reads later than `wall`.
  let low = guess - 2 * HOUR;
  let high = guess + 2 * HOUR;
  while (high - low > 60_000) {
    const mid = low + Math.floor((high - low) / 120_000) * 60_000;
    const at = wallTimeAt(mid, zone);
    const atUtc = utc(at.year, at.month - 1, at.day, at.hour, at.minute, at.second);
    if (atUtc >= wall) high = mid;
    else low = mid;
  }
  return high;
};

const addDays = (year: number, month: number, day: number, days: number): [number, number, number] => {
  const d = new Date(utc(year, month - 1, day + days));
  return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
};

/** The start of the bucket of `interval` that holds `instant`, in the zone's calendar (weeks from Monday). */
export const bucketStartOf = (instant: number, interval: ReportInterval, zone: string): number => {
  const wall = wallTimeAt(instant, zone);
  switch (interval) {
    case 'hour':
      return instant - (((instant % 1000) + 1000) % 1000) - (wall.minute * 60 + wall.second) * 1000;
    case 'day':
      return instantOfWallTime(wall.year, wall.month, wall.day, 0, zone);
    case 'week': {
      const weekday = (new Date(utc(wall.year, wall.month - 1, wall.day)).getUTCDay() + 6) % 7;
      const [y, m, d] = addDays(wall.year, wall.month, wall.day, -weekday);
      return instantOfWallTime(y, m, d, 0, zone);
    }
    case 'month':
      return instantOfWallTime(wall.year, wall.month, 1, 0, zone);
  }
};

/** The start of the bucket after the one that starts at `start`. */
export const nextBucketStart = (start: number, interval: ReportInterval, zone: string): number => {
  if (interval === 'hour') return start + HOUR;
  const wall = wallTimeAt(start, zone);
  if (interval === 'month') {
    const [y, m] = wall.month === 12 ? [wall.year + 1, 1] : [wall.year, wall.month + 1];
    return instantOfWallTime(y, m, 1, 0, zone);
  }
  const [y, m, d] = addDays(wall.year, wall.month, wall.day, interval === 'week' ? 7 : 1);
  return instantOfWallTime(y, m, d, 0, zone);
};

export interface Bucket {
  /** The first instant of the bucket (the report's `from` for the first one). */
  readonly start: number;
  /** The first instant after it (the instant after the report's `to` for the last one). */
  readonly end: number;
}

/**
 * When the zone's day `year-month-day` begins, trying first the offset of the day before: one look at
 * the zone's clock for most days, the full search only around a change of offset.
 */
const midnightNear = (year: number, month: number, day: number, offset: number, zone: string): { at: number; offset: number } => {
  const candidate = utc(year, month - 1, day) - offset * 60_000;
  if (offsetMinutesAt(candidate, zone) === offset) return { at: candidate, offset };
  const at = instantOfWallTime(year, month, day, 0, zone);
  return { at, offset: offsetMinutesAt(at, zone) };
};

/**
 * Every bucket of `interval` in the zone's calendar between `from` and `to` (inclusive instants),
 * in order, the first and last cut at `from` and `to`.
 */
export const bucketsBetween = (from: number, to: number, interval: ReportInterval, zone: string): Bucket[] => {
  const buckets: Bucket[] = [];
  const end = to + 1;
  let start = bucketStartOf(from, interval, zone);
  if (interval === 'hour') {
    for (; start < end; start += HOUR) buckets.push({ start: Math.max(start, from), end: Math.min(start + HOUR, end) });
    return buckets;
  }
  const wall = wallTimeAt(start, zone);
  let [year, month, day] = [wall.year, wall.month, wall.day];
  let offset = offsetMinutesAt(start, zone);
  while (start < end) {
    if (interval === 'month') [year, month, day] = month === 12 ? [year + 1, 1, 1] : [year, month + 1, 1];
    else [year, month, day] = addDays(year, month, day, interval === 'week' ? 7 : 1);
    const next = midnightNear(year, month, day, offset, zone);
    buckets.push({ start: Math.max(start, from), end: Math.min(next.at, end) });
    start = next.at;
    offset = next.offset;
  }
  return buckets;
};

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** `instant` as ISO 8601 on the zone's clock, with its offset: `2026-03-08T00:00:00.000-05:00`. */
export const isoInZone = (instant: number, zone: string): string => {
  const wall = wallTimeAt(instant, zone);
  const offset = offsetMinutesAt(instant, zone);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const ms = ((instant % 1000) + 1000) % 1000;
  return (
    `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}.${pad(ms, 3)}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
};

/** The zone's calendar day of `instant`, as `YYYY-MM-DD`. */
export const dateInZone = (instant: number, zone: string): string => {
  const wall = wallTimeAt(instant, zone);
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;
};

/** When the zone's calendar day `date` (`YYYY-MM-DD`) begins. */
export const startOfDate = (date: string, zone: string): number => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return instantOfWallTime(y, m, d, 0, zone);
};

/** The calendar day after `date`. */
export const nextDate = (date: string): string => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [ny, nm, nd] = addDays(y, m, d, 1);
  return `${pad(ny, 4)}-${pad(nm)}-${pad(nd)}`;
};

/** Whether `date` is a real `YYYY-MM-DD` calendar day. */
export const isCalendarDate = (date: string): boolean => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (match === null) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const back = new Date(utc(y, m - 1, d));
  return back.getUTCFullYear() === y && back.getUTCMonth() === m - 1 && back.getUTCDate() === d;
};

/** The index of the bucket `[start, end)` that holds `instant`, by binary search; -1 when none does. */
export const bucketIndexOf = (buckets: readonly { readonly start: number; readonly end: number }[], instant: number): number => {
  let low = 0;
  let high = buckets.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const bucket = buckets[mid];
    if (instant < bucket.start) high = mid - 1;
    else if (instant >= bucket.end) low = mid + 1;
    else return mid;
  }
  return -1;
};
