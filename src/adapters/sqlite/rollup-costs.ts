import type { Database, Statement } from 'better-sqlite3';
import { productOfLine, unitCostLookup, type ProductCostEntry, type UnitCostOf } from '../../domain/product-cost';
import { costTotalsOf, ZERO_COST_TOTALS, type CostTotals, type Range, type ReportLine } from '../../domain/report';
import { startOfDate } from '../../domain/time-zone';
import type { OrderRow } from './order-rows';
import { ORDER_ROLLUPS, rebuildStatements } from './report-schema';
import { RollupFold } from './rollup-fold';

/**
 * What the rollups keep of an order's costs (DECISIONS D20), beside its status totals: its paid lines
 * priced at the dashboard's product costs as they are now, on the calendar of its time zone now. The
 * rollups hold every order at today's prices, so a report reads costs with the totals, from the same
 * rows; what changes today's prices (a cost upload, a change of time zone, a rebuild) moves the orders
 * it re-prices from the old price to the new one in the rollups, in its own transaction, and never
 * rewrites an order.
 */

/** The columns a priced row carries beside those of `orders`: what the order adds to the rollups' cost sums (report-schema.ts). */
const PRODUCT_COST_CENTS = 'product_cost_cents';
const UNCOSTED_UNITS = 'uncosted_units';

/** The lines of an order row, as a report reads them. */
const linesOf = (row: OrderRow): ReportLine[] =>
  (
    JSON.parse(row['products'] as string) as { name: string; quantity: number; unitPriceCents: number; externalId?: string; sku?: string }[]
  ).map((line) => ({ product: productOfLine(line), name: line.name, quantity: line.quantity, unitPriceCents: line.unitPriceCents }));

/** The cost totals of an order row under `unitCostOf`: zero unless it is paid now. */
export const costsOfRow = (row: OrderRow, unitCostOf: UnitCostOf): CostTotals =>
  row['status'] !== 'paid'
    ? ZERO_COST_TOTALS
    : costTotalsOf(
        { status: 'paid', currency: row['currency'] as string, createdAt: row['created_at'] as number, lines: linesOf(row) },
        unitCostOf,
      );

/** `row` with what it adds to the cost sums. */
export const pricedRow = (row: OrderRow, costs: CostTotals): OrderRow => ({
  ...row,
  [PRODUCT_COST_CENTS]: costs.productCostCents,
  [UNCOSTED_UNITS]: costs.uncostedUnits,
});

/** How many (zone, day) starts are remembered: the days costs begin on are few. */
const KNOWN_DAYS = 4_096;

/**
 * Prices the order rows a write records in the rollups (RollupFold), on the write's connection, inside
 * its transaction: the unit cost of each line is looked up in `product_costs` as it stands in that
 * transaction, so two processes writing one file price alike. A dashboard without costs costs one
 * lookup per paid order.
 */
export class RollupPricer {
  private readonly anyCost: Statement;
  private readonly zone: Statement;
  private readonly history: Statement;
  private dayStarts = new Map<string, number>();

  constructor(db: Pick<Database, 'prepare'>) {
    this.anyCost = db.prepare('SELECT 1 FROM product_costs WHERE dashboard_id = ? LIMIT 1').pluck();
    this.zone = db.prepare('SELECT timezone FROM dashboards WHERE id = ?').pluck();
    this.history = db
      .prepare(
        'SELECT from_date, unit_cost_cents FROM product_costs WHERE dashboard_id = ? AND product = ? AND currency = ? ORDER BY from_date DESC',
      )
      .raw();
  }

  /** `row` priced, unless it already is (a re-pricing gives its rows their prices). */
  priced(row: OrderRow): OrderRow {
    if (row[PRODUCT_COST_CENTS] !== undefined) return row;
    if (row['status'] !== 'paid') return pricedRow(row, ZERO_COST_TOTALS);
    const dashboardId = row['dashboard_id'] as string;
    if (this.anyCost.get(dashboardId) === undefined)
      return pricedRow(
        row,
        costsOfRow(row, () => undefined),
      );
    const zone = (this.zone.get(dashboardId) as string | undefined) ?? 'UTC';
    return pricedRow(
      row,
      costsOfRow(row, (product, currency, at) => {
        for (const [from, cents] of this.history.iterate(dashboardId, product, currency) as Iterable<[string, number]>)
          if (this.startOf(from, zone) <= at) return cents;
        return undefined;
      }),
    );
  }

  private startOf(date: string, zone: string): number {
    const id = `${zone}\u0000${date}`;
    let start = this.dayStarts.get(id);
    if (start === undefined) {
      if (this.dayStarts.size >= KNOWN_DAYS) this.dayStarts = new Map();
      start = startOfDate(date, zone);
      this.dayStarts.set(id, start);
    }
    return start;
  }
}

/** What re-pricing needs of a connection: the service's (SqliteDatabase, inside a write) or a raw one. */
interface Preparing {
  prepare(sql: string): Statement;
}

/** Before and after every instant an order can have. */
export const ALL_TIME: Range = { start: -8.64e15, end: 8.64e15 + 1 };

