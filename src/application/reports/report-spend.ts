import { dateInZone, nextDate, startOfDate } from '../../domain/time-zone';

/**
 * The days of `zone` whose start falls within `[start, end)`: the spend a range counts (decision
 * 0016: a day's spend counts when that day starts within the report's range). Undefined when none does.
 */
export const spendDaysWithin = (start: number, end: number, zone: string): { from: string; to: string } | undefined => {
  let from = dateInZone(start, zone);
  if (startOfDate(from, zone) < start) from = nextDate(from);
  const to = dateInZone(end - 1, zone);
  return startOfDate(from, zone) < end && from <= to ? { from, to } : undefined;
};
