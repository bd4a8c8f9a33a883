import type { Logger } from '../application/ports/logger';
import { connectMongoStorage, databaseFromUri } from '../adapters/mongodb/mongo-storage';
import type { Config } from './config';
import { inMemoryStorage } from '../adapters/memory/in-memory-storage';
import type { Storage } from '../application/ports/storage';

/**
 * The store the configuration names: MongoDB when MONGODB_URI is set, in the database MONGODB_DB,
 * else the one in the URI, else `orders` (DECISIONS D10); the embedded store otherwise.
 */
export const openStorage = async (config: Config, logger: Logger): Promise<Storage> => {
  if (config.mongodbUri === undefined) return inMemoryStorage();
  return connectMongoStorage(config.mongodbUri, mongoDatabaseName(config.mongodbUri, config.mongodbDb), logger);
};

/** MONGODB_DB, else the database in the URI's path, else `orders` (DECISIONS D10). */
export const mongoDatabaseName = (uri: string, configured: string | undefined): string =>
  configured ?? databaseFromUri(uri) ?? 'orders';