/** Overlapping or touching ranges joined, in order. */
export const joinedRanges = (ranges: readonly Range[]): Range[] => {
  const sorted = [...ranges].filter((r) => r.end > r.start).sort((a, b) => a.start - b.start);
  const joined: Range[] = [];
  for (const range of sorted) {
    const last = joined[joined.length - 1];
    if (last !== undefined && range.start <= last.end)
      joined[joined.length - 1] = { start: last.start, end: Math.max(last.end, range.end) };
    else joined.push(range);
  }
  return joined;
};

/**
 * Moves the costs the rollups hold for the dashboard's paid orders created in `windows` from their
 * price under `before` to their price under `after` (in the fold, inside the running write). Reads
 * the paid orders of the windows, each once; an order whose price does not change is left alone.
 * Returns how many orders moved.
 */
export const repriceOrders = (
  db: Preparing,
  fold: RollupFold,
  dashboardId: string,
  windows: readonly Range[],
  before: UnitCostOf | 'unpriced',
  after: UnitCostOf,
): number => {
  const scan = db.prepare(
    `SELECT ${fold.reads.join(', ')} FROM orders INDEXED BY orders_by_status_newest_first
     WHERE dashboard_id = ? AND status = 'paid' AND created_at >= ? AND created_at < ?`,
  );
  let moved = 0;
  for (const window of joinedRanges(windows)) {
    for (const row of scan.iterate(dashboardId, window.start, window.end) as Iterable<OrderRow>) {
      const was = before === 'unpriced' ? costsOfRow(row, () => undefined) : costsOfRow(row, before);
      const is = costsOfRow(row, after);
      if (was.productCostCents === is.productCostCents && was.uncostedUnits === is.uncostedUnits) continue;
      fold.replace(pricedRow(row, was), pricedRow(row, is));
      moved += 1;
    }
  }
  return moved;
};

/** A dashboard's product costs and time zone (`zone` when it has no row), read on `db`. */
export const priceListOf = (db: Preparing, dashboardId: string, zone = 'UTC'): { entries: ProductCostEntry[]; zone: string } => ({
  entries: db
    .prepare('SELECT product, currency, from_date AS "from", unit_cost_cents AS unitCostCents FROM product_costs WHERE dashboard_id = ?')
    .all(dashboardId) as ProductCostEntry[],
  zone: (db.prepare('SELECT timezone FROM dashboards WHERE id = ?').pluck().get(dashboardId) as string | undefined) ?? zone,
});

/**
 * Prices every paid order of every dashboard that has costs, from unpriced (what the rollups' SQL
 * rebuild sums: no cost, every unit uncosted) to the costs as they are: the second half of a rebuild.
 */
export const priceRebuiltRollups = (db: Preparing, fold: RollupFold, dashboards?: readonly string[]): number => {
  const ids = dashboards ?? (db.prepare('SELECT DISTINCT dashboard_id FROM product_costs').pluck().all() as string[]);
  let moved = 0;
  for (const dashboardId of ids) {
    const { entries, zone } = priceListOf(db, dashboardId);
    moved += repriceOrders(db, fold, dashboardId, [ALL_TIME], 'unpriced', unitCostLookup(entries, zone));
  }
  return moved;
};

/** Runs `change` in a transaction of its own on `db`, with a fold of its own (outside the group commit: a start, a copy). */
const withOwnFold = <T>(db: Database, change: (fold: RollupFold) => T): T => {
  const pricer = new RollupPricer(db);
  const fold = new RollupFold(db, ORDER_ROLLUPS, (row) => pricer.priced(row));
  return db
    .transaction(() => {
      fold.begin();
      fold.startWrite();
      const result = change(fold);
      fold.keepWrite();
      fold.beforeCommit();
      return result;
    })
    .immediate();
};

/**
 * Prices the orders of the dashboards that COSTS_IN_ROLLUPS_MIGRATION left unpriced, once, when the
 * service opens the file: several processes may open it at once, and the first takes them (the list
 * read again inside the transaction).
 */
export const priceDashboardsPending = (db: Database): void => {
  const pending = db.prepare('SELECT dashboard_id FROM rollup_costs_pending').pluck();
  if (pending.all().length === 0) return;
  withOwnFold(db, (fold) => {
    priceRebuiltRollups(db, fold, pending.all() as string[]);
    db.prepare('DELETE FROM rollup_costs_pending').run();
  });
};

/** Every rollup emptied and summed again from the orders, costs included, in one transaction of its own on `db` (a copy, a test). */
export const rebuildRollups = (db: Database): void => {
  withOwnFold(db, (fold) => {
    for (const sql of rebuildStatements()) db.prepare(sql).run();
    priceRebuiltRollups(db, fold);
  });
};

/**
 * Moves the dashboard's orders to the prices of its new time zone (inside the running write): each
 * cost entry's first instant moves from its day's start in `was` to its start in `is`, and only the
 * paid orders between the two can change price.
 */
export const repriceForZone = (db: Preparing, fold: RollupFold, dashboardId: string, was: string, is: string): number => {
  if (was === is) return 0;
  const { entries } = priceListOf(db, dashboardId);
  const windows = [...new Set(entries.map((entry) => entry.from))].map((date) => {
    const [a, b] = [startOfDate(date, was), startOfDate(date, is)];
    return { start: Math.min(a, b), end: Math.max(a, b) };
  });
  return repriceOrders(db, fold, dashboardId, windows, unitCostLookup(entries, was), unitCostLookup(entries, is));
};
