import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import type { ReportScope } from '../../domain/report';
import type { DashboardRepository } from '../ports/dashboard-repository';
import type { ReportReader, UncostedProducts } from '../ports/report-reader';
import { dashboardNotFound, type DashboardNotFound } from '../shared/errors';

export interface UncostedProductsQuery extends ReportScope {
  /** Inclusive instants. */
  readonly from: Date;
  readonly to: Date;
  readonly limit: number;
}

/**
 * The products sold without a cost over a period: each product and currency whose paid units no cost
 * priced, with its name and those units, the most units first; what a profit leaves out, to be costed.
 */
export class ListUncostedProducts {
  constructor(
    private readonly dashboards: DashboardRepository,
    private readonly reports: ReportReader,
  ) {}

  async execute(dashboardId: string, query: UncostedProductsQuery): Promise<E.Either<DashboardNotFound, UncostedProducts>> {
    const found = await this.dashboards.findById(dashboardId);
    if (O.isNone(found)) return E.left(dashboardNotFound(dashboardId));
    const { model, isTest, filters, limit } = query;
    return E.right(
      await this.reports.uncostedProducts(dashboardId, {
        range: { start: query.from.getTime(), end: query.to.getTime() + 1 },
        model,
        isTest,
        filters,
        limit,
        costZone: found.value.timezone,
      }),
    );
  }
}
