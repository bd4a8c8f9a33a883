import type { Logger } from '../application/ports/logger';
import type { Config } from './config';
import { inMemoryStorage, type Storage } from './storage';

/** The store the configuration names: the embedded one unless MONGODB_URI is set. */
export const openStorage = async (config: Config, _logger: Logger): Promise<Storage> => {
  if (config.mongodbUri !== undefined) {
    throw new Error('MONGODB_URI is set, but this build has no MongoDB adapter yet');
  }
  return inMemoryStorage();
};
