import type { ReportDimension } from '../../domain/attribution';
import type { CellTotals, MetricName, Metrics, ReportScope } from '../../domain/report';
import type { SpendSumQuery } from './spend-repository';

/** What a report asks the store for: the orders created in each bucket, grouped. */
export interface CellQuery extends ReportScope {
  /** Disjoint, ascending `[start, end)` ranges of `createdAt`, in milliseconds since the epoch. */
  readonly buckets: readonly { readonly start: number; readonly end: number }[];
  /** The dimensions to group by (none: one cell per bucket and currency). */
  readonly by: readonly ReportDimension[];
}

/** The totals of the orders of one bucket, key and currency (money is never added across currencies). */
export interface ReportCell extends CellTotals {
  readonly bucket: number;
  /** The value of each `by` dimension. */
  readonly key: Readonly<Partial<Record<ReportDimension, string>>>;
  readonly currency: string;
}

/** What a breakdown asks the store for: one range's orders grouped by `by` and currency, joined with spend, ranked and cut. */
export interface RankedBreakdownQuery extends ReportScope {
  /** `[start, end)` of `createdAt`, in milliseconds since the epoch. */
  readonly range: { readonly start: number; readonly end: number };
  readonly by: readonly ReportDimension[];
  readonly sort: MetricName;
  readonly limit: number;
  /**
   * Present when spend joins the rows (DECISIONS D16: `by` names spend's dimensions only): the spend of
   * `days`, none when no day of the dashboard's zone starts within the range. Absent, every row's
   * `spendCents` is null.
   */
  readonly spend?: Pick<SpendSumQuery, 'by' | 'filters'> & { readonly days?: Pick<SpendSumQuery, 'from' | 'to'> };
}

export interface BreakdownRow extends Metrics {
  readonly key: Readonly<Partial<Record<ReportDimension, string>>>;
  readonly currency: string;
}

export interface Breakdown {
  /** At most `limit`, descending by the sort metric, a null after every number, then by key and currency. */
  readonly rows: readonly BreakdownRow[];
  /** Every row of the breakdown, before `limit`. */
  readonly totalRows: number;
}

/**
 * Reports over the orders, each counted with its status now and attributed by the query's model
 * (DECISIONS D16). Implementations must agree on every figure (test/contract/report-reader.contract.ts);
 * how they avoid reading every order a report covers is theirs to choose.
 */
export interface ReportReader {
  /**
   * The non-empty cells of the dashboard's orders: one per bucket, key and currency that has orders.
   * On SQLite every write acknowledged before the call is counted; MongoDB may lag by a few seconds,
   * never counting an order twice.
   */
  cells(dashboardId: string, query: CellQuery): Promise<readonly ReportCell[]>;

  /**
   * A breakdown's rows: the cells of `query.range` as `cells` gives them, a row per key and currency,
   * spend added in (a key with spend and no orders is a row), ranked by `query.sort` and cut at
   * `query.limit` (rank-breakdown.ts). Only the rows answered cross to the caller: the store does the
   * rest where it does not hold the event loop for work that grows with the keys (DECISIONS D23).
   */
  breakdown(dashboardId: string, query: RankedBreakdownQuery): Promise<Breakdown>;

  /** Recomputes whatever the store keeps for reports from the orders themselves (`orders-cli reports rebuild`). */
  rebuild(): Promise<void>;
}
