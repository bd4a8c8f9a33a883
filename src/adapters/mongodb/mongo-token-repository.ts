import * as O from 'fp-ts/Option';
import type { Collection, Db } from 'mongodb';
import type { Logger } from '../../application/ports/logger';
import type { TokenRepository } from '../../application/ports/token-repository';
import type { ApiToken } from '../../domain/dashboard';
import { decodeDocument } from './corrupt-document';
import { tokenDocumentCodec, tokenFromDocument, tokenToDocument, type TokenDocument } from './dashboard-documents';
import { guarded, insertUnlessDuplicate } from './mongo-errors';
import { COLLECTIONS } from './mongo-indexes';

/** The first revocation of a token, keyed by the token id: the unique `_id` lets only one exist. */
interface RevocationDocument {
  readonly _id: string;
  readonly revokedAt: Date;
}

export class MongoTokenRepository implements TokenRepository {
  private readonly tokens: Collection<TokenDocument>;
  private readonly revocations: Collection<RevocationDocument>;

  constructor(
    db: Db,
    private readonly logger: Logger,
  ) {
    this.tokens = db.collection<TokenDocument>(COLLECTIONS.tokens);
    this.revocations = db.collection<RevocationDocument>(COLLECTIONS.tokenRevocations);
  }

  /** `_id` is the token id and the hash has a unique index: a collision on either fails the insert. */
  async insert(token: ApiToken): Promise<void> {
    await guarded(() => this.tokens.insertOne(tokenToDocument(token)));
  }

  async findByHash(hash: string): Promise<O.Option<ApiToken>> {
    const found = await guarded(() => this.tokens.findOne({ hash }));
    return found === null ? O.none : O.some(this.decode(found));
  }

  async listByDashboard(dashboardId: string): Promise<readonly ApiToken[]> {
    const documents = await guarded(() => this.tokens.find({ dashboardId }).sort({ createdAt: 1, _id: 1 }).toArray());
    return documents.map((document) => this.decode(document));
  }

  /**
   * The first revocation wins through a unique insert, then its time is copied onto the token. Every
   * racing call copies the same time, so the order in which their writes land does not matter. (A
   * conditional `findOneAndUpdate` would do on MongoDB, but FerretDB 1.x checks an update's filter
   * before, not during, the write, and lets the last racer win.) If the process dies between the two
   * writes, the next revoke of the token finishes the job.
   */
  async revoke(tokenId: string, at: Date): Promise<O.Option<ApiToken>> {
    const stored = await guarded(() => this.tokens.findOne({ _id: tokenId }));
    if (stored === null) return O.none;
    const token = this.decode(stored);
    if (token.revokedAt !== undefined) return O.some(token);
    await insertUnlessDuplicate(this.revocations, { _id: tokenId, revokedAt: at });
    const first = await guarded(() => this.revocations.findOne({ _id: tokenId }));
    if (first === null || !(first.revokedAt instanceof Date)) {
      this.logger.error('corrupt document in MongoDB', { collection: COLLECTIONS.tokenRevocations, documentId: tokenId, field: 'revokedAt' });
      throw new Error(`${COLLECTIONS.tokenRevocations} document ${tokenId} is missing or corrupt`);
    }
    await guarded(() => this.tokens.updateOne({ _id: tokenId }, { $set: { revokedAt: first.revokedAt } }));
    return O.some({ ...token, revokedAt: first.revokedAt });
  }

  private decode(document: unknown): ApiToken {
    return tokenFromDocument(decodeDocument(tokenDocumentCodec, document, COLLECTIONS.tokens, this.logger));
  }
}
