import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import {
  addTotals,
  metricsOf,
  shiftedBack,
  ZERO_TOTALS,
  type CellTotals,
  type Comparison,
  type Metrics,
  type ReportScope,
} from '../../domain/report';
import { bucketIndexOf, bucketsBetween, startOfDate, type Bucket, type ReportInterval } from '../../domain/time-zone';
import type { DashboardRepository } from '../ports/dashboard-repository';
import type { ReportReader, UncostedSummary } from '../ports/report-reader';
import type { SpendRepository } from '../ports/spend-repository';
import { dashboardNotFound, type DashboardNotFound } from '../shared/errors';
import { spendDaysWithin } from './report-spend';
import { uncostedSummary } from './uncosted-summary';

export interface TimeseriesQuery extends ReportScope {
  /** Inclusive instants. */
  readonly from: Date;
  readonly to: Date;
  readonly interval: ReportInterval;
  /** The calendar of the buckets; the dashboard's when absent. */
  readonly timezone?: string;
  /** `previous`: each bucket carries the metrics of itself moved back by the period's length (decision 0020). */
  readonly compare?: Comparison;
}

export interface BucketMetrics extends Metrics {
  /** The bucket's first instant, and the first instant after it (the instant after `to` for the last). */
  readonly start: number;
  readonly end: number;
}

export interface TimeseriesBucket extends BucketMetrics {
  /** With `compare=previous`: the bucket moved back by the period's length, and its metrics. */
  readonly previous?: BucketMetrics;
}

export interface Timeseries {
  readonly timezone: string;
  /** One series per currency, each with every bucket of the range. */
  readonly series: readonly { readonly currency: string; readonly buckets: readonly TimeseriesBucket[] }[];
  /** What the profit of the current buckets leaves out. */
  readonly uncosted: UncostedSummary;
}

/**
 * The dashboard's orders bucket by bucket (hours, days, ISO weeks, months of a time zone's calendar),
 * one series per currency, every bucket present (decision 0016), with the spend of the days that start
 * within each bucket, the lines priced with the dashboard's costs and taxed at its rate (decision 0020); spend is
 * not kept by `utmTerm`, so a series filtered by it has none. With `compare`, the buckets moved back by
 * the period's length are read in the same call, ahead of the others.
 */
export class GetTimeseries {
  constructor(
    private readonly dashboards: DashboardRepository,
    private readonly reports: ReportReader,
    private readonly spend: SpendRepository,
  ) {}

  async execute(dashboardId: string, query: TimeseriesQuery): Promise<E.Either<DashboardNotFound, Timeseries>> {
    const found = await this.dashboards.findById(dashboardId);
    if (O.isNone(found)) return E.left(dashboardNotFound(dashboardId));
    const dashboard = found.value;
    const timezone = query.timezone ?? dashboard.timezone;
    const current: readonly Bucket[] = bucketsBetween(query.from.getTime(), query.to.getTime(), query.interval, timezone);
    const length = query.to.getTime() + 1 - query.from.getTime();
    const previous = query.compare === 'previous' ? current.map((bucket) => shiftedBack(bucket, length)) : [];
    // The previous buckets end where the current ones begin: one ascending list, read at once.
    const buckets = [...previous, ...current];
    const cells = await this.reports.cells(dashboardId, { ...query, buckets, by: [], costZone: dashboard.timezone });
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
    let uncostedUnits = 0;
    for (const cell of cells) {
      const series = seriesOf(totals, cell.currency, ZERO_TOTALS);
      series[cell.bucket] = addTotals(series[cell.bucket], cell);
      if (cell.bucket >= previous.length) uncostedUnits += cell.uncostedUnits;
    }
    const joins = query.filters.utmTerm === undefined;
    const spendZone = dashboard.timezone;
    const days = joins && buckets.length > 0 ? spendDaysWithin(buckets[0].start, buckets[buckets.length - 1].end, spendZone) : undefined;
    if (days !== undefined) {
      for (const sum of await this.spend.sums(dashboardId, { ...days, by: [], byDate: true, filters: query.filters })) {
        const bucket = bucketIndexOf(buckets, startOfDate(sum.date!, spendZone));
        if (bucket >= 0) seriesOf(spent, sum.currency, 0)[bucket] += sum.amountCents;
      }
    }
    const metricsAt = (currency: string, i: number): BucketMetrics => ({
      start: buckets[i].start,
      end: buckets[i].end,
      ...metricsOf(totals.get(currency)?.[i] ?? ZERO_TOTALS, joins ? (spent.get(currency)?.[i] ?? 0) : null, dashboard.taxRate),
    });
    const currencies = [...new Set([...totals.keys(), ...spent.keys()])].sort();
    const { model, isTest, filters } = query;
    const range = { start: query.from.getTime(), end: query.to.getTime() + 1 };
    const uncosted = await uncostedSummary(
      this.reports,
      dashboardId,
      { range, model, isTest, filters, costZone: dashboard.timezone },
      uncostedUnits,
    );
    return E.right({
      timezone,
      uncosted,
      series: currencies.map((currency) => ({
        currency,
        buckets: current.map((_, i) => ({
          ...metricsAt(currency, previous.length + i),
          ...(previous.length === 0 ? {} : { previous: metricsAt(currency, i) }),
        })),
      })),
    });
  }
}
