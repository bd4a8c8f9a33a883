import type { ReportDimension } from '../../domain/attribution';
import type { ProductMetricName, ProductName, ProductRow, ProductTotals } from '../../domain/product-report';
import type { CellTotals, MetricName, Metrics, Range, ReportScope } from '../../domain/report';
import type { SpendSumQuery } from './spend-repository';

/** Whether a ranking puts the highest figures first (the default) or the lowest (the biggest loss first). */
export type SortOrder = 'descending' | 'ascending';

/** How a report prices order lines (decision 0020): the dashboard's cost entries, on the calendar of its time zone now. */
export interface Costing {
  /** The dashboard's time zone: the days its cost entries' `from` are days of. */
  readonly costZone: string;
}

/** What a report asks the store for: the orders created in each bucket, grouped. */
export interface CellQuery extends ReportScope, Costing {
  /** Disjoint, ascending `[start, end)` ranges of `createdAt`, in milliseconds since the epoch. */
  readonly buckets: readonly Range[];
  /** The dimensions to group by (none: one cell per bucket and currency). */
  readonly by: readonly ReportDimension[];
}

/** The totals of the orders of one bucket, key and currency (money is never added across currencies), their lines priced. */
export interface ReportCell extends CellTotals {
  readonly bucket: number;
  /** The value of each `by` dimension, and nothing else. */
  readonly key: Readonly<Partial<Record<ReportDimension, string>>>;
  readonly currency: string;
}

/** The days of spend that count in a range: `days` absent when no day of the dashboard's zone starts within it. */
export interface SpendDays {
  readonly days?: Pick<SpendSumQuery, 'from' | 'to'>;
}

/**
 * What a breakdown asks the store for: one range's orders grouped by `by` and currency, joined with
 * spend, ranked and cut; with `previous`, the period before too, so that every key of either period
 * takes part in the ranking.
 */
export interface RankedBreakdownQuery extends ReportScope, Costing {
  readonly range: Range;
  readonly by: readonly ReportDimension[];
  readonly sort: MetricName;
  /** Highest first unless `ascending` (the biggest loss first, say). */
  readonly order?: SortOrder;
  readonly limit: number;
  /** The dashboard's tax rate (percent), which `taxCents` and what follows from it need. */
  readonly taxRate: number;
  /**
   * Present when spend joins the rows (decision 0016: `by` names spend's dimensions only): the spend of
   * `days`, none when no day of the dashboard's zone starts within the range. Absent, every row's
   * `spendCents` is null.
   */
  readonly spend?: Pick<SpendSumQuery, 'by' | 'filters'> & SpendDays;
  /**
   * `compare=previous` (decision 0020): the period before `range` (previousRange) and its spend days.
   * Every row then carries `previous`; a key found only there is a row whose current metrics are those
   * of no orders, ranked and cut like any other.
   */
  readonly previous?: { readonly range: Range; readonly spend?: SpendDays };
}

export interface BreakdownRow extends Metrics {
  readonly key: Readonly<Partial<Record<ReportDimension, string>>>;
  readonly currency: string;
  /** With `compare=previous`: the same key's metrics over the previous period. */
  readonly previous?: Metrics;
}

export interface Breakdown {
  /**
   * At most `limit`, by the sort metric (of the current period) in the query's order, a null after
   * every number either way, then by the key's values in `by` order, then currency, each ascending by
   * code point.
   */
  readonly rows: readonly BreakdownRow[];
  /** Every row of the breakdown, before `limit`. */
  readonly totalRows: number;
  /** Σ `uncostedUnits` over every row of the current period, before `limit`. */
  readonly uncostedUnits: number;
}

/** What the products report asks the store for (decision 0020): a row per product and currency, ranked and cut. */
export interface ProductQuery extends ReportScope, Costing {
  readonly range: Range;
  readonly sort: ProductMetricName;
  readonly limit: number;
  /** `compare=previous`: the period before `range`; a product sold only then is a row too. */
  readonly previous?: { readonly range: Range };
}

