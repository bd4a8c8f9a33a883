import type { Statement } from 'better-sqlite3';
import * as t from 'io-ts';
import type { CellQuery, ProductCell } from '../../../application/ports/report-reader';
import { UTM_DIMENSIONS, type ReportDimension } from '../../../domain/attribution';
import { unitCostLookup, unitCostOfLine, type UnitCostOf } from '../../../domain/product-cost';
import { costTotalsOf, reportLineOf, type Range, type ReportLine, type ReportScope } from '../../../domain/report';
import { ProductCollector } from '../../persistence/product-cells';
import type { CellCollector } from '../../persistence/report-cells';
import { builtStatements } from '../built-statements';
import { priceListOf } from './rollup-costs';
import type { ReadConnection } from './sqlite-report-reader';

/** The column of `orders` that holds each dimension under each model (report-schema.ts). */
export const ORDER_COLUMN: Readonly<Record<'last' | 'first', Readonly<Record<ReportDimension, string>>>> = {
  last: {
    utmSource: 'utm_source',
    utmMedium: 'utm_medium',
    utmCampaign: 'utm_campaign',
    utmContent: 'last_content',
    utmTerm: 'last_term',
    platform: 'platform',
    paymentMethod: 'payment_method',
  },
  first: {
    utmSource: 'first_source',
    utmMedium: 'first_medium',
    utmCampaign: 'first_campaign',
    utmContent: 'first_content',
    utmTerm: 'first_term',
    platform: 'platform',
    paymentMethod: 'payment_method',
  },
};

/** What a report reads of an order line in `orders.products`. */
const linesCodec = t.array(
  t.intersection([
    t.type({ name: t.string, quantity: t.number, unitPriceCents: t.number }),
    t.partial({ externalId: t.string, sku: t.string }),
  ]),
);

/** The lines of `orders.products`, checked (`seq` names the row that fails). */
export const linesOf = (text: string, seq: number): ReportLine[] => {
  const decoded = linesCodec.decode(JSON.parse(text));
  if (decoded._tag === 'Left') throw new Error(`the products of order row ${seq} cannot be read`);
  return decoded.right.map(reportLineOf);
};

interface OrderLinesRow {
  readonly seq: number;
  readonly id: string;
  readonly created_at: number;
  readonly status: 'paid' | 'pending' | 'refused' | 'refunded' | 'chargedback';
  readonly currency: string;
  readonly products: string;
  readonly [dimension: string]: string | number;
}

/**
 * What a SQLite report prices from the orders themselves (decision 0020): the edges of a breakdown or
 * timeseries (pieces shorter than the rollups' quarter hours, whose orders are read from `orders`; the
 * whole periods read their costs from the rollups, rollup-costs.ts), and the products report. The
 * orders read one by one with their lines, priced from `product_costs` as it is now, on the report's
 * snapshot: exact, and proportional to the orders read, so it runs in the report thread
 * (sqlite-report-worker.ts).
 */
export class SqliteProfitReads {
  private readonly prepared: (sql: string) => Statement;

  constructor(private readonly db: ReadConnection) {
    this.prepared = builtStatements(db);
  }

  /**
   * The dashboard's price list on the calendar of its time zone as the snapshot has it (`zone` for a
   * dashboard without a row), read on the first price asked: the rollups hold the costs of whole
   * periods, and a report without edges asks none.
   */
  priceList(dashboardId: string, zone: string): UnitCostOf {
    let made: UnitCostOf | undefined;
    return (product, currency, at) => {
      if (made === undefined) {
        const list = priceListOf(this.db, dashboardId, zone);
        made = unitCostLookup(list.entries, list.zone);
      }
      return made(product, currency, at);
    };
  }

  /** Adds into `collector`'s `bucket` what the lines of the query's paid orders created in `range` cost, each order under its key. */
  addCosts(
    dashboardId: string,
    query: CellQuery,
    range: Range & { readonly bucket: number },
    collector: CellCollector,
    unitCostOf: UnitCostOf,
  ): void {
    const rows = this.ordersOf(query, true, query.by).iterate(this.bound(dashboardId, query, range));
    for (const row of rows as Iterable<OrderLinesRow>) {
      const bucket = range.bucket;
      const key = Object.fromEntries(query.by.map((d) => [d, row[`k_${d}`] as string]));
      const costs = costTotalsOf(
        { status: 'paid', currency: row.currency, createdAt: row.created_at, lines: linesOf(row.products, row.seq) },
        unitCostOf,
      );
      collector.addTotals(bucket, key, row.currency, costs);
    }
  }

  /** The products report's cells of the orders of `range` in the scope. */
  productCells(dashboardId: string, scope: ReportScope, range: Range, unitCostOf: UnitCostOf): ProductCell[] {
    const collector = new ProductCollector(unitCostOf);
    const rows = this.ordersOf(scope, false, []).iterate(this.bound(dashboardId, scope, range));
    for (const row of rows as Iterable<OrderLinesRow>)
      collector.add({
        id: row.id,
        status: row.status,
        currency: row.currency,
        createdAt: row.created_at,
        lines: linesOf(row.products, row.seq),
      });
    return collector.result();
  }

  /** The uncosted units of the paid orders of `range` in the scope, a cell per product that has some (ReportReader.uncosted). */
  uncostedCells(
    dashboardId: string,
    scope: ReportScope,
    range: Range,
    unitCostOf: UnitCostOf,
  ): { product: string; uncostedUnits: number }[] {
    const cells: { product: string; uncostedUnits: number }[] = [];
    const rows = this.ordersOf(scope, true, []).iterate(this.bound(dashboardId, scope, range));
    for (const row of rows as Iterable<OrderLinesRow>)
      for (const line of linesOf(row.products, row.seq))
        if (unitCostOfLine(unitCostOf, line, row.currency, row.created_at) === undefined)
          cells.push({ product: line.product, uncostedUnits: line.quantity });
    return cells;
  }

  private bound(dashboardId: string, scope: ReportScope, range: Range): Record<string, string | number> {
    const filters = UTM_DIMENSIONS.filter((d) => scope.filters[d] !== undefined);
    return {
      dashboardId,
      from: range.start,
      to: range.end,
      ...(scope.isTest === undefined ? {} : { isTest: scope.isTest ? 1 : 0 }),
      ...Object.fromEntries(filters.map((d) => [`f_${d}`, scope.filters[d]!])),
    };
  }

  /** The orders of the range in the scope (only the paid ones when `paidOnly`), with their lines and the `by` columns as `k_<dimension>`. */
  private ordersOf(scope: ReportScope, paidOnly: boolean, by: readonly ReportDimension[]): Statement {
    const columns = ORDER_COLUMN[scope.model];
    const where = [
      'dashboard_id = @dashboardId',
      ...(paidOnly ? ["status = 'paid'"] : []),
      'created_at >= @from',
      'created_at < @to',
      ...(scope.isTest === undefined ? [] : ['is_test = @isTest']),
      ...UTM_DIMENSIONS.filter((d) => scope.filters[d] !== undefined).map((d) => `${columns[d]} = @f_${d}`),
    ];
    const select = ['seq', 'id', 'created_at', 'status', 'currency', 'products', ...by.map((d) => `${columns[d]} AS k_${d}`)];
    return this.prepared(
      `SELECT ${select.join(', ')} FROM orders INDEXED BY ${paidOnly ? 'orders_by_status_newest_first' : 'orders_newest_first'} WHERE ${where.join(' AND ')}`,
    );
  }
}
