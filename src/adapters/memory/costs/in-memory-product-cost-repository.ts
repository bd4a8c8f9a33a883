import type {
  ProductCostListQuery,
  ProductCostPage,
  ProductCostPosition,
  ProductCostRepository,
} from '../../../application/ports/product-cost-repository';
import { compareCodePoints } from '../../../domain/code-point-order';
import type { ProductCostEntry } from '../../../domain/product-cost';

/** The listing order of the port: product, currency, then `from`, each by code point. */
export const productCostOrder = (a: ProductCostPosition, b: ProductCostPosition): number =>
  compareCodePoints(a.product, b.product) || compareCodePoints(a.currency, b.currency) || compareCodePoints(a.from, b.from);

export class InMemoryProductCostRepository implements ProductCostRepository {
  private readonly byDashboard = new Map<string, Map<string, ProductCostEntry>>();

  async put(dashboardId: string, entries: readonly ProductCostEntry[]): Promise<number> {
    let stored = this.byDashboard.get(dashboardId);
    if (stored === undefined) {
      stored = new Map();
      this.byDashboard.set(dashboardId, stored);
    }
    for (const entry of entries) stored.set(JSON.stringify([entry.product, entry.currency, entry.from]), { ...entry });
    return entries.length;
  }

  async list(dashboardId: string, query: ProductCostListQuery): Promise<ProductCostPage> {
    const { after } = query;
    const matching = [...(this.byDashboard.get(dashboardId)?.values() ?? [])]
      .filter(
        (entry) =>
          (query.product === undefined || entry.product === query.product) &&
          (query.currency === undefined || entry.currency === query.currency) &&
          (after === undefined || productCostOrder(entry, after) > 0),
      )
      .sort(productCostOrder);
    return { entries: matching.slice(0, query.pageSize).map((entry) => ({ ...entry })), more: matching.length > query.pageSize };
  }

  async priceList(dashboardId: string): Promise<readonly ProductCostEntry[]> {
    return [...(this.byDashboard.get(dashboardId)?.values() ?? [])].map((entry) => ({ ...entry }));
  }
}
