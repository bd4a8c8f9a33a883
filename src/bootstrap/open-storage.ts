import type { Logger } from '../application/ports/logger';
import { connectMongoStorage, databaseFromUri } from '../adapters/mongodb/mongo-storage';
import type { Config } from './config';
import { inMemoryStorage, type Storage } from './storage';

/**
 * The store the configuration names: MongoDB when MONGODB_URI is set, in the database MONGODB_DB,
 * else the one in the URI, else `orders` (DECISIONS D10); the embedded store otherwise.
 */
export const openStorage = async (config: Config, logger: Logger): Promise<Storage> => {
  if (config.mongodbUri === undefined) return inMemoryStorage();
  const dbName = config.mongodbDb ?? databaseFromUri(config.mongodbUri) ?? 'orders';
  return connectMongoStorage(config.mongodbUri, dbName, logger);
};
