import type { CellQuery, ReportCell, ReportReader } from '../../application/ports/report-reader';
import { bucketIndexOf } from '../../domain/time-zone';
import { CellCollector, factsOfOrder } from '../persistence/report-cells';
import type { InMemoryOrderRepository } from './in-memory-order-repository';

/** Reports of the in-memory store: every order of the dashboard read at each report (the store is for trials and tests). */
export class InMemoryReportReader implements ReportReader {
  constructor(private readonly orders: InMemoryOrderRepository) {}

  async cells(dashboardId: string, query: CellQuery): Promise<readonly ReportCell[]> {
    const collector = new CellCollector(query);
    for (const order of this.orders.ordersOf(dashboardId))
      collector.add(factsOfOrder(order), bucketIndexOf(query.buckets, order.createdAt.getTime()));
    return collector.result();
  }

  /** Nothing is kept beside the orders. */
  async rebuild(): Promise<void> {}
}
