import { describeWithMongo } from '../support/mongo-server';
import { apiBehaviourSuite } from './api-behaviour.suite';

/**
 * The whole HTTP suite once more, on MongoDB storage. Each test gets its own storage (its own client,
 * closed when the test's service stops) over the file's database, emptied first.
 */
describeWithMongo('HTTP API on MongoDB', (mongo) => {
  apiBehaviourSuite('MongoDB', async () => {
    await mongo.empty();
    return mongo.connect();
  });
});
