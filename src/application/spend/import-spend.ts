import type { SpendEntry } from '../../domain/spend';
import { storeInSlices, type Rows } from '../shared/sliced-upload';
import type { PutSpend } from './put-spend';

/**
 * A spend file's entries (the console's upload, the CLI's import), stored in slices of
 * UPLOAD_SLICE_ROWS: each slice as `PUT /api/v1/spend` stores its entries, one after the other in file
 * order, so that a key on two lines takes the later one. Resolves how many were stored.
 */
export class ImportSpend {
  constructor(private readonly put: PutSpend) {}

  execute(dashboardId: string, entries: Rows<SpendEntry>): Promise<number> {
    return storeInSlices(entries, (slice) => this.put.execute(dashboardId, slice));
  }
}
