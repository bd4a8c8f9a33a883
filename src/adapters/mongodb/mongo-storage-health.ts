import type { Db, MongoClient } from 'mongodb';
import type { StorageHealth } from '../../application/ports/storage-health';
import { COLLECTIONS } from './mongo-indexes';

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
    return this.withinTimeout(
      this.db.command({ ping: 1 }).then(
        (reply) => reply['ok'] === 1,
        () => false,
      ),
    );
  }

  private async withinTimeout(answer: Promise<boolean>): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.pingTimeoutMs);
    });
    try {
      return await Promise.race([answer, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Upserts a heartbeat document in `meta`, raced against the same timer as the ping. */
  async canWrite(): Promise<boolean> {
    if (this.closing !== undefined) return false;
    return this.withinTimeout(
      this.db
        .collection<{ _id: string; at: Date }>(COLLECTIONS.meta)
        .updateOne({ _id: 'heartbeat' }, { $set: { at: new Date() } }, { upsert: true })
        .then(
          (result) => result.acknowledged,
          () => false,
        ),
    );
  }

  /** Closes the one client of the process; a second call waits for the first. */
  close(): Promise<void> {
    this.closing ??= this.client.close();
    return this.closing;
  }
}
