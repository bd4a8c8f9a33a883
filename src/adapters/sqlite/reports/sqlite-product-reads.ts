import type { Statement } from 'better-sqlite3';
import type { ProductCell, UncostedSummary } from '../../../application/ports/report-reader';
import { UNNAMED, type NameRows, type ProductTally } from '../../../application/reports/rank-products';
import { uncostedOfCells } from '../../../application/reports/uncosted-summary';
import { UTM_DIMENSIONS } from '../../../domain/attribution';
import type { UnitCostOf } from '../../../domain/product-cost';
import { laterName, type ProductName } from '../../../domain/product-report';
import type { Range, ReportScope } from '../../../domain/report';
import { nextPeriod, periodStart, piecesOf, type Grain, type Piece } from '../../persistence/report-pieces';
import { builtStatements } from '../built-statements';
import { PRODUCT_GRAINS } from './product-rollup';
import { linesOf, type SqliteProfitReads } from './sqlite-profit-reads';
import type { ReadConnection } from './sqlite-report-reader';

/** A run of whole periods of one grain read from `report_products`. */
export interface RollupRange {
  readonly grain: Grain;
  readonly start: number;
  /** Exclusive. */
  readonly end: number;
}

/** What a products report reads of one period: its cells, and the rollup's ranges whose products are still to be named. */
export interface ProductPeriodRead {
  readonly cells: ProductCell[];
  readonly rollup: readonly RollupRange[];
}

/** A row of `report_products` as naming needs it. */
interface NamedRow {
  readonly grain: Grain;
  readonly start: number;
  readonly isTest: number;
  readonly name: string | null;
  readonly namedAt: number | null;
  readonly namedBy: string | null;
  readonly nameStale: number;
}

/**
 * What reading a piece costs, in days of rollup rows: a month or a year holds fewer rows than its days
 * (a product sold on many days is one row), and an edge's orders, read and priced one by one, cost
 * about twenty times a day's rows per day they span (1,000,000 orders over a year: a day holds 2,600
 * rows, a month 16,000, a year 29,000).
 */
const PIECE_COST: Readonly<Record<Grain, number>> = { y: 11, m: 6, d: 1, h: 1, q: 1 };
const EDGE_COST_PER_DAY = 20;
const DAY_MS = 86_400_000;

const costOf = (piece: Piece): number =>
  piece.grain === 'edge' ? (EDGE_COST_PER_DAY * (piece.end - piece.start)) / DAY_MS : PIECE_COST[piece.grain];

const SUMS =
  'sum(r.orders) AS orders, sum(r.units) AS units, sum(r.paid_units) AS paidUnits, sum(r.paid_revenue_cents) AS paidRevenueCents, ' +
  'sum(r.product_cost_cents) AS productCostCents, sum(r.uncosted_units) AS uncostedUnits';

type SumRow = Omit<ProductCell, 'name' | 'namedAt' | 'namedBy'>;

/**
 * The products report's cells on SQLite (decision 0020): without a campaign filter, the whole UTC
 * years, months and days of the range are read from `report_products` (product-rollup.ts) and only
 * its edges (less than a day at each end) from the orders, as a breakdown by campaign reads its
 * rollups; with one (the rollup has no campaign columns), or while a re-pricing job of the dashboard
 * runs (its rows then hold some orders at the prices before it), every order of the range is read
 * (SqliteProfitReads.productCells).
 *
 * The rollup's sums are read for every product, but its names only for the rows a report answers
 * (`nameRows`, once ranked): carrying every product's name through the grouping cost more than the
 * sums themselves. A product's name is that of its latest order, so it is in the latest of the
 * rollup's periods that holds the product: that row's name, unless it is stale (its order was taken
 * away since, Rollup.named), when it is found again from the orders of that period.
 */
export class SqliteProductReads {
  private readonly prepared: (sql: string) => Statement;

  constructor(
    private readonly db: ReadConnection,
    private readonly profit: SqliteProfitReads,
  ) {
    this.prepared = builtStatements(db);
  }

  cells(dashboardId: string, scope: ReportScope, range: Range, unitCostOf: UnitCostOf): ProductPeriodRead {
    return this.db.readTogether(() => {
      const plan = this.planOf(dashboardId, scope, range);
      if (plan === undefined) return { cells: this.profit.productCells(dashboardId, scope, range, unitCostOf), rollup: [] };
      const cells: ProductCell[] = [];
      if (plan.rollup.length > 0)
        for (const row of this.rollupStatement(SUMS, plan.rollup.length, scope, 'r.orders > 0', 'r.currency, r.product').all(
          plan.bound,
        ) as SumRow[])
          cells.push({ ...row, ...UNNAMED });
      for (const edge of plan.edges) cells.push(...this.profit.productCells(dashboardId, scope, edge, unitCostOf));
      return { cells, rollup: plan.rollup };
    });
  }

