import { expect } from 'chai';
import * as O from 'fp-ts/Option';
import type { Document } from 'mongodb';
import { COLLECTIONS } from '../../../src/adapters/mongodb/mongo-indexes';
import type { Storage } from '../../../src/application/ports/storage';
import { describeWithMongo } from '../../support/mongo-server';

/**
 * The claims that make revoke safe on servers whose conditional updates are not atomic
 * (FerretDB 1.x): what a writer that died half-way leaves behind, and how the next writer copes.
 */
describeWithMongo('MongoDB write claims', (mongo) => {
  let storage: Storage;
  const raw = (collection: string) => mongo.client.db(mongo.dbName).collection<Document>(collection);
  before(async () => {
    storage = await mongo.connect();
  });
  beforeEach(() => mongo.empty());

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
