import type { ProductCell } from '../../application/ports/report-reader';
import type { UnitCostOf } from '../../domain/product-cost';
import { laterName, productSharesOf, ZERO_PRODUCT_TOTALS, type ProductTotals } from '../../domain/product-report';
import type { OrderLines } from '../../domain/report';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const PRODUCT_TOTAL_FIELDS = Object.keys(ZERO_PRODUCT_TOTALS) as (keyof ProductTotals)[];

/**
 * Adds orders up into the products report's cells as a store that reads them one by one would: each
 * order shares out over its products (productSharesOf), its lines priced by `unitCostOf`. The caller
 * gives it the orders of the report's range and scope.
 */
export class ProductCollector {
  private readonly cells = new Map<string, Mutable<ProductCell>>();

  constructor(private readonly unitCostOf: UnitCostOf) {}

  add(order: OrderLines & { readonly id: string }): void {
    for (const { totals, ...share } of productSharesOf(order, this.unitCostOf))
      this.addCell({ currency: order.currency, ...share, ...totals });
  }

  /** Adds what some orders add to one product's cell (a store's rollup rows, another collector's cells). */
  addCell(added: ProductCell): void {
    const id = `${added.currency}\u0000${added.product}`;
    const cell = this.cells.get(id);
    if (cell === undefined) {
      this.cells.set(id, { ...added });
      return;
    }
    for (const field of PRODUCT_TOTAL_FIELDS) cell[field] += added[field];
    const name = laterName(cell, added);
    [cell.name, cell.namedAt, cell.namedBy] = [name.name, name.namedAt, name.namedBy];
  }

  result(): ProductCell[] {
    return [...this.cells.values()];
  }
}
