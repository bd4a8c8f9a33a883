import type { ProductCostListQuery, ProductCostPage, ProductCostRepository } from '../ports/product-cost-repository';

export class ListProductCosts {
  constructor(private readonly costs: ProductCostRepository) {}

  execute(dashboardId: string, query: ProductCostListQuery): Promise<ProductCostPage> {
    return this.costs.list(dashboardId, query);
  }
}