/**
 * What some of a range's orders add to one product's row: stores add cells up (rank-products.ts),
 * the latest name winning.
 */
export interface ProductCell extends ProductTotals, ProductName {
  readonly product: string;
  readonly currency: string;
}

/**
 * What a report's profit leaves out: the paid units of its current period (every row of it, not only
 * the rows answered) that no cost priced, and how many distinct products they are. Zero and zero when
 * every paid unit had a cost.
 */
export interface UncostedSummary {
  readonly units: number;
  readonly products: number;
}

export interface ProductReport {
  /**
   * At most `limit`, descending by the sort column (of the current period), then by product, then
   * currency, each ascending by code point.
   */
  readonly rows: readonly ProductRow[];
  /** Every row before `limit`. */
  readonly totalRows: number;
  /** Over every row of the current period. */
  readonly uncosted: UncostedSummary;
}

/** The products sold without a cost over a range, in a report's scope. */
export interface UncostedQuery extends ReportScope, Costing {
  readonly range: Range;
  readonly limit: number;
}

/** A product and currency some of whose paid units in the range no cost priced. */
export interface UncostedProduct {
  /** productOfLine: the name a cost entry for it takes. */
  readonly product: string;
  readonly currency: string;
  /** As the products report names it over the same range. */
  readonly name: string;
  /** Its paid units that no cost priced. */
  readonly uncostedUnits: number;
}

export interface UncostedProducts extends UncostedSummary {
  /** At most `limit`, by `uncostedUnits` descending, then by product, then currency, by code point. */
  readonly rows: readonly UncostedProduct[];
  /** Every product and currency with uncosted units, before `limit`. */
  readonly totalRows: number;
}

/**
 * Reports over the orders, each counted with its status now and attributed by the query's model
 * (decisions 0016, 0020). Implementations must agree on every figure and every row's place
 * (test/contract/report-reader.contract.ts, test/contract/profit-reports.contract.ts); how they avoid
 * reading every order a report covers is theirs to choose. On SQLite every write acknowledged before
 * the call is counted; MongoDB may lag by a few seconds, never counting an order twice. Cost entries
 * and the tax rate count as they are when the report is made.
 */
export interface ReportReader {
  /** The non-empty cells of the dashboard's orders: one per bucket, key and currency that has orders. */
  cells(dashboardId: string, query: CellQuery): Promise<readonly ReportCell[]>;

  /**
   * A breakdown's rows: the cells of `query.range` as `cells` gives them, a row per key and currency,
   * spend added in (a key with spend and no orders is a row), ranked by `query.sort` and cut at
   * `query.limit` (rank-breakdown.ts); with `query.previous`, both periods, every key of either one a
   * row. Only the rows answered cross to the caller: the store does the rest where it does not hold
   * the event loop for work that grows with the keys (decision 0023).
   */
  breakdown(dashboardId: string, query: RankedBreakdownQuery): Promise<Breakdown>;

  /**
   * The products report: a row per product (productOfLine) and currency of the orders created in
   * `query.range`, ranked and cut like a breakdown (rank-products.ts), only the rows answered crossing
   * to the caller.
   */
  products(dashboardId: string, query: ProductQuery): Promise<ProductReport>;

  /**
   * The products sold without a cost: the rows of the products report over `query.range` (same
   * products, names and scope) that have `uncostedUnits`, by those units, cut at `query.limit`, with
   * the totals over all of them. Costs as little as the products report, or less.
   */
  uncostedProducts(dashboardId: string, query: UncostedQuery): Promise<UncostedProducts>;

  /**
   * `uncostedProducts`' totals alone (its `units` and `products`), for a report that says what its
   * profit leaves out: cheaper than the list (no names, no ranking).
   */
  uncosted(dashboardId: string, query: Omit<UncostedQuery, 'limit'>): Promise<UncostedSummary>;

  /** Recomputes whatever the store keeps for reports from the orders themselves (`orders-cli reports rebuild`). */
  rebuild(): Promise<void>;
}
