import { compareCodePoints } from '../../domain/code-point-order';
import { addTotals, metricsOf, ZERO_TOTALS, type CellTotals, type MetricName } from '../../domain/report';
import type { Breakdown, BreakdownRow, RankedBreakdownQuery, ReportCell } from '../ports/report-reader';
import type { SpendSum, SpendSumQuery } from '../ports/spend-repository';
import { EventLoopSlices } from '../shared/event-loop-slices';

interface Row {
  readonly key: BreakdownRow['key'];
  readonly currency: string;
  totals: CellTotals;
  spendCents: number;
}

interface Ranked {
  readonly row: BreakdownRow;
  /** The key's values in `by` order, then the currency: what orders rows equal on the sort metric. */
  readonly tie: readonly string[];
}

/**
 * Whether `a` comes before `b` (DECISIONS D20): descending by `sort`, a null after every number; then
 * by the key's values in `by` order and the currency, each ascending by code point, as every store
 * must answer them.
 */
const before =
  (sort: MetricName) =>
  (a: Ranked, b: Ranked): boolean => {
    const [x, y] = [a.row[sort], b.row[sort]];
    if (x !== y) {
      if (x === null) return false;
      if (y === null) return true;
      return x > y;
    }
    for (let i = 0; i < a.tie.length; i++) {
      const order = compareCodePoints(a.tie[i], b.tie[i]);
      if (order !== 0) return order < 0;
    }
    return false;
  };

/**
 * The first `limit` of `rows` in order, kept in a heap whose root is the last of them: each row costs
 * log(limit), so ranking tens of thousands of keys never sorts them all.
 */
class FirstRows {
  private readonly heap: Ranked[] = [];

  constructor(
    private readonly limit: number,
    private readonly precedes: (a: Ranked, b: Ranked) => boolean,
  ) {}

  offer(item: Ranked): void {
    const { heap } = this;
    if (heap.length < this.limit) {
      heap.push(item);
      this.up(heap.length - 1);
    } else if (this.limit > 0 && this.precedes(item, heap[0])) {
      heap[0] = item;
      this.down(0);
    }
  }

  inOrder(): BreakdownRow[] {
    return [...this.heap].sort((a, b) => (this.precedes(a, b) ? -1 : this.precedes(b, a) ? 1 : 0)).map((item) => item.row);
  }

  /** The root is the item that comes last: a parent never comes before its children. */
  private up(at: number): void {
    const { heap } = this;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.precedes(heap[parent], heap[at])) return;
      [heap[parent], heap[at]] = [heap[at], heap[parent]];
      at = parent;
    }
  }

  private down(at: number): void {
    const { heap } = this;
    for (;;) {
      let last = at;
      for (const child of [2 * at + 1, 2 * at + 2]) if (child < heap.length && this.precedes(heap[last], heap[child])) last = child;
      if (last === at) return;
      [heap[last], heap[at]] = [heap[at], heap[last]];
      at = last;
    }
  }
}

/**
 * A breakdown from its cells (DECISIONS D16): a row per key and currency, the sums of `spend` added
 * to their rows (a key with spend and no orders is a row, with `roas` 0), the metrics of each row, and
 * the first `query.limit` of them by `query.sort`. `spend` undefined: spend does not join, and
 * `spendCents` is null everywhere.
 * Every store ranks with it; the work is cut into stretches of the event loop wherever it runs.
 */
export const rankBreakdown = async (
  cells: Iterable<ReportCell>,
  spend: Iterable<SpendSum> | undefined,
  query: Pick<RankedBreakdownQuery, 'by' | 'sort' | 'limit'>,
): Promise<Breakdown> => {
  const slices = new EventLoopSlices();
  const rows = new Map<string, Row>();
  const rowOf = (key: Row['key'], currency: string): Row => {
    const id = JSON.stringify([query.by.map((dimension) => key[dimension]), currency]);
    let row = rows.get(id);
    if (row === undefined) {
      // The key a row answers holds the dimensions of `by` and nothing else, whatever a store's cells carry.
      row = {
        key: Object.fromEntries(query.by.map((dimension) => [dimension, key[dimension]])),
        currency,
        totals: ZERO_TOTALS,
        spendCents: 0,
      };
      rows.set(id, row);
    }
    return row;
  };
  for (const cell of cells) {
    const row = rowOf(cell.key, cell.currency);
    row.totals = addTotals(row.totals, cell);
    await slices.pause();
  }
  for (const sum of spend ?? []) {
    rowOf(sum.key, sum.currency).spendCents += sum.amountCents;
    await slices.pause();
  }
  const first = new FirstRows(query.limit, before(query.sort));
  for (const row of rows.values()) {
    const ranked = { key: row.key, currency: row.currency, ...metricsOf(row.totals, spend === undefined ? null : row.spendCents) };
    first.offer({ row: ranked, tie: [...query.by.map((dimension) => row.key[dimension] ?? ''), row.currency] });
    await slices.pause();
  }
  return { rows: first.inOrder(), totalRows: rows.size };
};

/** The spend a breakdown joins, read by `sums`: undefined when spend does not join, none when no day of the range counts. */
export const joinedSpend = <R>(spend: RankedBreakdownQuery['spend'], sums: (query: SpendSumQuery) => R): R | readonly [] | undefined => {
  if (spend === undefined) return undefined;
  if (spend.days === undefined) return [];
  return sums({ ...spend.days, by: spend.by, byDate: false, filters: spend.filters });
};
