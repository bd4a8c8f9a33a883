import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStorage, type SqliteStorageOptions } from '../../src/adapters/sqlite/sqlite-storage';
import type { Storage } from '../../src/application/ports/storage';
import { memoryLogger } from './memory-log';

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
