import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import { describeWithMongo } from '../support/mongo-server';
import { temporarySqliteStorage } from '../support/sqlite-files';
import { adConversionsSuite } from './ad-conversions.suite';

/** Conversions sent to the ad platforms, end to end on every store. */
adConversionsSuite('in-memory', async () => inMemoryStorage());
adConversionsSuite('SQLite', async () => temporarySqliteStorage());
describeWithMongo('conversions on MongoDB', (mongo) => {
  adConversionsSuite('MongoDB', async () => {
    await mongo.empty();
    return mongo.connect();
  });
});
