import type { StorageHealth } from '../../application/ports/storage-health';

/** The embedded store lives in the process: it is reachable as long as the process is. */
export class InMemoryStorageHealth implements StorageHealth {
  async ping(): Promise<boolean> {
    return true;
  }

  async canWrite(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {}
}
