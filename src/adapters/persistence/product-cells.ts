import type { ProductCell } from '../../application/ports/report-reader';
import type { UnitCostOf } from '../../domain/product-cost';
import { laterName, productSharesOf, type ProductTotals } from '../../domain/product-report';
import type { OrderLines } from '../../domain/report';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Adds orders up into the products report's cells as a store that reads them one by one would: each
 * order shares out over its products (productSharesOf), its lines priced by `unitCostOf`. The caller
 * gives it the orders of the report's range and scope.
 */
export class ProductCollector {
  private readonly cells = new Map<string, Mutable<ProductCell>>();

  constructor(private readonly unitCostOf: UnitCostOf) {}

  add(order: OrderLines & { readonly id: string }): void {
    for (const share of productSharesOf(order, this.unitCostOf)) {
      const id = `${order.currency}\u0000${share.product}`;
      const cell = this.cells.get(id);
      if (cell === undefined) {
        const { totals, ...name } = share;
        this.cells.set(id, { currency: order.currency, ...name, ...totals });
        continue;
      }
      for (const field of Object.keys(share.totals) as (keyof ProductTotals)[]) cell[field] += share.totals[field];
      const name = laterName(cell, share);
      [cell.name, cell.namedAt, cell.namedBy] = [name.name, name.namedAt, name.namedBy];
    }
  }

  result(): ProductCell[] {
    return [...this.cells.values()];
  }
}
