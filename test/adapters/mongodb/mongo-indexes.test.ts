import { expect } from 'chai';
import { MongoServerError, type Db, type Document } from 'mongodb';
import { StorageUnavailableError } from '../../../src/application/ports/storage-health';
import { COLLECTIONS, INDEXES } from '../../../src/adapters/mongodb/mongo-indexes';
import { describeWithMongo } from '../../support/mongo-server';

/** Index keys as ordered pairs: a compound index's key order is its meaning, and deep.equal ignores it. */
const keyPairs = (key: Document): [string, unknown][] => Object.entries(key);

const indexesOf = async (db: Db, collection: string) =>
  (await db.collection(collection).listIndexes().toArray()).map((index) => ({
    name: index['name'] as string,
    key: keyPairs(index['key'] as Document),
    unique: index['unique'] === true,
    ...(index['expireAfterSeconds'] === undefined ? {} : { expireAfterSeconds: index['expireAfterSeconds'] as number }),
  }));

describeWithMongo('MongoDB indexes at start-up', (mongo) => {
  const db = () => mongo.client.db(mongo.dbName);

  it('creates the unique (dashboardId, externalId) index and the two listing indexes, keys in ESR order', async () => {
    await mongo.connect();
    const orders = await indexesOf(db(), COLLECTIONS.orders);
    expect(orders).to.deep.include({
      name: 'orders_dashboard_externalId_unique',
      key: [
        ['dashboardId', 1],
        ['externalId', 1],
      ],
      unique: true,
    });
    expect(orders).to.deep.include({
      name: 'orders_dashboard_createdAt_id',
      key: [
        ['dashboardId', 1],
        ['createdAt', -1],
        ['_id', -1],
      ],
      unique: false,
    });
    expect(orders).to.deep.include({
      name: 'orders_dashboard_status_createdAt_id',
      key: [
        ['dashboardId', 1],
        ['status', 1],
        ['createdAt', -1],
        ['_id', -1],
      ],
      unique: false,
    });
  });

  it('creates the unique token hash index and the tokens-by-dashboard index', async () => {
    await mongo.connect();
    const tokens = await indexesOf(db(), COLLECTIONS.tokens);
    expect(tokens).to.deep.include({ name: 'tokens_hash_unique', key: [['hash', 1]], unique: true });
    expect(tokens).to.deep.include({
      name: 'tokens_dashboard_createdAt_id',
      key: [
        ['dashboardId', 1],
        ['createdAt', 1],
        ['_id', 1],
      ],
      unique: false,
    });
  });

  it('creates the unique (dashboardId, key) index of idempotency records, and TTL indexes on expiresAt for them and for rate-limit counters', async () => {
    await mongo.connect();
    const records = await indexesOf(db(), COLLECTIONS.idempotencyKeys);
    expect(records).to.deep.include({
      name: 'idempotency_keys_dashboard_key_unique',
      key: [
        ['dashboardId', 1],
        ['key', 1],
      ],
      unique: true,
    });
    expect(records).to.deep.include({
      name: 'idempotency_keys_expiresAt_ttl',
      key: [['expiresAt', 1]],
      unique: false,
      expireAfterSeconds: 0,
    });
    expect(await indexesOf(db(), COLLECTIONS.rateLimits)).to.deep.include({
      name: 'rate_limits_expiresAt_ttl',
      key: [['expiresAt', 1]],
      unique: false,
      expireAfterSeconds: 0,
    });
  });

  it('creates every declared index', async () => {
    await mongo.connect();
    for (const collection of Object.keys(INDEXES) as (keyof typeof COLLECTIONS)[]) {
      if (INDEXES[collection].length === 0) continue;
      const found = await indexesOf(db(), COLLECTIONS[collection]);
      for (const index of INDEXES[collection]) {
        expect(found, collection).to.deep.include({
          name: index.name,
          key: keyPairs(index.key),
          unique: index.unique === true,
          ...(index.expireAfterSeconds === undefined ? {} : { expireAfterSeconds: index.expireAfterSeconds }),
        });
      }
    }
  });

  it('starts again on the same database: creating the indexes twice is fine and adds none', async () => {
    await mongo.connect();
    const before = await indexesOf(db(), COLLECTIONS.orders);
    const again = await mongo.connect();
    const third = await mongo.connect();
    expect(await indexesOf(db(), COLLECTIONS.orders)).to.have.deep.members(before);
    expect(await again.health.ping()).to.equal(true);
    expect(await third.dashboards.list()).to.be.an('array');
  });

  it('enforces uniqueness in the database itself, whoever writes', async () => {
    await mongo.connect();
    const orders = db().collection(COLLECTIONS.orders);
    await orders.insertOne({ _id: 'raw_1' as never, dashboardId: 'dsh_raw', externalId: 'same' });
    const failure = await orders
      .insertOne({ _id: 'raw_2' as never, dashboardId: 'dsh_raw', externalId: 'same' })
      .catch((err: unknown) => err);
    expect(failure).to.be.instanceOf(MongoServerError);
    expect((failure as MongoServerError).code).to.equal(11000);
    await orders.deleteMany({ dashboardId: 'dsh_raw' });
  });
});

describeWithMongo('MongoDB start-up over a conflicting index', (mongo) => {
  it('refuses to start when an index of the same name exists with another definition (not unique)', async () => {
    const tokens = mongo.client.db(mongo.dbName).collection(COLLECTIONS.tokens);
    await tokens.createIndex({ hash: 1 }, { name: 'tokens_hash_unique' });
    // MongoDB (and mongo-java-server) refuse the createIndexes (IndexOptionsConflict or
    // IndexKeySpecsConflict); a server that kept the old index would meet the check after creation.
    const failure = await mongo.connect().catch((err: unknown) => err);
    expect(failure).to.be.instanceOf(Error);
    expect(failure).not.to.be.instanceOf(StorageUnavailableError);
    expect((failure as Error).message).to.match(/tokens_hash_unique|already exists|IndexOptionsConflict|different options/i);
    const hashIndex = (await tokens.listIndexes().toArray()).find((index) => index['name'] === 'tokens_hash_unique');
    expect(hashIndex?.['unique']).not.to.equal(true);
  });
});
