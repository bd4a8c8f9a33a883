import * as O from 'fp-ts/Option';
import type { Db } from 'mongodb';
import type { Logger } from '../../../application/ports/logger';
import type { TokenRepository } from '../../../application/ports/token-repository';
import type { ApiToken } from '../../../domain/dashboard';
import { tokenDocumentCodec, tokenFromDocument, tokenToDocument, type TokenDocument } from './dashboard-documents';
import { guarded } from '../mongo-errors';
import { MongoCollection } from '../mongo-collection';

export class MongoTokenRepository implements TokenRepository {
  private readonly tokens: MongoCollection<TokenDocument>;

  constructor(db: Db, logger: Logger) {
    this.tokens = new MongoCollection(db, 'tokens', logger);
  }

  /** `_id` is the token id and the hash has a unique index: a collision on either fails the insert. */
  async insert(token: ApiToken): Promise<void> {
    await guarded(() => this.tokens.documents.insertOne(tokenToDocument(token)));
  }

  async findByHash(hash: string): Promise<O.Option<ApiToken>> {
    const found = await guarded(() => this.tokens.documents.findOne({ hash }));
    return found === null ? O.none : O.some(this.decode(found));
  }

  async listByDashboard(dashboardId: string): Promise<readonly ApiToken[]> {
    const documents = await guarded(() => this.tokens.documents.find({ dashboardId }).sort({ createdAt: 1, _id: 1 }).toArray());
    return documents.map((document) => this.decode(document));
  }

  /**
   * One conditional update: `revokedAt` is set only on a token that has none, so of racing calls the
   * first to reach the document wins and the others match nothing; they, and later calls, read the
   * token as it is stored. One command for a first revocation, two for a token already revoked.
   */
  async revoke(tokenId: string, at: Date): Promise<O.Option<ApiToken>> {
    const revoked = await guarded(() =>
      this.tokens.documents.findOneAndUpdate(
        { _id: tokenId, revokedAt: { $exists: false } },
        { $set: { revokedAt: at } },
        { returnDocument: 'after' },
      ),
    );
    const stored = revoked ?? (await guarded(() => this.tokens.documents.findOne({ _id: tokenId })));
    return stored === null ? O.none : O.some(this.decode(stored));
  }

  /** One conditional update: a later use already recorded is kept. */
  async recordUse(tokenId: string, at: Date): Promise<void> {
    await guarded(() =>
      this.tokens.documents.updateOne(
        { _id: tokenId, $or: [{ lastUsedAt: { $exists: false } }, { lastUsedAt: { $lt: at } }] },
        { $set: { lastUsedAt: at } },
      ),
    );
  }

  private decode(document: unknown): ApiToken {
    return tokenFromDocument(this.tokens.decode(tokenDocumentCodec, document));
  }
}
