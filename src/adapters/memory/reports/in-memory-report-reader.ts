import type { ProductCostRepository } from '../../../application/ports/product-cost-repository';
import type {
  Breakdown,
  CellQuery,
  Costing,
  ProductCell,
  ProductQuery,
  ProductReport,
  RankedBreakdownQuery,
  ReportCell,
  ReportReader,
  UncostedProducts,
  UncostedQuery,
  UncostedSummary,
} from '../../../application/ports/report-reader';
import { readBreakdown } from '../../../application/reports/rank-breakdown';
import { readProducts, rankUncosted } from '../../../application/reports/rank-products';
import { uncostedOfCells } from '../../../application/reports/uncosted-summary';
import { EventLoopSlices } from '../../../application/shared/event-loop-slices';
import { unitCostLookup, type UnitCostOf } from '../../../domain/product-cost';
import type { Range, ReportScope } from '../../../domain/report';
import { bucketIndexOf } from '../../../domain/time-zone';
import { ProductCollector } from '../../persistence/product-cells';
import { CellCollector, factsOfOrder, touchInScope } from '../../persistence/report-cells';
import type { InMemoryOrderRepository } from '../orders/in-memory-order-repository';
import type { InMemorySpendRepository } from '../spend/in-memory-spend-repository';

/**
 * Reports of the in-memory store: every order of the dashboard read at each report (the store is for
 * trials and tests), each line priced from the dashboard's cost entries as they are, in stretches of
 * the event loop, so that a large one holds nobody up for long.
 */
export class InMemoryReportReader implements ReportReader {
  constructor(
    private readonly orders: InMemoryOrderRepository,
    private readonly spend: InMemorySpendRepository,
    private readonly costs: ProductCostRepository,
  ) {}

  async cells(dashboardId: string, query: CellQuery): Promise<readonly ReportCell[]> {
    const unitCostOf = await this.priceList(dashboardId, query.costZone);
    const collector = new CellCollector(query);
    const slices = new EventLoopSlices();
    for (const order of this.orders.ordersOf(dashboardId)) {
      collector.addPriced(factsOfOrder(order), bucketIndexOf(query.buckets, order.createdAt.getTime()), unitCostOf);
      await slices.pause();
    }
    return collector.result();
  }

  async breakdown(dashboardId: string, query: RankedBreakdownQuery): Promise<Breakdown> {
    return readBreakdown(
      query,
      (range) => this.cells(dashboardId, { ...query, buckets: [range] }),
      (sums) => this.spend.sums(dashboardId, sums),
    );
  }

  async products(dashboardId: string, query: ProductQuery): Promise<ProductReport> {
    return readProducts(query, (range) => this.productCells(dashboardId, query, range));
  }

  async uncostedProducts(dashboardId: string, query: UncostedQuery): Promise<UncostedProducts> {
    return rankUncosted(await this.productCells(dashboardId, query, query.range), query.limit);
  }

  async uncosted(dashboardId: string, query: Omit<UncostedQuery, 'limit'>): Promise<UncostedSummary> {
    return uncostedOfCells(await this.productCells(dashboardId, query, query.range));
  }

  /** Nothing is kept beside the orders. */
  async rebuild(): Promise<void> {}

  /** The products report's cells of the orders of `range` in the scope. */
  private async productCells(dashboardId: string, query: ReportScope & Costing, range: Range): Promise<ProductCell[]> {
    const collector = new ProductCollector(await this.priceList(dashboardId, query.costZone));
    const slices = new EventLoopSlices();
    for (const order of this.orders.ordersOf(dashboardId)) {
      const at = order.createdAt.getTime();
      if (at >= range.start && at < range.end) {
        const facts = factsOfOrder(order);
        if (touchInScope(facts, query) !== undefined) collector.add(facts);
      }
      await slices.pause();
    }
    return collector.result();
  }

  private async priceList(dashboardId: string, zone: string): Promise<UnitCostOf> {
    return unitCostLookup(await this.costs.priceList(dashboardId), zone);
  }
}
