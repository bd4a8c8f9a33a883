import type { Statement } from 'better-sqlite3';
import type { SpendSum, SpendSumQuery } from '../../../application/ports/spend-repository';
import { SPEND_DIMENSIONS, type SpendDimension } from '../../../domain/report';
import { builtStatements } from '../built-statements';
import type { ReadConnection } from '../reports/sqlite-report-reader';

const COLUMN: Readonly<Record<SpendDimension, string>> = {
  utmSource: 'utm_source',
  utmMedium: 'utm_medium',
  utmCampaign: 'utm_campaign',
  utmContent: 'utm_content',
};

/** Spend summed from the `spend` table and its rollups, on a connection of the service's or of the report thread's. */
export class SqliteSpendSums {
  private readonly prepared: (sql: string) => Statement;

  constructor(private readonly db: ReadConnection) {
    this.prepared = builtStatements(db);
  }

  /**
   * A timeseries without filters reads `spend_days`; one with filters reads the entries it names. A
   * breakdown reads the whole months of its range from `spend_months` and the days at each end from
   * the entries: a year is a dozen rows per key, not one per day.
   */
  sums(dashboardId: string, query: SpendSumQuery): SpendSum[] {
    const filters = SPEND_DIMENSIONS.filter((d) => query.filters[d] !== undefined);
    const bound = { dashboardId, ...Object.fromEntries(filters.map((d) => [`f_${d}`, query.filters[d]])) };
    const where = ['dashboard_id = @dashboardId', ...filters.map((d) => `${COLUMN[d]} = @f_${d}`)];
    const select = [...query.by.map((d) => `${COLUMN[d]} AS ${d}`), 'currency', 'sum(amount_cents) AS amountCents'];
    const group = [...query.by.map((d) => COLUMN[d]), 'currency'];
    type Row = Record<string, string | number> & { currency: string; amountCents: number; date?: string };
    const rows: Row[] = this.db.readTogether(() => {
      if (query.byDate) {
        const table = filters.length === 0 && query.by.length === 0 ? 'spend_days' : 'spend';
        return this.prepared(
          `SELECT date, ${select.join(', ')} FROM ${table} WHERE ${where.join(' AND ')} AND date BETWEEN @from AND @to GROUP BY date, ${group.join(', ')}`,
        ).all({ ...bound, from: query.from, to: query.to }) as Row[];
      }
      const months = wholeMonths(query.from, query.to);
      const days = (from: string, to: string) =>
        this.prepared(
          `SELECT ${select.join(', ')} FROM spend WHERE ${where.join(' AND ')} AND date BETWEEN @from AND @to GROUP BY ${group.join(', ')}`,
        ).all({
          ...bound,
          from,
          to,
        }) as Row[];
      if (months === undefined) return days(query.from, query.to);
      return [
        ...days(query.from, months.beforeFirst),
        ...(this.prepared(
          `SELECT ${select.join(', ')} FROM spend_months WHERE ${where.join(' AND ')} AND month BETWEEN @first AND @last GROUP BY ${group.join(', ')}`,
        ).all({ ...bound, first: months.first, last: months.last }) as Row[]),
        ...days(months.afterLast, query.to),
      ];
    });
    const sums = new Map<string, SpendSum & { amountCents: number }>();
    for (const row of rows) {
      const key = Object.fromEntries(query.by.map((d) => [d, row[d] as string]));
      const id = JSON.stringify([row.date ?? '', query.by.map((d) => row[d]), row.currency]);
      const sum = sums.get(id);
      if (sum === undefined)
        sums.set(id, { ...(query.byDate ? { date: row.date! } : {}), key, currency: row.currency, amountCents: row.amountCents });
      else sum.amountCents += row.amountCents;
    }
    return [...sums.values()];
  }
}

/**
 * The months (`YYYY-MM`) wholly inside `[from, to]`, with the day before the first and the day after
 * the last (the ends to read day by day); undefined when no month is whole.
 */
const wholeMonths = (from: string, to: string): { first: string; last: string; beforeFirst: string; afterLast: string } | undefined => {
  const [fy, fm, fd] = from.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = to.split('-').map(Number) as [number, number, number];
  const first = fd === 1 ? new Date(Date.UTC(fy, fm - 1, 1)) : new Date(Date.UTC(fy, fm, 1));
  const lastDay = new Date(Date.UTC(ty, tm, 0)).getUTCDate();
  const last = td === lastDay ? new Date(Date.UTC(ty, tm - 1, 1)) : new Date(Date.UTC(ty, tm - 2, 1));
  if (first > last) return undefined;
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return {
    first: day(first).slice(0, 7),
    last: day(last).slice(0, 7),
    beforeFirst: day(new Date(first.getTime() - 86_400_000)),
    afterLast: day(new Date(Date.UTC(last.getUTCFullYear(), last.getUTCMonth() + 1, 1))),
  };
};
