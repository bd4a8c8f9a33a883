/** The UTC grains of the rollups: quarter hour, hour, day, month and year. */
export type Grain = 'q' | 'h' | 'd' | 'm' | 'y';

/** The grains of the campaign rollups' projections. */
export const GRAINS = ['q', 'h', 'd', 'm'] as const satisfies readonly Grain[];

const GRAIN_MS = { q: 900_000, h: 3_600_000, d: 86_400_000 } as const;

/** The start of an order's period, in SQL over a `created_at` expression (UTC milliseconds). */
export const periodStartSql = (grain: Grain, at: string): string => {
  const seconds = `${at} / 1000, 'unixepoch'`;
  if (grain === 'm') return `(CAST(strftime('%s', ${seconds}, 'start of month') AS INTEGER) * 1000)`;
  if (grain === 'y') return `(CAST(strftime('%s', ${seconds}, 'start of year') AS INTEGER) * 1000)`;
  return `(${at} - ${at} % ${GRAIN_MS[grain]})`;
};

/** `periodStartSql` in JS, to the millisecond: integer division and remainder truncate toward zero in both, before 1970 too. */
export const periodStart = (grain: Grain, at: number): number => {
  if (grain !== 'm' && grain !== 'y') return at - (at % GRAIN_MS[grain]);
  const month = new Date(at - (at % 1000));
  month.setUTCDate(1);
  month.setUTCHours(0, 0, 0, 0);
  if (grain === 'y') month.setUTCMonth(0);
  return month.getTime();
};
