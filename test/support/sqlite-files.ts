import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDatabase } from '../../src/adapters/sqlite/sqlite-database';
import { openSqliteStorage, sqliteStorageOn, type SqliteStorageOptions } from '../../src/adapters/sqlite/sqlite-storage';
import type { Storage } from '../../src/application/ports/storage';
import type { Order } from '../../src/domain/order';
import { memoryLogger } from './memory-log';
import { anOrder } from './order-builder';

/** A new, empty folder for SQLite files, and the path of `orders.db` in it. */
export const temporaryFolder = (): { dir: string; path: string; remove: () => void } => {
  const dir = mkdtempSync(join(tmpdir(), 'orders-sqlite-'));
  return { dir, path: join(dir, 'orders.db'), remove: () => rmSync(dir, { recursive: true, force: true }) };
};

/**
 * The SQLite store on a new file of its own. Closing its storage (the service does, when it stops)
 * closes the file and removes it with its folder.
 */
export const temporarySqliteStorage = (options: Partial<SqliteStorageOptions> = {}): Storage => {
  const folder = temporaryFolder();
  const storage = openSqliteStorage({ path: folder.path, logger: memoryLogger().logger, ...options });
  return {
    ...storage,
    health: {
      ping: () => storage.health.ping(),
      canWrite: () => storage.health.canWrite(),
      close: async () => {
        await storage.health.close();
        folder.remove();
      },
    },
  };
};

/** A database on a new file and the adapters over it; `close` closes it and removes the file. */
export const temporarySqliteDatabase = (): {
  folder: ReturnType<typeof temporaryFolder>;
  db: SqliteDatabase;
  storage: Storage;
  close: () => Promise<void>;
} => {
  const folder = temporaryFolder();
  const db = SqliteDatabase.open({ path: folder.path });
  return {
    folder,
    db,
    storage: sqliteStorageOn(db, memoryLogger().logger),
    close: async () => {
      await db.close();
      folder.remove();
    },
  };
};

/** Lets the file grow by 8 pages only, and gives an order too big for them: its insert fails with SQLITE_FULL. */
export const anOrderTooBigForTheDisk = (db: SqliteDatabase): Order => {
  const pages = db.prepare('PRAGMA page_count').pluck().get() as number;
  db.prepare(`PRAGMA max_page_count = ${pages + 8}`).get();
  return anOrder()
    .withExternalId('huge')
    .with({ metadata: { blob: 'x'.repeat(200_000) } })
    .build();
};
