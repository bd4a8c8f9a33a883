import type { Db, MongoClient } from 'mongodb';
import type { StorageHealth } from '../../application/ports/storage-health';

/** How long `/readyz` waits for the server before it says "not ready". */
export const DEFAULT_PING_TIMEOUT_MS = 1_500;

export class MongoStorageHealth implements StorageHealth {
  private closing: Promise<void> | undefined;

  constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
    private readonly pingTimeoutMs = DEFAULT_PING_TIMEOUT_MS,
  ) {}

  /** A `ping` raced against a timer: a server that is down or slow answers false, never a rejection. */
  async ping(): Promise<boolean> {
    if (this.closing !== undefined) return false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.pingTimeoutMs);
    });
    const pinged = this.db.command({ ping: 1 }).then(
      (reply) => reply['ok'] === 1,
      () => false,
    );
    try {
      return await Promise.race([pinged, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes the one client of the process; a second call waits for the first. */
  close(): Promise<void> {
    this.closing ??= this.client.close();
    return this.closing;
  }
}
