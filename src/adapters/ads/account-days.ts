import { dateInZone, isTimeZone } from '../../domain/time-zone';

/** The `days` days ending today in `zone` (UTC for a zone the service does not know), as `from` and `to`. */
export const accountDays = (now: Date, zone: string, days: number): { from: string; to: string } => {
  const to = dateInZone(now.getTime(), isTimeZone(zone) ? zone : 'UTC');
  const [y, m, d] = to.split('-').map(Number) as [number, number, number];
  const from = new Date(Date.UTC(y, m - 1, d - (days - 1))).toISOString().slice(0, 10);
  return { from, to };
};

/** Whether `date` is a day of `from..to`. */
export const isDayWithin = (date: string, from: string, to: string): boolean =>
  /^\d{4}-\d{2}-\d{2}$/.test(date) && date >= from && date <= to;
