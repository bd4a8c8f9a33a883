import { expect } from 'chai';
import * as O from 'fp-ts/Option';
import type { Document } from 'mongodb';
import { COLLECTIONS } from '../../../src/adapters/mongodb/mongo-indexes';
import { CLAIM_LEASE_MS } from '../../../src/adapters/mongodb/version-claims';
import type { Storage } from '../../../src/application/ports/storage';
import type { Order } from '../../../src/domain/order';
import { describeWithMongo } from '../../support/mongo-server';
import { anOrder } from '../../support/order-builder';

/**
 * The claims that make replace and revoke safe on servers whose conditional updates are not atomic
 * (FerretDB 1.x): what a writer that died half-way leaves behind, and how the next writer copes.
 */
describeWithMongo('MongoDB write claims', (mongo) => {
  let storage: Storage;
  const raw = (collection: string) => mongo.client.db(mongo.dbName).collection<Document>(collection);
  const order = (): Order => anOrder().inDashboard('dsh_w').with({ id: 'ord_w', externalId: 'w-1' }).build();
  const stored = async (): Promise<Order> => {
    const found = await storage.orders.findByExternalId('dsh_w', 'w-1');
    if (O.isNone(found)) throw new Error('order not found');
    return found.value;
  };

  before(async () => {
    storage = await mongo.connect();
  });
  beforeEach(() => mongo.empty());

  describe('replace', () => {
    it('refuses to write a version that a live writer has claimed', async () => {
      await storage.orders.insert(order(), []);
      await raw(COLLECTIONS.orderVersionClaims).insertOne({ _id: 'live' as never, orderId: 'ord_w', version: 2, claimedAt: new Date() });
      expect(await storage.orders.replace({ ...order(), metadata: { by: 'late' }, version: 2 }, [])).to.equal(false);
      expect(await stored()).to.deep.equal(order());
    });

    it('takes over the claim of a writer that died before writing, once the lease is over', async () => {
      await storage.orders.insert(order(), []);
      const longAgo = new Date(Date.now() - CLAIM_LEASE_MS - 1_000);
      await raw(COLLECTIONS.orderVersionClaims).insertOne({ _id: 'dead' as never, orderId: 'ord_w', version: 2, claimedAt: longAgo });
      expect(await storage.orders.replace({ ...order(), metadata: { by: 'next' }, version: 2 }, [])).to.equal(true);
      expect((await stored()).metadata).to.deep.equal({ by: 'next' });
      expect(await raw(COLLECTIONS.orderVersionClaims).countDocuments({ _id: 'dead' as never })).to.equal(0);
    });

    it('keeps only the claim of the latest version once it is written', async () => {
      await storage.orders.insert(order(), []);
      expect(await storage.orders.replace({ ...order(), version: 2 }, [])).to.equal(true);
      expect(await storage.orders.replace({ ...order(), version: 3 }, [])).to.equal(true);
      const claims = await raw(COLLECTIONS.orderVersionClaims).find({ orderId: 'ord_w' }).toArray();
      expect(claims.map((claim) => claim['version'])).to.deep.equal([3]);
    });

    it('gives the claim back when the replace does not match, so the version stays open', async () => {
      await storage.orders.insert(order(), []);
      expect(await storage.orders.replace({ ...order(), dashboardId: 'dsh_other', version: 2 }, [])).to.equal(false);
      expect(await raw(COLLECTIONS.orderVersionClaims).countDocuments({})).to.equal(0);
      expect(await storage.orders.replace({ ...order(), metadata: { ok: true }, version: 2 }, [])).to.equal(true);
    });

    it('refuses a stale writer even after the lease, since the stored version moved on', async () => {
      await storage.orders.insert(order(), []);
      expect(await storage.orders.replace({ ...order(), metadata: { by: 'first' }, version: 2 }, [])).to.equal(true);
      await raw(COLLECTIONS.orderVersionClaims).updateMany({}, { $set: { claimedAt: new Date(0) } });
      expect(await storage.orders.replace({ ...order(), metadata: { by: 'stale' }, version: 2 }, [])).to.equal(false);
      expect((await stored()).metadata).to.deep.equal({ by: 'first' });
    });
  });

  describe('revoke', () => {
    const token = { id: 'tok_w', dashboardId: 'dsh_w', hash: 'e'.repeat(64), createdAt: new Date('2026-01-01T00:00:00.000Z') };

    it('finishes a revocation whose writer died between its two writes, keeping the first time', async () => {
      await storage.tokens.insert(token);
      const first = new Date('2026-02-01T00:00:00.000Z');
      await raw(COLLECTIONS.tokenRevocations).insertOne({ _id: 'tok_w' as never, revokedAt: first });
      expect(await storage.tokens.revoke('tok_w', new Date('2026-03-01T00:00:00.000Z'))).to.deep.equal(O.some({ ...token, revokedAt: first }));
      expect(await storage.tokens.findByHash(token.hash)).to.deep.equal(O.some({ ...token, revokedAt: first }));
    });

    it('records nothing for an unknown token', async () => {
      expect(await storage.tokens.revoke('tok_missing', new Date())).to.deep.equal(O.none);
      expect(await raw(COLLECTIONS.tokenRevocations).countDocuments({})).to.equal(0);
    });
  });
});
