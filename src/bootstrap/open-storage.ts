import type { Logger } from '../application/ports/logger';
import { connectMongoStorage, databaseFromUri } from '../adapters/mongodb/mongo-storage';
import { openSqliteStorage } from '../adapters/sqlite/sqlite-storage';
import type { Config } from './config';
import { inMemoryStorage } from '../adapters/memory/in-memory-storage';
import type { Storage } from '../application/ports/storage';

/**
 * The store the configuration names (decision 0015): the SQLite file at SQLITE_PATH by default;
 * MongoDB when MONGODB_URI is set, in the database MONGODB_DB, else the one in the URI, else `orders`
 * (decision 0010); the in-memory store with STORE=memory.
 */
export const openStorage = async (config: Config, logger: Logger): Promise<Storage> => {
  switch (config.store) {
    case 'memory':
      return inMemoryStorage();
    case 'sqlite':
      return openSqliteStorage({ path: config.sqlitePath, logger });
    case 'mongodb': {
      const uri = config.mongodbUri;
      if (uri === undefined) throw new Error('STORE=mongodb needs MONGODB_URI');
      return connectMongoStorage(uri, mongoDatabaseName(uri, config.mongodbDb), logger);
    }
  }
};

/** MONGODB_DB, else the database in the URI's path, else `orders` (decision 0010). */
export const mongoDatabaseName = (uri: string, configured: string | undefined): string => configured ?? databaseFromUri(uri) ?? 'orders';
