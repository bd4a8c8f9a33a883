import BetterSqlite3 from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { orderToRow, WRITE_COLUMNS } from '../../src/adapters/sqlite/orders/order-rows';
import { SqliteDatabase, type SqliteDatabaseOptions } from '../../src/adapters/sqlite/sqlite-database';
import { migrate, MIGRATIONS } from '../../src/adapters/sqlite/sqlite-schema';
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
export const temporarySqliteDatabase = (
  options: Omit<SqliteDatabaseOptions, 'path'> = {},
): {
  folder: ReturnType<typeof temporaryFolder>;
  db: SqliteDatabase;
  storage: Storage;
  close: () => Promise<void>;
} => {
  const folder = temporaryFolder();
  const db = SqliteDatabase.open({ path: folder.path, ...options });
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

/**
 * A file at `path` brought up to the migration before `migration` (as the previous version left it),
 * with dashboard `dsh_a` in UTC costing p-1 at 300 BRL from 2026-01-01, and a statement that writes an
 * order's row as it is, around the repository (which keeps the rollups): the caller closes it.
 */
export const aFileBefore = (path: string, migration: string): { raw: BetterSqlite3.Database; insert: (order: Order) => void } => {
  const raw = new BetterSqlite3(path);
  migrate(raw, path, MIGRATIONS.slice(0, MIGRATIONS.indexOf(migration)));
  raw.prepare("INSERT INTO dashboards (id, name, timezone, tax_rate_hundredths, created_at) VALUES ('dsh_a', 'a', 'UTC', 0, 0)").run();
  raw.prepare("INSERT INTO product_costs VALUES ('dsh_a', 'p-1', 'BRL', '2026-01-01', 300)").run();
  const statement = raw.prepare(
    `INSERT INTO orders (${WRITE_COLUMNS.join(', ')}) VALUES (${WRITE_COLUMNS.map((c) => `@${c}`).join(', ')})`,
  );
  return { raw, insert: (order) => void statement.run(orderToRow(order)) };
};
