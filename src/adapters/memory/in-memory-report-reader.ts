import type { Breakdown, CellQuery, RankedBreakdownQuery, ReportCell, ReportReader } from '../../application/ports/report-reader';
import { joinedSpend, rankBreakdown } from '../../application/reports/rank-breakdown';
import { EventLoopSlices } from '../../application/shared/event-loop-slices';
import { bucketIndexOf } from '../../domain/time-zone';
import { CellCollector, factsOfOrder } from '../persistence/report-cells';
import type { InMemoryOrderRepository } from './in-memory-order-repository';
import type { InMemorySpendRepository } from './in-memory-spend-repository';

/**
 * Reports of the in-memory store: every order of the dashboard read at each report (the store is for
 * trials and tests), in stretches of the event loop, so that a large one holds nobody up for long.
 */
export class InMemoryReportReader implements ReportReader {
  constructor(
    private readonly orders: InMemoryOrderRepository,
    private readonly spend: InMemorySpendRepository,
  ) {}

  async cells(dashboardId: string, query: CellQuery): Promise<readonly ReportCell[]> {
    const collector = new CellCollector(query);
    const slices = new EventLoopSlices();
    for (const order of this.orders.ordersOf(dashboardId)) {
      collector.add(factsOfOrder(order), bucketIndexOf(query.buckets, order.createdAt.getTime()));
      await slices.pause();
    }
    return collector.result();
  }

  async breakdown(dashboardId: string, query: RankedBreakdownQuery): Promise<Breakdown> {
    const cells = await this.cells(dashboardId, { ...query, buckets: [query.range] });
    return rankBreakdown(cells, await joinedSpend(query.spend, (sums) => this.spend.sums(dashboardId, sums)), query);
  }

  /** Nothing is kept beside the orders. */
  async rebuild(): Promise<void> {}
}
