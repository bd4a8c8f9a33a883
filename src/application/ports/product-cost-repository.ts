import type { ProductCostEntry } from '../../domain/product-cost';

/** Where a listing of cost entries stands: the last entry seen, by the listing's order. */
export type ProductCostPosition = Pick<ProductCostEntry, 'product' | 'currency' | 'from'>;

export interface ProductCostListQuery {
  /** Only this product's entries. */
  readonly product?: string;
  /** Only entries in this currency. */
  readonly currency?: string;
  /** The entries after this one (from the first when absent). */
  readonly after?: ProductCostPosition;
  readonly pageSize: number;
}

export interface ProductCostPage {
  readonly entries: readonly ProductCostEntry[];
  /** Whether entries follow the last of this page. */
  readonly more: boolean;
}

/** A dashboard's product costs (decision 0020), one unit cost per (product, currency, from). */
export interface ProductCostRepository {
  /**
   * Sets the unit cost of each entry's key (not added to), all of them or none: atomic. Entries of one
   * call have distinct keys. Resolves how many were stored. With `slice`, the entries are one slice of
   * a file stored in many (sliced-upload.ts): a store that keeps report totals at today's prices may
   * move them after answering, in one pass for all the file's slices, where moving them with each
   * slice would price the dashboard's orders again once per slice.
   */
  put(dashboardId: string, entries: readonly ProductCostEntry[], slice?: boolean): Promise<number>;

  /**
   * A page of the dashboard's entries ordered by product, currency and `from`, each ascending by code
   * point (`from` is `YYYY-MM-DD`), after `query.after`. It costs the page alone at any depth.
   */
  list(dashboardId: string, query: ProductCostListQuery): Promise<ProductCostPage>;

  /**
   * Every entry of the dashboard, in no particular order: the price list a report builds its
   * unitCostLookup from. Copies: changing them changes nothing stored.
   */
  priceList(dashboardId: string): Promise<readonly ProductCostEntry[]>;
}