  /** ReportReader.uncosted: the rollup's rows that have uncosted units, by product, and the edges' orders. */
  uncosted(dashboardId: string, scope: ReportScope, range: Range, unitCostOf: UnitCostOf): UncostedSummary {
    return this.db.readTogether(() => {
      const plan = this.planOf(dashboardId, scope, range);
      if (plan === undefined) return uncostedOfCells(this.profit.uncostedCells(dashboardId, scope, range, unitCostOf));
      const cells: { product: string; uncostedUnits: number }[] = [];
      if (plan.rollup.length > 0)
        cells.push(
          ...(this.rollupStatement(
            'sum(r.uncosted_units) AS uncostedUnits',
            plan.rollup.length,
            scope,
            'r.uncosted_units > 0',
            'r.product',
          ).all(plan.bound) as { product: string; uncostedUnits: number }[]),
        );
      for (const edge of plan.edges) cells.push(...this.profit.uncostedCells(dashboardId, scope, edge, unitCostOf));
      return uncostedOfCells(cells);
    });
  }

  /**
   * How a range is read: its whole periods from the rollup (runs of each grain, and their bound
   * parameters) and its edges from the orders; undefined when every order of it must be read (a
   * campaign filter, or a re-pricing job of the dashboard). A range that begins before the
   * dashboard's first order, or ends after its last, holds the same orders whatever it covers beyond
   * them, so its ends move to where it is cheapest to read: a year to date up to now is the year's
   * rows, not its months, days and the orders of today.
   */
  private planOf(
    dashboardId: string,
    scope: ReportScope,
    range: Range,
  ): { rollup: RollupRange[]; edges: Range[]; bound: Record<string, string | number> } | undefined {
    const filtered = UTM_DIMENSIONS.some((d) => scope.filters[d] !== undefined);
    const repricing = this.prepared('SELECT 1 FROM reprice_jobs WHERE dashboard_id = ? LIMIT 1').get(dashboardId) !== undefined;
    if (filtered || repricing) return undefined;
    const pieces = this.cheapestPieces(dashboardId, range);
    const rollup: { grain: Grain; start: number; end: number }[] = [];
    for (const piece of pieces) {
      if (piece.grain === 'edge') continue;
      const last = rollup[rollup.length - 1];
      if (last !== undefined && last.grain === piece.grain && last.end === piece.start) last.end = piece.end;
      else rollup.push({ grain: piece.grain, start: piece.start, end: piece.end });
    }
    const bound: Record<string, string | number> = {
      dashboardId,
      ...(scope.isTest === undefined ? {} : { isTest: scope.isTest ? 1 : 0 }),
      ...Object.fromEntries(
        rollup.flatMap((r, i): [string, string | number][] => [
          [`g${i}`, r.grain],
          [`s${i}`, r.start],
          [`e${i}`, r.end],
        ]),
      ),
    };
    return { rollup, edges: pieces.filter((piece) => piece.grain === 'edge'), bound };
  }

  /** The pieces of the range, its ends moved within the spans without orders around it to where they cost the least to read. */
  private cheapestPieces(dashboardId: string, range: Range): Piece[] {
    const first = this.prepared(
      'SELECT created_at FROM orders INDEXED BY orders_newest_first WHERE dashboard_id = ? ORDER BY created_at, id LIMIT 1',
    )
      .pluck()
      .get(dashboardId) as number | undefined;
    if (first === undefined) return [];
    const last = this.prepared(
      'SELECT created_at FROM orders INDEXED BY orders_newest_first WHERE dashboard_id = ? ORDER BY created_at DESC, id DESC LIMIT 1',
    )
      .pluck()
      .get(dashboardId) as number;
    const starts = range.start <= first ? [range.start, ...PRODUCT_GRAINS.map((g) => periodStart(first, g))] : [range.start];
    const ends = range.end > last ? [range.end, ...PRODUCT_GRAINS.map((g) => nextPeriod(periodStart(last, g), g))] : [range.end];
    let cheapest: { pieces: Piece[]; cost: number } | undefined;
    for (const start of starts)
      for (const end of ends) {
        const pieces = piecesOf([{ start, end }], PRODUCT_GRAINS);
        const cost = pieces.reduce((sum, piece) => sum + costOf(piece), 0);
        if (cheapest === undefined || cost < cheapest.cost) cheapest = { pieces, cost };
      }
    return cheapest!.pieces;
  }

