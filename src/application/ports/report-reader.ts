import type { ReportDimension } from '../../domain/attribution';
import type { CellTotals, ReportScope } from '../../domain/report';

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

  /** Recomputes whatever the store keeps for reports from the orders themselves (`orders-cli reports rebuild`). */
  rebuild(): Promise<void>;
}
