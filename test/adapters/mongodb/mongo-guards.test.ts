import { expect } from 'chai';
import { MongoIdempotencyStore } from '../../../src/adapters/mongodb/mongo-idempotency-store';
import { MongoRateLimitCounter } from '../../../src/adapters/mongodb/mongo-rate-limit-counter';
import { idempotencyStoreContract } from '../../contract/idempotency-store.contract';
import { rateLimitCounterContract } from '../../contract/rate-limit-counter.contract';
import { memoryLogger } from '../../support/memory-log';
import { describeWithMongo } from '../../support/mongo-server';

describeWithMongo('MongoDB idempotency keys and rate limits', (mongo) => {
  before(async () => {
    await mongo.connect();
  });

  /**
   * New adapters over emptied collections for each test: the rate-limit counter keeps in-process
   * hints about the slots it took, which a fresh process would not have either.
   */
  const db = async () => {
    await mongo.empty();
    return mongo.client.db(mongo.dbName);
  };

  idempotencyStoreContract('MongoIdempotencyStore', async () => new MongoIdempotencyStore(await db(), memoryLogger().logger));
  rateLimitCounterContract('MongoRateLimitCounter', async () => new MongoRateLimitCounter(await db(), memoryLogger().logger));

  describe('MongoRateLimitCounter shared by several instances', () => {
    it('gives parallel hits from three instances distinct, gapless counts', async () => {
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

  describe('clean-up without TTL indexes', () => {
    const settle = async (check: () => Promise<boolean>): Promise<void> => {
      for (let i = 0; i < 50 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    };

    it('deletes the slots of past windows once a new window starts', async () => {
      const shared = await db();
      const counter = new MongoRateLimitCounter(shared, memoryLogger().logger);
      await counter.hit('tok_a', 60_000, new Date('2026-03-01T12:00:05.000Z'));
      await counter.hit('tok_a', 60_000, new Date('2026-03-01T12:00:06.000Z'));
      await counter.hit('tok_a', 60_000, new Date('2026-03-01T12:01:05.000Z'));
      const slots = shared.collection('rate_limits');
      await settle(async () => (await slots.countDocuments({})) === 1);
      expect(await slots.countDocuments({})).to.equal(1);
    });

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
