import type { ProductCostEntry } from '../../domain/product-cost';
import type { ProductCostRepository } from '../ports/product-cost-repository';

/** Sets the unit cost of each entry's key (product, currency, from), all or none (decision 0020); an entry given twice, the last one. */
export class PutProductCosts {
  constructor(private readonly costs: ProductCostRepository) {}

  /** `slice`: the entries are one slice of a file (ProductCostRepository.put). */
  async execute(dashboardId: string, entries: readonly ProductCostEntry[], slice = false): Promise<number> {
    const byKey = new Map<string, ProductCostEntry>();
    for (const entry of entries) byKey.set(JSON.stringify([entry.product, entry.currency, entry.from]), entry);
    return this.costs.put(dashboardId, [...byKey.values()], slice);
  }
}
