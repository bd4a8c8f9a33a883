import { expect } from 'chai';
import { MongoServerError } from 'mongodb';
import { MongoIdempotencyStore } from '../../../src/adapters/mongodb/mongo-idempotency-store';
import { COLLECTIONS } from '../../../src/adapters/mongodb/mongo-indexes';
import { COUNTER_GRACE_MS, MongoRateLimitCounter } from '../../../src/adapters/mongodb/mongo-rate-limit-counter';
import { idempotencyStoreContract } from '../../contract/idempotency-store.contract';
import { rateLimitCounterContract } from '../../contract/rate-limit-counter.contract';
import { memoryLogger } from '../../support/memory-log';
import { describeWithMongo } from '../../support/mongo-server';

describeWithMongo('MongoDB idempotency keys and rate limits', (mongo) => {
  before(async () => {
    await mongo.connect();
  });

  /** New adapters over emptied collections for each test. */
  const db = async () => {
    await mongo.empty();
    return mongo.client.db(mongo.dbName);
  };

  idempotencyStoreContract('MongoIdempotencyStore', async () => new MongoIdempotencyStore(await db(), memoryLogger().logger));
  rateLimitCounterContract('MongoRateLimitCounter', async () => new MongoRateLimitCounter(await db(), memoryLogger().logger));

  describe('MongoRateLimitCounter shared by several instances', () => {
    it('gives parallel hits from three instances distinct, gapless counts (atomic $inc)', async () => {
      const shared = await db();
      const instances = [1, 2, 3].map(() => new MongoRateLimitCounter(shared, memoryLogger().logger));
      const now = new Date('2026-03-01T12:00:05.000Z');
      const hits = await Promise.all(
        Array.from({ length: 45 }, (_, i) => (instances[i % 3] as MongoRateLimitCounter).hit('tok_shared', 60_000, now)),
      );
      const counts = hits.map((h) => h.count).sort((a, b) => a - b);
      expect(counts).to.deep.equal(Array.from({ length: 45 }, (_, i) => i + 1));
    });
  });

  describe('MongoRateLimitCounter documents', () => {
    it('keeps one counter document per subject and window, refused hits included, expiring after the window', async () => {
      const shared = await db();
      const counter = new MongoRateLimitCounter(shared, memoryLogger().logger);
      const now = new Date('2026-03-01T12:00:05.000Z');
      await Promise.all(Array.from({ length: 120 }, () => counter.hit('tok_a', 60_000, now)));
      await counter.hit('tok_a', 60_000, new Date('2026-03-01T12:01:05.000Z'));
      const stored = await shared.collection(COLLECTIONS.rateLimits).find({}).sort({ _id: 1 }).toArray();
      expect(stored).to.deep.equal([
        { _id: `tok_a:60000:${Date.parse('2026-03-01T12:00:00.000Z')}`, count: 120, expiresAt: new Date(Date.parse('2026-03-01T12:01:00.000Z') + COUNTER_GRACE_MS) },
        { _id: `tok_a:60000:${Date.parse('2026-03-01T12:01:00.000Z')}`, count: 1, expiresAt: new Date(Date.parse('2026-03-01T12:02:00.000Z') + COUNTER_GRACE_MS) },
      ]);
    });

    it('retries an upsert that lost the race to create the counter (duplicate key), and counts the hit', async () => {
      const shared = await db();
      let duplicates = 1;
      const racing = new Proxy(shared, {
        get: (target, prop) =>
          prop !== 'collection'
            ? Reflect.get(target, prop)
            : (name: string) =>
                new Proxy(target.collection(name), {
                  get: (collection, method) => {
                    const value: unknown = Reflect.get(collection, method);
                    if (method !== 'findOneAndUpdate' || typeof value !== 'function') return typeof value === 'function' ? value.bind(collection) : value;
                    return async (...args: unknown[]): Promise<unknown> => {
                      if (duplicates-- <= 0) return value.apply(collection, args);
                      // Another instance's upsert creates the counter first, and this one is refused.
                      await value.apply(collection, args);
                      throw new MongoServerError({ code: 11000, errmsg: 'E11000 duplicate key error (simulated race)' });
                    };
                  },
                }),
      });
      const counter = new MongoRateLimitCounter(racing, memoryLogger().logger);
      const now = new Date('2026-03-01T12:00:05.000Z');
      expect((await counter.hit('tok_a', 60_000, now)).count).to.equal(2);
      expect(duplicates).to.equal(-1);
    });
  });

  describe('idempotency records past their TTL', () => {
    const settle = async (check: () => Promise<boolean>): Promise<void> => {
      for (let i = 0; i < 50 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    };

    it('deletes idempotency records past their TTL', async () => {
      const shared = await db();
      const store = new MongoIdempotencyStore(shared, memoryLogger().logger);
      const claim = (key: string, now: string) =>
        store.claim({ dashboardId: 'dsh_a', key }, { fingerprint: 'fp', reservedId: 'ord_1', now: new Date(now), leaseMs: 10_000, ttlMs: 3_600_000 });
      await claim('old', '2026-03-01T12:00:00.000Z');
      await claim('new', '2026-03-01T13:30:00.000Z');
      const records = shared.collection('idempotency_keys');
      await settle(async () => (await records.countDocuments({})) === 1);
      expect(await records.find({}).map((r) => r._id).toArray()).to.deep.equal(['dsh_a:new']);
    });
  });
});
