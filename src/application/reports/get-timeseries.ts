import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { addTotals, metricsOf, ZERO_TOTALS, type CellTotals, type Metrics, type ReportScope } from '../../domain/report';
import { bucketIndexOf, bucketsBetween, startOfDate, type Bucket, type ReportInterval } from '../../domain/time-zone';
import type { DashboardRepository } from '../ports/dashboard-repository';
import type { ReportReader } from '../ports/report-reader';
import type { SpendRepository } from '../ports/spend-repository';
import { dashboardNotFound, type DashboardNotFound } from '../shared/errors';
import { spendDaysWithin } from './report-spend';

export interface TimeseriesQuery extends ReportScope {
  /** Inclusive instants. */
  readonly from: Date;
  readonly to: Date;
  readonly interval: ReportInterval;
  /** The calendar of the buckets; the dashboard's when absent. */
  readonly timezone?: string;
}

export interface TimeseriesBucket extends Metrics {
  /** The bucket's first instant, and the first instant after it (the instant after `to` for the last). */
  readonly start: number;
  readonly end: number;
}

export interface Timeseries {
  readonly timezone: string;
  /** One series per currency, each with every bucket of the range. */
  readonly series: readonly { readonly currency: string; readonly buckets: readonly TimeseriesBucket[] }[];
}

/**
 * The dashboard's orders bucket by bucket (hours, days, ISO weeks, months of a time zone's calendar),
 * one series per currency, every bucket present (DECISIONS D16), with the spend of the days that start
 * within each bucket; spend is not kept by `utmTerm`, so a series filtered by it has none.
 */
export class GetTimeseries {
  constructor(
    private readonly dashboards: DashboardRepository,
    private readonly reports: ReportReader,
    private readonly spend: SpendRepository,
  ) {}

  async execute(dashboardId: string, query: TimeseriesQuery): Promise<E.Either<DashboardNotFound, Timeseries>> {
    const dashboard = await this.dashboards.findById(dashboardId);
    if (O.isNone(dashboard)) return E.left(dashboardNotFound(dashboardId));
    const timezone = query.timezone ?? dashboard.value.timezone;
    const buckets: readonly Bucket[] = bucketsBetween(query.from.getTime(), query.to.getTime(), query.interval, timezone);
    const cells = await this.reports.cells(dashboardId, { ...query, buckets, by: [] });
    const totals = new Map<string, CellTotals[]>();
    const spent = new Map<string, number[]>();
    const seriesOf = <A>(map: Map<string, A[]>, currency: string, zero: A): A[] => {
      let series = map.get(currency);
      if (series === undefined) {
        series = buckets.map(() => zero);
        map.set(currency, series);
      }
      return series;
    };
    for (const cell of cells) {
      const series = seriesOf(totals, cell.currency, ZERO_TOTALS);
      series[cell.bucket] = addTotals(series[cell.bucket], cell);
    }
    const joins = query.filters.utmTerm === undefined;
    const spendZone = dashboard.value.timezone;
    const days = joins && buckets.length > 0 ? spendDaysWithin(buckets[0].start, buckets[buckets.length - 1].end, spendZone) : undefined;
    if (days !== undefined) {
      for (const sum of await this.spend.sums(dashboardId, { ...days, by: [], byDate: true, filters: query.filters })) {
        const bucket = bucketIndexOf(buckets, startOfDate(sum.date!, spendZone));
        if (bucket >= 0) seriesOf(spent, sum.currency, 0)[bucket] += sum.amountCents;
      }
    }
    const currencies = [...new Set([...totals.keys(), ...spent.keys()])].sort();
    return E.right({
      timezone,
      series: currencies.map((currency) => ({
        currency,
        buckets: buckets.map((bucket, i) => ({
          start: bucket.start,
          end: bucket.end,
          ...metricsOf(totals.get(currency)?.[i] ?? ZERO_TOTALS, joins ? (spent.get(currency)?.[i] ?? 0) : null),
        })),
      })),
    });
  }
}
