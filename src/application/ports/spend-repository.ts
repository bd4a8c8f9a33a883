import type { SpendDimension } from '../../domain/report';
import type { SpendEntry } from '../../domain/spend';
import type { UtmDimension } from '../../domain/attribution';

export interface SpendPageQuery {
  /** Inclusive `YYYY-MM-DD` days. */
  readonly from?: string;
  readonly to?: string;
  /** 1-based. */
  readonly page: number;
  readonly pageSize: number;
}

export interface SpendPage {
  readonly entries: readonly SpendEntry[];
  /** Every entry of the dashboard in the range, whatever the page. */
  readonly total: number;
}

export interface SpendSumQuery {
  /** Inclusive `YYYY-MM-DD` days. */
  readonly from: string;
  readonly to: string;
  /** The spend dimensions to group by. */
  readonly by: readonly SpendDimension[];
  /** Group by day too (a timeseries), or not (a breakdown). */
  readonly byDate: boolean;
  /** Exact values of spend dimensions. */
  readonly filters: Readonly<Partial<Record<UtmDimension, string>>>;
}

export interface SpendSum {
  /** Present when grouped by day. */
  readonly date?: string;
  readonly key: Readonly<Partial<Record<SpendDimension, string>>>;
  readonly currency: string;
  readonly amountCents: number;
}

/** A dashboard's ad spend, one amount per (date, source, medium, campaign, content, currency). */
export interface SpendRepository {
  /**
   * Sets the amount of each entry's key (not added to), all of them or none: atomic. Entries of one
   * call have distinct keys. Resolves how many were stored.
   */
  upsert(dashboardId: string, entries: readonly SpendEntry[]): Promise<number>;
  /**
   * Replaces the spend `adAccount` wrote on each day of `from..to` with `entries` (all of that account
   * and within those days): a day without entries loses its rows. Each day is one atomic write, so a
   * report sees a day as it was or as it became, never half of it; an upload's rows are never touched.
   * Resolves how many entries were stored.
   */
  replaceAdAccountDays(dashboardId: string, adAccount: string, from: string, to: string, entries: readonly SpendEntry[]): Promise<number>;
  /** One page of the dashboard's entries, newest day first, then by key. */
  list(dashboardId: string, query: SpendPageQuery): Promise<SpendPage>;
  /** The amounts in the range, summed by the requested grouping; only non-empty groups. */
  sums(dashboardId: string, query: SpendSumQuery): Promise<readonly SpendSum[]>;
}
