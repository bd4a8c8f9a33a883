import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import type { ProductMetricName } from '../../domain/product-report';
import { previousRange, type Comparison, type ReportScope } from '../../domain/report';
import type { DashboardRepository } from '../ports/dashboard-repository';
import type { ProductReport, ReportReader } from '../ports/report-reader';
import { dashboardNotFound, type DashboardNotFound } from '../shared/errors';

export interface ProductsQuery extends ReportScope {
  /** Inclusive instants. */
  readonly from: Date;
  readonly to: Date;
  readonly sort: ProductMetricName;
  readonly limit: number;
  /** `previous`: each row carries the figures of the equally long period that ends at `from`. */
  readonly compare?: Comparison;
}

/**
 * Which products sell and what they leave (decision 0020): the orders created in the range, a row per
 * product and currency, their paid lines priced with the dashboard's costs; ranked and cut by the store.
 */
export class GetProducts {
  constructor(
    private readonly dashboards: DashboardRepository,
    private readonly reports: ReportReader,
  ) {}

  async execute(dashboardId: string, query: ProductsQuery): Promise<E.Either<DashboardNotFound, ProductReport>> {
    const found = await this.dashboards.findById(dashboardId);
    if (O.isNone(found)) return E.left(dashboardNotFound(dashboardId));
    const range = { start: query.from.getTime(), end: query.to.getTime() + 1 };
    const { model, isTest, filters, sort, limit } = query;
    return E.right(
      await this.reports.products(dashboardId, {
        range,
        model,
        isTest,
        filters,
        sort,
        limit,
        costZone: found.value.timezone,
        ...(query.compare === 'previous' ? { previous: { range: previousRange(range) } } : {}),
      }),
    );
  }
}