  /**
   * Names the rows a report answers from the rollup's ranges that its periods read (the later of each
   * row's own name, from the orders of the edges, and the latest the rollup gives it). Call it within
   * the same `readTogether` as `cells`, so that the names are of the same snapshot as the sums.
   */
  nameRows(dashboardId: string, scope: ReportScope, ranges: readonly RollupRange[]): NameRows {
    const periods = ranges
      .flatMap(({ grain, start, end }) => {
        const starts: { grain: Grain; start: number }[] = [];
        for (let at = start; at < end; at = nextPeriod(at, grain)) starts.push({ grain, start: at });
        return starts;
      })
      .sort((a, b) => b.start - a.start);
    const tests = scope.isTest === undefined ? [0, 1] : [scope.isTest ? 1 : 0];
    const find = this.prepared(
      `SELECT grain, start, is_test AS isTest, name, named_at AS namedAt, named_by AS namedBy, name_stale AS nameStale
       FROM report_products WHERE dashboard_id = @dashboardId AND grain = @grain AND start = @start AND is_test = @isTest
         AND currency = @currency AND product = @product AND orders > 0`,
    );
    return (rows: readonly ProductTally[]) => {
      for (const row of rows) {
        const found = this.latestInRollup(dashboardId, periods, tests, find, row.product, row.currency);
        if (found !== undefined) row.name = laterName(row.name, found);
      }
    };
  }

  /**
   * `select` (with the product) over the rows of the ranges (bound as `g<i>`, `s<i>`, `e<i>`) that
   * `where` keeps, grouped in the database by `group`.
   */
  private rollupStatement(select: string, ranges: number, scope: ReportScope, where: string, group: string): Statement {
    return this.prepared(
      `WITH ranges (g, s, e) AS (VALUES ${Array.from({ length: ranges }, (_, i) => `(@g${i}, @s${i}, @e${i})`).join(', ')})
       SELECT r.product AS product, ${group.includes('currency') ? 'r.currency AS currency, ' : ''}${select}
       FROM ranges CROSS JOIN report_products AS r
       WHERE r.dashboard_id = @dashboardId AND r.grain = ranges.g AND r.start >= ranges.s AND r.start < ranges.e AND ${where}${
         scope.isTest === undefined ? '' : ' AND r.is_test = @isTest'
       }
       GROUP BY ${group}`,
    );
  }

  /**
   * The latest name of the product in the rollup's periods: the periods do not overlap, and a row's
   * name is that of an order of its period, so it is found in the latest period that holds the
   * product (of either test flag), newest first.
   */
  private latestInRollup(
    dashboardId: string,
    periods: readonly { grain: Grain; start: number }[],
    tests: readonly number[],
    find: Statement,
    product: string,
    currency: string,
  ): ProductName | undefined {
    for (const { grain, start } of periods) {
      let latest: ProductName | undefined;
      for (const isTest of tests) {
        const row = find.get({ dashboardId, grain, start, isTest, currency, product }) as NamedRow | undefined;
        if (row === undefined) continue;
        const name =
          this.exact(row) ?? this.checked(dashboardId, product, currency, row) ?? this.resolved(dashboardId, product, currency, row);
        if (name !== undefined) latest = latest === undefined ? name : laterName(latest, name);
      }
      if (latest !== undefined) return latest;
    }
    return undefined;
  }

  /** The row's name, unless it is stale. */
  private exact(row: NamedRow): ProductName | undefined {
    return row.nameStale === 0 && row.name !== null && row.namedAt !== null && row.namedBy !== null
      ? { name: row.name, namedAt: row.namedAt, namedBy: row.namedBy }
      : undefined;
  }

  /** A stale row's name, if its order still gives it: in the row's test flag and currency, at the same instant, the product's first line so named. */
  private checked(dashboardId: string, product: string, currency: string, row: NamedRow): ProductName | undefined {
    if (row.name === null || row.namedAt === null || row.namedBy === null) return undefined;
    const order = this.prepared(
      `SELECT seq, is_test AS isTest, currency, products FROM orders INDEXED BY orders_newest_first
       WHERE dashboard_id = @dashboardId AND created_at = @at AND id = @id`,
    ).get({ dashboardId: dashboardId, at: row.namedAt, id: row.namedBy }) as
      { seq: number; isTest: number; currency: string; products: string } | undefined;
    if (order === undefined || order.isTest !== row.isTest || order.currency !== currency) return undefined;
    const line = linesOf(order.products, order.seq).find((l) => l.product === product);
    return line?.name === row.name ? { name: row.name, namedAt: row.namedAt, namedBy: row.namedBy } : undefined;
  }

  /** The name the latest order of the row's period, test flag and currency that holds the product gives it. */
  private resolved(dashboardId: string, product: string, currency: string, row: NamedRow): ProductName | undefined {
    const orders = this.prepared(
      `SELECT seq, id, created_at AS createdAt, products FROM orders INDEXED BY orders_newest_first
       WHERE dashboard_id = @dashboardId AND created_at >= @from AND created_at < @to AND is_test = @isTest AND currency = @currency
       ORDER BY created_at DESC, id DESC`,
    ).iterate({ dashboardId: dashboardId, from: row.start, to: nextPeriod(row.start, row.grain), isTest: row.isTest, currency });
    for (const order of orders as Iterable<{ seq: number; id: string; createdAt: number; products: string }>) {
      const line = linesOf(order.products, order.seq).find((l) => l.product === product);
      if (line !== undefined) return { name: line.name, namedAt: order.createdAt, namedBy: order.id };
    }
    return undefined;
  }
}
