import type { Statement } from 'better-sqlite3';
import type { StorageHealth } from '../../application/ports/storage-health';
import type { SqliteDatabase } from './sqlite-database';
import { APPLICATION_ID } from './sqlite-schema';

export class SqliteStorageHealth implements StorageHealth {
  private readonly probe: Statement;
  private readonly mark: Statement;

  /** `beforeClose` stops what reads the file beside the connection (the report thread). */
  constructor(
    private readonly db: SqliteDatabase,
    private readonly beforeClose: () => Promise<void> = async () => undefined,
  ) {
    this.probe = db.prepare('SELECT count(*) FROM sqlite_schema');
    this.mark = db.prepare(`PRAGMA application_id = ${APPLICATION_ID}`);
  }

  /** Reads the schema: false once the connection is closed or the file cannot be read. Never waits on a lock in WAL mode. */
  async ping(): Promise<boolean> {
    if (!this.db.isOpen) return false;
    try {
      this.db.read(() => this.probe.get());
      return true;
    } catch {
      return false;
    }
  }

  /** Writes the file's mark again through the group commit, as the start does: a disk without room for the WAL fails it. */
  async canWrite(): Promise<boolean> {
    if (!this.db.isOpen) return false;
    try {
      await this.db.write(() => this.mark.run());
      return true;
    } catch {
      return false;
    }
  }

  /** Commits the writes still queued, then closes the connection. */
  async close(): Promise<void> {
    await this.beforeClose();
    await this.db.close();
  }
}
