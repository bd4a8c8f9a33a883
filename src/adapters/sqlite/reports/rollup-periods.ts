/** The UTC grains of the rollups: quarter hour, hour, day and month. */
export type Grain = 'q' | 'h' | 'd' | 'm';

export const GRAINS: readonly Grain[] = ['q', 'h', 'd', 'm'];

const GRAIN_MS = { q: 900_000, h: 3_600_000, d: 86_400_000 } as const;

/** The start of an order's period, in SQL over a `created_at` expression (UTC milliseconds). */
export const periodStartSql = (grain: Grain, at: string): string =>
  grain === 'm'
    ? `(CAST(strftime('%s', ${at} / 1000, 'unixepoch', 'start of month') AS INTEGER) * 1000)`
    : `(${at} - ${at} % ${GRAIN_MS[grain]})`;

/** `periodStartSql` in JS, to the millisecond: integer division and remainder truncate toward zero in both, before 1970 too. */
export const periodStart = (grain: Grain, at: number): number => {
  if (grain !== 'm') return at - (at % GRAIN_MS[grain]);
  const month = new Date(at - (at % 1000));
  month.setUTCDate(1);
  month.setUTCHours(0, 0, 0, 0);
  return month.getTime();
};
