import { compareCodePoints } from '../../domain/code-point-order';
import { addTotals, metricsOf, ZERO_TOTALS, type CellTotals, type MetricName, type Range } from '../../domain/report';
import type { Breakdown, BreakdownRow, RankedBreakdownQuery, ReportCell, SortOrder, SpendDays } from '../ports/report-reader';
import type { SpendSum, SpendSumQuery } from '../ports/spend-repository';
import { EventLoopSlices } from '../shared/event-loop-slices';
import { FirstRows, metricBefore } from './first-rows';

/** What one period of a breakdown adds up: its cells, and the spend that joins them (undefined: spend does not join). */
export interface BreakdownPeriodData {
  readonly cells: Iterable<ReportCell>;
  readonly spend: Iterable<SpendSum> | undefined;
}

interface Sums {
  totals: CellTotals;
  spendCents: number;
}

interface Row {
  readonly key: BreakdownRow['key'];
  readonly currency: string;
  /** The key's values in `by` order, then the currency: the order of rows equal on the sort metric. */
  readonly tie: readonly string[];
  readonly current: Sums;
  previous: Sums | undefined;
}

interface Ranked {
  readonly row: BreakdownRow;
  readonly tie: readonly string[];
}

const tieBefore = (a: readonly string[], b: readonly string[]): boolean => {
  for (let i = 0; i < a.length; i++) {
    const order = compareCodePoints(a[i], b[i]);
    if (order !== 0) return order < 0;
  }
  return false;
};

/**
 * Whether `a` comes before `b`: by `sort` in `order`, a null after every number; then by key values in
 * `by` order and currency, by code point, ascending whatever the order.
 */
const before =
  (sort: MetricName, order: SortOrder) =>
  (a: Ranked, b: Ranked): boolean =>
    metricBefore(a.row[sort], b.row[sort], order) ?? tieBefore(a.tie, b.tie);

/**
 * A breakdown from its cells (decisions 0016, 0020): a row per key and currency, the sums of `spend`
 * added to their rows (a key with spend and no orders is a row, with `roas` 0), the metrics of each
 * row, and the first `query.limit` of them by `query.sort` in `query.order`. `spend` undefined: spend
 * does not join, and `spendCents` is null everywhere. With `previous`, every row carries the previous period's metrics,
 * and a key found only there is a row with the current metrics of nothing, ranked like the others.
 * Every store ranks with it; the work is cut into stretches of the event loop wherever it runs.
 */
export const rankBreakdown = async (
  cells: Iterable<ReportCell>,
  spend: Iterable<SpendSum> | undefined,
  query: Pick<RankedBreakdownQuery, 'by' | 'sort' | 'order' | 'limit' | 'taxRate'>,
  previous?: BreakdownPeriodData,
): Promise<Breakdown> => {
  const slices = new EventLoopSlices();
  const rows = new Map<string, Row>();
  const zero = (): Sums => ({ totals: ZERO_TOTALS, spendCents: 0 });
  const sumsOf = (key: Row['key'], currency: string, period: 'current' | 'previous'): Sums => {
    const tie = [...query.by.map((dimension) => key[dimension] ?? ''), currency];
    const id = JSON.stringify(tie);
    let row = rows.get(id);
    if (row === undefined) {
      // The key a row answers holds the dimensions of `by` and nothing else, whatever a store's cells carry.
      const own = Object.fromEntries(query.by.map((dimension) => [dimension, key[dimension]]));
      row = { key: own, currency, tie, current: zero(), previous: previous === undefined ? undefined : zero() };
      rows.set(id, row);
    }
    return period === 'current' ? row.current : row.previous!;
  };
  const add = async (data: BreakdownPeriodData, period: 'current' | 'previous'): Promise<void> => {
    for (const cell of data.cells) {
      const sums = sumsOf(cell.key, cell.currency, period);
      sums.totals = addTotals(sums.totals, cell);
      await slices.pause();
    }
    for (const sum of data.spend ?? []) {
      sumsOf(sum.key, sum.currency, period).spendCents += sum.amountCents;
      await slices.pause();
    }
  };
  await add({ cells, spend }, 'current');
  if (previous !== undefined) await add(previous, 'previous');
  const metrics = (sums: Sums, joined: boolean) => metricsOf(sums.totals, joined ? sums.spendCents : null, query.taxRate);
  const first = new FirstRows<Ranked>(query.limit, before(query.sort, query.order ?? 'descending'));
  let uncostedUnits = 0;
  for (const row of rows.values()) {
    uncostedUnits += row.current.totals.uncostedUnits;
    const ranked: BreakdownRow = {
      key: row.key,
      currency: row.currency,
      ...metrics(row.current, spend !== undefined),
      ...(row.previous === undefined ? {} : { previous: metrics(row.previous, previous?.spend !== undefined) }),
    };
    first.offer({ row: ranked, tie: row.tie });
    await slices.pause();
  }
  return { rows: first.inOrder().map((item) => item.row), totalRows: rows.size, uncostedUnits };
};

/**
 * The spend a breakdown joins, read by `sums`: undefined when spend does not join, none when no day of
 * the range counts. `days`: the current period's unless another's are given (the previous period's).
 */
export const joinedSpend = <R>(
  spend: RankedBreakdownQuery['spend'],
  sums: (query: SpendSumQuery) => R,
  days: SpendDays['days'] = spend?.days,
): R | readonly [] | undefined => {
  if (spend === undefined) return undefined;
  if (days === undefined) return [];
  return sums({ ...days, by: spend.by, byDate: false, filters: spend.filters });
};

/**
 * The breakdown of a store that reads a range's cells at a time: the range's cells and the spend that
 * joins them, then the previous range's when the query compares, ranked and cut.
 */
export const readBreakdown = async (
  query: RankedBreakdownQuery,
  cellsOf: (range: Range) => Promise<readonly ReportCell[]>,
  spendSums: (query: SpendSumQuery) => Promise<readonly SpendSum[]>,
): Promise<Breakdown> => {
  const period = async (range: Range, days = query.spend?.days) => ({
    cells: await cellsOf(range),
    spend: await joinedSpend(query.spend, spendSums, days),
  });
  const current = await period(query.range);
  const previous = query.previous === undefined ? undefined : await period(query.previous.range, query.previous.spend?.days);
  return rankBreakdown(current.cells, current.spend, query, previous);
};
