import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import type { ReportDimension } from '../../domain/attribution';
import {
  addTotals,
  metricsOf,
  spendJoins,
  ZERO_TOTALS,
  type CellTotals,
  type MetricName,
  type Metrics,
  type ReportScope,
} from '../../domain/report';
import type { DashboardRepository } from '../ports/dashboard-repository';
import type { ReportReader } from '../ports/report-reader';
import type { SpendRepository } from '../ports/spend-repository';
import { dashboardNotFound, type DashboardNotFound } from '../shared/errors';
import { spendDaysWithin } from './report-spend';

export interface BreakdownQuery extends ReportScope {
  /** Inclusive instants. */
  readonly from: Date;
  readonly to: Date;
  readonly by: readonly ReportDimension[];
  readonly sort: MetricName;
  readonly limit: number;
}

export interface BreakdownRow extends Metrics {
  readonly key: Readonly<Partial<Record<ReportDimension, string>>>;
  readonly currency: string;
}

export interface Breakdown {
  readonly rows: readonly BreakdownRow[];
  /** Every row of the breakdown, before `limit`. */
  readonly totalRows: number;
}

interface Row {
  readonly key: Readonly<Partial<Record<ReportDimension, string>>>;
  readonly currency: string;
  totals: CellTotals;
  spendCents: number;
}

/** Descending by `sort`, a null after every number; then by key and currency, so that pages are stable. */
const byMetric =
  (sort: MetricName) =>
  (a: BreakdownRow, b: BreakdownRow): number => {
    const [x, y] = [a[sort], b[sort]];
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return y - x;
    }
    const [ka, kb] = [JSON.stringify([a.key, a.currency]), JSON.stringify([b.key, b.currency])];
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  };

/**
 * Which keys made money over a range (DECISIONS D16): the orders created within it grouped by `by`
 * and currency, joined with the spend of the days that start within it when `by` names only spend's
 * own dimensions (a key with spend and no orders is a row too).
 */
export class GetBreakdown {
  constructor(
    private readonly dashboards: DashboardRepository,
    private readonly reports: ReportReader,
    private readonly spend: SpendRepository,
  ) {}

  async execute(dashboardId: string, query: BreakdownQuery): Promise<E.Either<DashboardNotFound, Breakdown>> {
    const dashboard = await this.dashboards.findById(dashboardId);
    if (O.isNone(dashboard)) return E.left(dashboardNotFound(dashboardId));
    const range = { start: query.from.getTime(), end: query.to.getTime() + 1 };
    const cells = await this.reports.cells(dashboardId, { ...query, buckets: [range] });
    const rows = new Map<string, Row>();
    const rowOf = (key: Row['key'], currency: string): Row => {
      const id = JSON.stringify([query.by.map((dimension) => key[dimension]), currency]);
      let row = rows.get(id);
      if (row === undefined) {
        row = { key, currency, totals: ZERO_TOTALS, spendCents: 0 };
        rows.set(id, row);
      }
      return row;
    };
    for (const cell of cells) {
      const row = rowOf(cell.key, cell.currency);
      row.totals = addTotals(row.totals, cell);
    }
    const { by } = query;
    const spendBy = spendJoins(by) && query.filters.utmTerm === undefined ? by : undefined;
    const joins = spendBy !== undefined;
    const days = joins ? spendDaysWithin(range.start, range.end, dashboard.value.timezone) : undefined;
    if (spendBy !== undefined && days !== undefined) {
      for (const sum of await this.spend.sums(dashboardId, { ...days, by: spendBy, byDate: false, filters: query.filters })) {
        rowOf(sum.key, sum.currency).spendCents += sum.amountCents;
      }
    }
    const all = [...rows.values()]
      .map((row): BreakdownRow => ({ key: row.key, currency: row.currency, ...metricsOf(row.totals, joins ? row.spendCents : null) }))
      .sort(byMetric(query.sort));
    return E.right({ rows: all.slice(0, query.limit), totalRows: all.length });
  }
}
