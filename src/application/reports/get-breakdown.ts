import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import type { ReportDimension } from '../../domain/attribution';
import { previousRange, spendJoins, type Comparison, type MetricName, type Range, type ReportScope } from '../../domain/report';
import type { DashboardRepository } from '../ports/dashboard-repository';
import type { Breakdown, ReportReader, SortOrder, UncostedSummary } from '../ports/report-reader';
import { dashboardNotFound, type DashboardNotFound } from '../shared/errors';
import { spendDaysWithin } from './report-spend';
import { uncostedSummary } from './uncosted-summary';

export interface BreakdownQuery extends ReportScope {
  /** Inclusive instants. */
  readonly from: Date;
  readonly to: Date;
  readonly by: readonly ReportDimension[];
  readonly sort: MetricName;
  /** Highest first unless `ascending`. */
  readonly order?: SortOrder;
  readonly limit: number;
  /** `previous`: each row carries the metrics of the equally long period that ends at `from` (decision 0020). */
  readonly compare?: Comparison;
}

export type { BreakdownRow } from '../ports/report-reader';

/** A breakdown, and what its profit leaves out over every row of the current period. */
export interface BreakdownReport extends Omit<Breakdown, 'uncostedUnits'> {
  readonly uncosted: UncostedSummary;
}

/** The spend days of a range, as a breakdown asks for them: absent when no day starts within it. */
const spendOf = (range: Range, zone: string) => {
  const days = spendDaysWithin(range.start, range.end, zone);
  return days === undefined ? {} : { days };
};

/**
 * Which keys made money over a range (decisions 0016, 0020): the orders created within it grouped by
 * `by` and currency, their lines priced with the dashboard's costs and taxed at its rate, joined with
 * the spend of the days that start within it when `by` names only spend's own dimensions (a key with
 * spend and no orders is a row too); with `compare`, the period before as well. The store groups,
 * joins, ranks and cuts (ReportReader.breakdown): only the rows answered reach this thread.
 */
export class GetBreakdown {
  constructor(
    private readonly dashboards: DashboardRepository,
    private readonly reports: ReportReader,
  ) {}

  async execute(dashboardId: string, query: BreakdownQuery): Promise<E.Either<DashboardNotFound, BreakdownReport>> {
    const found = await this.dashboards.findById(dashboardId);
    if (O.isNone(found)) return E.left(dashboardNotFound(dashboardId));
    const { timezone, taxRate } = found.value;
    const range = { start: query.from.getTime(), end: query.to.getTime() + 1 };
    const previous = query.compare === 'previous' ? previousRange(range) : undefined;
    const { by, filters, model, isTest, sort, limit } = query;
    const spendBy = spendJoins(by) && filters.utmTerm === undefined ? by : undefined;
    const { uncostedUnits, ...breakdown } = await this.reports.breakdown(dashboardId, {
      range,
      by,
      model,
      isTest,
      filters,
      sort,
      ...(query.order === undefined ? {} : { order: query.order }),
      limit,
      costZone: timezone,
      taxRate,
      ...(spendBy === undefined ? {} : { spend: { by: spendBy, filters, ...spendOf(range, timezone) } }),
      ...(previous === undefined
        ? {}
        : { previous: { range: previous, ...(spendBy === undefined ? {} : { spend: spendOf(previous, timezone) }) } }),
    });
    const uncosted = await uncostedSummary(this.reports, dashboardId, { range, model, isTest, filters, costZone: timezone }, uncostedUnits);
    return E.right({ ...breakdown, uncosted });
  }
}
