import type { Statement } from 'better-sqlite3';
import type { ProductCell } from '../../../application/ports/report-reader';
import { UTM_DIMENSIONS } from '../../../domain/attribution';
import type { UnitCostOf } from '../../../domain/product-cost';
import { laterName, type ProductName } from '../../../domain/product-report';
import type { Range, ReportScope } from '../../../domain/report';
import { ProductCollector } from '../../persistence/product-cells';
import { nextPeriod, piecesOf, type Grain } from '../../persistence/report-pieces';
import { builtStatements } from '../built-statements';
import { latestSql, PRODUCT_GRAINS } from './product-rollup';
import { linesOf, type SqliteProfitReads } from './sqlite-profit-reads';
import type { ReadConnection } from './sqlite-report-reader';

/** A row of `report_products` as the reader needs it: where it is, and the name it holds. */
interface NamedRow {
  readonly grain: Grain;
  readonly start: number;
  readonly isTest: number;
  readonly name: string | null;
  readonly namedAt: number | null;
  readonly namedBy: string | null;
  readonly nameStale: number;
}

type SumRow = Omit<ProductCell, keyof ProductName> & NamedRow;

const SUMS =
  'sum(r.orders) AS orders, sum(r.units) AS units, sum(r.paid_units) AS paidUnits, sum(r.paid_revenue_cents) AS paidRevenueCents, ' +
  'sum(r.product_cost_cents) AS productCostCents, sum(r.uncosted_units) AS uncostedUnits';
const WHERE_ROWS = 'r.dashboard_id = @dashboardId AND r.grain = ranges.g AND r.start >= ranges.s AND r.start < ranges.e AND r.orders > 0';
const NAMED =
  'r.grain AS grain, r.start AS start, r.is_test AS isTest, r.name AS name, r.named_at AS namedAt, r.named_by AS namedBy, r.name_stale AS nameStale';

/**
 * The products report's cells on SQLite (DECISIONS D20): without a campaign filter, the whole UTC
 * months and days of the range are read from `report_products` (product-rollup.ts) and only its edges
 * (less than a day at each end) from the orders, as a breakdown by campaign reads its rollups; with one (the rollup has no
 * campaign columns), or while a re-pricing job of the dashboard runs (its rows then hold some orders
 * at the prices before it), every order of the range is read (SqliteProfitReads.productCells).
 *
 * A row's name is the latest its orders give it unless it is stale (its order was taken away since,
 * Rollup.named): the product's name is its rows' latest; when that one is stale, the product's rows
 * are walked from the latest name down, a stale one found again from the orders of its period, until
 * the latest exact name is later than every name left.
 */
export class SqliteProductReads {
  private readonly prepared: (sql: string) => Statement;

  constructor(
    private readonly db: ReadConnection,
    private readonly profit: SqliteProfitReads,
  ) {
    this.prepared = builtStatements(db);
  }

  cells(dashboardId: string, scope: ReportScope, range: Range, unitCostOf: UnitCostOf): ProductCell[] {
    return this.db.readTogether(() => {
      const filtered = UTM_DIMENSIONS.some((d) => scope.filters[d] !== undefined);
      const repricing = this.prepared('SELECT 1 FROM reprice_jobs WHERE dashboard_id = ? LIMIT 1').get(dashboardId) !== undefined;
      if (filtered || repricing) return this.profit.productCells(dashboardId, scope, range, unitCostOf);
      const pieces = piecesOf([range], PRODUCT_GRAINS);
      const ranges: { g: Grain; s: number; e: number }[] = [];
      for (const piece of pieces) {
        if (piece.grain === 'edge') continue;
        const last = ranges[ranges.length - 1];
        if (last !== undefined && last.g === piece.grain && last.e === piece.start) last.e = piece.end;
        else ranges.push({ g: piece.grain, s: piece.start, e: piece.end });
      }
      const cells = new ProductCollector(unitCostOf);
      if (ranges.length > 0) {
        const bound: Record<string, string | number> = {
          dashboardId,
          ...(scope.isTest === undefined ? {} : { isTest: scope.isTest ? 1 : 0 }),
          ...Object.fromEntries(
            ranges.flatMap((r, i): [string, string | number][] => [
              [`g${i}`, r.g],
              [`s${i}`, r.s],
              [`e${i}`, r.e],
            ]),
          ),
        };
        for (const row of this.sums(ranges.length, scope).all(bound) as (SumRow & { product: string; currency: string })[]) {
          const latest = this.latestName(bound, ranges.length, scope, row);
          if (latest !== undefined)
            cells.addCell({
              product: row.product,
              currency: row.currency,
              orders: row.orders,
              units: row.units,
              paidUnits: row.paidUnits,
              paidRevenueCents: row.paidRevenueCents,
              productCostCents: row.productCostCents,
              uncostedUnits: row.uncostedUnits,
              ...latest,
            });
        }
      }
      for (const edge of pieces.filter((piece) => piece.grain === 'edge'))
        for (const cell of this.profit.productCells(dashboardId, scope, edge, unitCostOf)) cells.addCell(cell);
      return cells.result();
    });
  }

  /** The sums of each product's rows in the ranges, with the row that holds the latest name (its bare columns, by `max`). */
  private sums(ranges: number, scope: ReportScope): Statement {
    return this.prepared(
      `WITH ranges (g, s, e) AS (VALUES ${Array.from({ length: ranges }, (_, i) => `(@g${i}, @s${i}, @e${i})`).join(', ')})
       SELECT r.currency AS currency, r.product AS product, ${SUMS}, ${NAMED}, max(${latestSql('r.named_at', 'r.named_by')}) AS latest
       FROM ranges CROSS JOIN report_products AS r WHERE ${WHERE_ROWS}${scope.isTest === undefined ? '' : ' AND r.is_test = @isTest'}
       GROUP BY r.currency, r.product`,
    );
  }

  /**
   * The latest name of the product's orders in the rows of the ranges: the row holding the latest
   * name, unless it is stale; then the rows by the name they hold, latest first (those without one
   * first), each stale one found again from its orders, until the latest exact one is later than
   * every name left.
   */
  private latestName(
    bound: Record<string, string | number>,
    ranges: number,
    scope: ReportScope,
    cell: SumRow & { product: string; currency: string },
  ): ProductName | undefined {
    const dashboardId = bound['dashboardId'] as string;
    const held = this.exact(cell);
    if (held !== undefined) return held;
    const rows = this.prepared(
      `WITH ranges (g, s, e) AS (VALUES ${Array.from({ length: ranges }, (_, i) => `(@g${i}, @s${i}, @e${i})`).join(', ')})
       SELECT ${NAMED} FROM ranges CROSS JOIN report_products AS r
       WHERE ${WHERE_ROWS} AND r.currency = @currency AND r.product = @product${scope.isTest === undefined ? '' : ' AND r.is_test = @isTest'}
       ORDER BY r.named_at IS NULL DESC, r.named_at DESC, r.named_by DESC`,
    ).all({ ...bound, currency: cell.currency, product: cell.product }) as NamedRow[];
    let latest: ProductName | undefined;
    for (const row of rows) {
      if (
        latest !== undefined &&
        row.namedAt !== null &&
        laterName({ name: '', namedAt: row.namedAt, namedBy: row.namedBy! }, latest) === latest
      )
        break;
      const found =
        this.exact(row) ??
        this.checked(dashboardId, cell.product, cell.currency, row) ??
        this.resolved(dashboardId, cell.product, cell.currency, row);
      if (found !== undefined) latest = latest === undefined ? found : laterName(latest, found);
    }
    return latest;
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
