import type { Db } from 'mongodb';
import type {
  ClaimOutcome,
  ClaimRequest,
  IdempotencyScope,
  IdempotencyStore,
  StoredResponse,
} from '../../../application/ports/idempotency-store';
import type { Logger } from '../../../application/ports/logger';
import { randomBase62 } from '../../system/base62';
import { idempotencyDocumentCodec, type IdempotencyDocument, type IdempotencyRecord } from './guard-documents';
import { guarded, isDuplicateKey } from '../mongo-errors';
import { MongoCollection } from '../mongo-collection';

/** Each round follows a change made by a racing call; a handful settles any real race. */
const MAX_ROUNDS = 8;

/**
 * Idempotency records, one document per (dashboard, key) under a unique index on both. Every decision
 * with a single winner is one single-document write: an upsert of `$setOnInsert` claims a new key; a
 * `replaceOne` filtered on the expired record takes a key past its TTL, which counts as absent before
 * the TTL index deletes it; a `findOneAndUpdate` filtered on the old claim takes over a lapsed lease;
 * complete, release and abandon are conditional on the claim id and on no response yet.
 */
export class MongoIdempotencyStore implements IdempotencyStore {
  private readonly records: MongoCollection<IdempotencyDocument>;

  constructor(db: Db, logger: Logger) {
    this.records = new MongoCollection(db, 'idempotencyKeys', logger);
  }

  async claim(scope: IdempotencyScope, request: ClaimRequest): Promise<ClaimOutcome> {
    const now = request.now.getTime();
    const unique = { dashboardId: scope.dashboardId, key: scope.key };
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const claim = {
        fingerprint: request.fingerprint,
        claimId: randomBase62(22),
        reservedId: request.reservedId,
        leaseExpiresAt: new Date(now + request.leaseMs),
        expiresAt: new Date(now + request.ttlMs),
      };
      const fresh: IdempotencyRecord = { ...unique, ...claim };
      const found = await this.insertOrFind(unique, claim);
      if (found === 'inserted') return acquired(fresh);
      if (found === 'raced') continue;
      const current = this.decode(found);

      if (current.expiresAt.getTime() <= now) {
        const replaced = await guarded(() =>
          this.records.documents.replaceOne({ ...unique, claimId: current.claimId, expiresAt: { $lte: request.now } }, fresh),
        );
        if (replaced.modifiedCount === 1) return acquired(fresh);
        continue;
      }
      if (current.response !== undefined) {
        const { status, headers, body } = current.response;
        return { kind: 'completed', fingerprint: current.fingerprint, response: { status, headers, body: JSON.parse(body) } };
      }
      if (current.leaseExpiresAt.getTime() <= now && current.fingerprint === request.fingerprint) {
        const takenOver = await guarded(() =>
          this.records.documents.findOneAndUpdate(
            { ...unique, claimId: current.claimId, response: { $exists: false }, leaseExpiresAt: { $lte: request.now } },
            { $set: { claimId: fresh.claimId, leaseExpiresAt: fresh.leaseExpiresAt } },
            { projection: { claimId: 1 } },
          ),
        );
        if (takenOver !== null) return acquired({ claimId: fresh.claimId, reservedId: current.reservedId });
        continue;
      }
      return { kind: 'in-progress', fingerprint: current.fingerprint, leaseExpiresAt: current.leaseExpiresAt };
    }
    throw new Error(`idempotency record kept changing during ${MAX_ROUNDS} rounds`);
  }

  async complete(scope: IdempotencyScope, claimId: string, response: StoredResponse): Promise<boolean> {
    const stored = { status: response.status, headers: { ...response.headers }, body: JSON.stringify(response.body ?? null) };
    const result = await guarded(() =>
      this.records.documents.updateOne(
        { dashboardId: scope.dashboardId, key: scope.key, claimId, response: { $exists: false } },
        { $set: { response: stored } },
      ),
    );
    return result.modifiedCount === 1;
  }

  async release(scope: IdempotencyScope, claimId: string): Promise<void> {
    await guarded(() =>
      this.records.documents.deleteOne({ dashboardId: scope.dashboardId, key: scope.key, claimId, response: { $exists: false } }),
    );
  }

  async abandon(scope: IdempotencyScope, claimId: string, now: Date): Promise<void> {
    await guarded(() =>
      this.records.documents.updateOne(
        { dashboardId: scope.dashboardId, key: scope.key, claimId, response: { $exists: false } },
        { $set: { leaseExpiresAt: now } },
      ),
    );
  }

  /**
   * Inserts the claim unless a record of the key exists, and returns that record if so: one
   * `findAndModify`. Two upserts of a new key can race, and MongoDB may refuse the loser with a
   * duplicate-key error (it retries most such upserts itself): the caller's next round finds the
   * winner's record.
   */
  private async insertOrFind(
    unique: Pick<IdempotencyRecord, 'dashboardId' | 'key'>,
    claim: Omit<IdempotencyRecord, 'dashboardId' | 'key'>,
  ): Promise<'inserted' | 'raced' | IdempotencyDocument> {
    try {
      // The upsert takes dashboardId and key from the filter's equalities.
      const before = await guarded(() =>
        this.records.documents.findOneAndUpdate(unique, { $setOnInsert: claim }, { upsert: true, returnDocument: 'before' }),
      );
      return before ?? 'inserted';
    } catch (err) {
      if (isDuplicateKey(err)) return 'raced';
      throw err;
    }
  }

  private decode(document: unknown): IdempotencyDocument {
    return this.records.decode(idempotencyDocumentCodec, document);
  }
}

const acquired = (record: Pick<IdempotencyRecord, 'claimId' | 'reservedId'>): ClaimOutcome => ({
  kind: 'acquired',
  claim: { claimId: record.claimId, reservedId: record.reservedId },
});
