import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import type { ReportDimension } from '../../domain/attribution';
import { spendJoins, type MetricName, type ReportScope } from '../../domain/report';
import type { DashboardRepository } from '../ports/dashboard-repository';
import type { Breakdown, ReportReader } from '../ports/report-reader';
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

export type { Breakdown, BreakdownRow } from '../ports/report-reader';

/**
 * Which keys made money over a range (DECISIONS D16): the orders created within it grouped by `by`
 * and currency, joined with the spend of the days that start within it when `by` names only spend's
 * own dimensions (a key with spend and no orders is a row too). The store groups, joins, ranks and
 * cuts (ReportReader.breakdown): only the rows answered reach this thread.
 */
export class GetBreakdown {
  constructor(
    private readonly dashboards: DashboardRepository,
    private readonly reports: ReportReader,
  ) {}

  async execute(dashboardId: string, query: BreakdownQuery): Promise<E.Either<DashboardNotFound, Breakdown>> {
    const dashboard = await this.dashboards.findById(dashboardId);
    if (O.isNone(dashboard)) return E.left(dashboardNotFound(dashboardId));
    const range = { start: query.from.getTime(), end: query.to.getTime() + 1 };
    const { by, filters } = query;
    const spendBy = spendJoins(by) && filters.utmTerm === undefined ? by : undefined;
    const days = spendBy === undefined ? undefined : spendDaysWithin(range.start, range.end, dashboard.value.timezone);
    return E.right(
      await this.reports.breakdown(dashboardId, {
        ...query,
        range,
        ...(spendBy === undefined ? {} : { spend: { by: spendBy, filters, ...(days === undefined ? {} : { days }) } }),
      }),
    );
  }
}
