import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import { describeWithMongo } from '../support/mongo-server';
import { temporarySqliteStorage } from '../support/sqlite-files';
import { adAccountsSuite } from './ad-accounts.suite';

/** Ad accounts end to end on every store. */
adAccountsSuite('in-memory', async () => inMemoryStorage());
adAccountsSuite('SQLite', async () => temporarySqliteStorage());
describeWithMongo('ad accounts on MongoDB', (mongo) => {
  adAccountsSuite('MongoDB', async () => {
    await mongo.empty();
    return mongo.connect();
  });
});
