import { expect } from 'chai';
import { MongoServerError, type Db } from 'mongodb';
import { MongoIdempotencyStore } from '../../../src/adapters/mongodb/guards/mongo-idempotency-store';
import { COLLECTIONS } from '../../../src/adapters/mongodb/mongo-indexes';
import { COUNTER_GRACE_MS, MongoRateLimitCounter } from '../../../src/adapters/mongodb/guards/mongo-rate-limit-counter';
import { idempotencyStoreContract } from '../../contract/idempotency-store.contract';
import { rateLimitCounterContract } from '../../contract/rate-limit-counter.contract';
import { memoryLogger } from '../../support/memory-log';
import { describeWithMongo } from '../../support/mongo-server';

/**
 * The database, except that the first `findOneAndUpdate` loses a race it cannot see: another
 * instance's identical upsert creates the document first, and this one is refused with the
 * duplicate-key error MongoDB can answer to the loser of two upserts.
 */
const losingOneUpsertRace = (db: Db): Db & { readonly racesLeft: number } => {
  let racesLeft = 1;
  return new Proxy(db, {
    get: (target, prop) => {
      if (prop === 'racesLeft') return racesLeft;
      if (prop !== 'collection') return Reflect.get(target, prop);
      return (name: string) =>
        new Proxy(target.collection(name), {
          get: (collection, method) => {
            const value: unknown = Reflect.get(collection, method);
            if (typeof value !== 'function') return value;
            if (method !== 'findOneAndUpdate') return value.bind(collection);
            return async (...args: unknown[]): Promise<unknown> => {
              if (racesLeft <= 0) return value.apply(collection, args);
              racesLeft -= 1;
              await value.apply(collection, args);
              throw new MongoServerError({ code: 11000, errmsg: 'E11000 duplicate key error (simulated race)' });
            };
          },
        });
    },
  }) as Db & { readonly racesLeft: number };
};

// The dates below lie after the real time, so that MongoDB's TTL monitor leaves the documents alone
// during a test (see TEST_EPOCH in test/support/mutable-clock.ts).
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
      const now = new Date('2126-03-01T12:00:05.000Z');
      const hits = await Promise.all(Array.from({ length: 45 }, (_, i) => instances[i % 3].hit('tok_shared', 60_000, now)));
      const counts = hits.map((h) => h.count).sort((a, b) => a - b);
      expect(counts).to.deep.equal(Array.from({ length: 45 }, (_, i) => i + 1));
    });
  });

  describe('MongoRateLimitCounter documents', () => {
    it('keeps one counter document per subject and window, refused hits included, expiring after the window', async () => {
      const shared = await db();
      const counter = new MongoRateLimitCounter(shared, memoryLogger().logger);
      const now = new Date('2126-03-01T12:00:05.000Z');
      await Promise.all(Array.from({ length: 120 }, () => counter.hit('tok_a', 60_000, now)));
      await counter.hit('tok_a', 60_000, new Date('2126-03-01T12:01:05.000Z'));
      const stored = await shared.collection(COLLECTIONS.rateLimits).find({}).sort({ _id: 1 }).toArray();
      expect(stored).to.deep.equal([
        {
          _id: `tok_a:60000:${Date.parse('2126-03-01T12:00:00.000Z')}`,
          count: 120,
          expiresAt: new Date(Date.parse('2126-03-01T12:01:00.000Z') + COUNTER_GRACE_MS),
        },
        {
          _id: `tok_a:60000:${Date.parse('2126-03-01T12:01:00.000Z')}`,
          count: 1,
          expiresAt: new Date(Date.parse('2126-03-01T12:02:00.000Z') + COUNTER_GRACE_MS),
        },
      ]);
    });

    it('retries an upsert that lost the race to create the counter (duplicate key), and counts the hit', async () => {
      const shared = await db();
      const racing = losingOneUpsertRace(shared);
      const counter = new MongoRateLimitCounter(racing, memoryLogger().logger);
      const now = new Date('2126-03-01T12:00:05.000Z');
      expect((await counter.hit('tok_a', 60_000, now)).count).to.equal(2);
      expect(racing.racesLeft).to.equal(0);
    });
  });

  describe('MongoIdempotencyStore documents', () => {
    const request = (now: string, reservedId: string) => ({
      fingerprint: 'fp',
      reservedId,
      now: new Date(now),
      leaseMs: 10_000,
      ttlMs: 3_600_000,
    });

    it('keeps one document per (dashboard, key), with the time the TTL index deletes it', async () => {
      const shared = await db();
      const store = new MongoIdempotencyStore(shared, memoryLogger().logger);
      await store.claim({ dashboardId: 'dsh_a', key: 'k' }, request('2126-03-01T12:00:00.000Z', 'ord_1'));
      await store.claim({ dashboardId: 'dsh_b', key: 'k' }, request('2126-03-01T12:00:00.000Z', 'ord_2'));
      await store.claim({ dashboardId: 'dsh_a', key: 'k' }, request('2126-03-01T12:00:01.000Z', 'ord_3'));
      const stored = await shared
        .collection(COLLECTIONS.idempotencyKeys)
        .find({}, { projection: { _id: 0, dashboardId: 1, key: 1, reservedId: 1, expiresAt: 1 } })
        .sort({ dashboardId: 1 })
        .toArray();
      expect(stored).to.deep.equal([
        { dashboardId: 'dsh_a', key: 'k', reservedId: 'ord_1', expiresAt: new Date('2126-03-01T13:00:00.000Z') },
        { dashboardId: 'dsh_b', key: 'k', reservedId: 'ord_2', expiresAt: new Date('2126-03-01T13:00:00.000Z') },
      ]);
    });

    it("retries a claim whose upsert lost the race to create the record (duplicate key), and finds the winner's claim", async () => {
      const racing = losingOneUpsertRace(await db());
      const store = new MongoIdempotencyStore(racing, memoryLogger().logger);
      const outcome = await store.claim({ dashboardId: 'dsh_a', key: 'k' }, request('2126-03-01T12:00:00.000Z', 'ord_1'));
      expect(outcome).to.deep.equal({ kind: 'in-progress', fingerprint: 'fp', leaseExpiresAt: new Date('2126-03-01T12:00:10.000Z') });
      expect(racing.racesLeft).to.equal(0);
    });

    it('replaces a record past its TTL in place, before the server deletes it: still one document for the key', async () => {
      const shared = await db();
      const store = new MongoIdempotencyStore(shared, memoryLogger().logger);
      const scope = { dashboardId: 'dsh_a', key: 'k' };
      const first = await store.claim(scope, request('2126-03-01T12:00:00.000Z', 'ord_old'));
      if (first.kind !== 'acquired') throw new Error('expected acquired');
      await store.complete(scope, first.claim.claimId, { status: 201, headers: {}, body: { old: true } });
      const again = await store.claim(scope, request('2126-03-01T13:00:00.000Z', 'ord_new'));
      expect(again.kind === 'acquired' && again.claim.reservedId).to.equal('ord_new');
      const stored = await shared.collection(COLLECTIONS.idempotencyKeys).find({}).toArray();
      expect(stored).to.have.length(1);
      expect(stored[0]).to.include({ reservedId: 'ord_new' }).and.not.have.property('response');
      expect(stored[0]['expiresAt']).to.deep.equal(new Date('2126-03-01T14:00:00.000Z'));
    });
  });
});
