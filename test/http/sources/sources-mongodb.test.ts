import { describeWithMongo } from '../../support/mongo-server';
import { sourcesBehaviour } from './sources-behaviour';

/** The sources' HTTP behaviour on MongoDB storage: each test on its own client over the file's database, emptied first. */
describeWithMongo('HTTP sources on MongoDB', (mongo) =>
  sourcesBehaviour(async () => {
    await mongo.empty();
    return mongo.connect();
  }),
);
