import type { ProductCostEntry } from '../../domain/product-cost';
import { storeInSlices, type Rows } from '../shared/sliced-upload';
import type { PutProductCosts } from './put-product-costs';

/**
 * A costs file's entries (the console's upload, the CLI's import), stored in slices of
 * UPLOAD_SLICE_ROWS: each slice as `PUT /api/v1/product-costs` stores its entries, one after the other
 * in file order, so that a key on two lines takes the later one. Resolves how many were stored.
 */
export class ImportProductCosts {
  constructor(private readonly put: PutProductCosts) {}

  execute(dashboardId: string, entries: Rows<ProductCostEntry>): Promise<number> {
    return storeInSlices(entries, (slice) => this.put.execute(dashboardId, slice, true));
  }
}
