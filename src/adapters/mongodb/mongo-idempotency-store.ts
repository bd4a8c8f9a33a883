import type { Collection, Db } from 'mongodb';
import type {
  ClaimOutcome,
  ClaimRequest,
  IdempotencyScope,
  IdempotencyStore,
  StoredResponse,
} from '../../application/ports/idempotency-store';
import type { Logger } from '../../application/ports/logger';
import { randomBase62 } from '../system/base62';
import { decodeDocument } from './corrupt-document';
import { idempotencyDocumentCodec, type IdempotencyDocument, type TakeoverDocument } from './guard-documents';
import { guarded, insertUnlessDuplicate } from './mongo-errors';
import { COLLECTIONS } from './mongo-indexes';

const idOf = (scope: IdempotencyScope): string => `${scope.dashboardId}:${scope.key}`;

/** Each round follows a change made by a racing call; a handful settles any real race. */
const MAX_ROUNDS = 8;

/** How often, in the time of the requests, records past their TTL are deleted. */
const PURGE_EVERY_MS = 60_000;

/**
 * Idempotency records, one document per (dashboard, key). Every decision that must have a single
 * winner is an insert under a unique `_id`, the one write that is atomic on MongoDB and FerretDB
 * alike (docs/ferretdb-notes.md): claiming a new key inserts its record; taking over an expired record
 * or lease first inserts a takeover document named after the claim being replaced, so of racing
 * retries exactly one may replace it. A new key costs one round trip.
 */
export class MongoIdempotencyStore implements IdempotencyStore {
  private readonly records: Collection<IdempotencyDocument>;
  private readonly takeovers: Collection<TakeoverDocument>;
  private purgedAt = 0;

  constructor(
    db: Db,
    private readonly logger: Logger,
  ) {
    this.records = db.collection<IdempotencyDocument>(COLLECTIONS.idempotencyKeys);
    this.takeovers = db.collection<TakeoverDocument>(COLLECTIONS.idempotencyTakeovers);
  }

  async claim(scope: IdempotencyScope, request: ClaimRequest): Promise<ClaimOutcome> {
    const _id = idOf(scope);
    const now = request.now.getTime();
    this.purgeExpired(now);
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const fresh: IdempotencyDocument = {
        _id,
        fingerprint: request.fingerprint,
        claimId: randomBase62(22),
        reservedId: request.reservedId,
        leaseExpiresAt: new Date(now + request.leaseMs),
        expiresAt: new Date(now + request.ttlMs),
      };
      if (await insertUnlessDuplicate(this.records, fresh)) return acquired(fresh);

      const found = await guarded(() => this.records.findOne({ _id }));
      if (found === null) continue;
      const current = this.decode(found);
      if (current.expiresAt.getTime() <= now) {
        if (await this.replace(current, fresh)) return acquired(fresh);
        continue;
      }
      if (current.response !== undefined) {
        const { status, headers, body } = current.response;
        return { kind: 'completed', fingerprint: current.fingerprint, response: { status, headers, body: JSON.parse(body) } };
      }
      if (current.leaseExpiresAt.getTime() <= now && current.fingerprint === request.fingerprint) {
        const takenOver = { ...current, claimId: fresh.claimId, leaseExpiresAt: fresh.leaseExpiresAt };
        if (await this.replace(current, takenOver)) return acquired(takenOver);
        continue;
      }
      return { kind: 'in-progress', fingerprint: current.fingerprint, leaseExpiresAt: current.leaseExpiresAt };
    }
    throw new Error(`idempotency record kept changing during ${MAX_ROUNDS} rounds`);
  }

  async complete(scope: IdempotencyScope, claimId: string, response: StoredResponse): Promise<boolean> {
    const stored = { status: response.status, headers: { ...response.headers }, body: JSON.stringify(response.body ?? null) };
    const result = await guarded(() =>
      this.records.updateOne({ _id: idOf(scope), claimId, response: { $exists: false } }, { $set: { response: stored } }),
    );
    return result.modifiedCount === 1;
  }

  async release(scope: IdempotencyScope, claimId: string): Promise<void> {
    await guarded(() => this.records.deleteOne({ _id: idOf(scope), claimId, response: { $exists: false } }));
  }

  async abandon(scope: IdempotencyScope, claimId: string, now: Date): Promise<void> {
    await guarded(() =>
      this.records.updateOne({ _id: idOf(scope), claimId, response: { $exists: false } }, { $set: { leaseExpiresAt: now } }),
    );
  }

  /**
   * Replaces `current` by `next` when this call wins the takeover of `current.claimId`. Claim ids are
   * random and never reused, so a takeover document can only ever refer to the claim it names.
   */
  private async replace(current: IdempotencyDocument, next: IdempotencyDocument): Promise<boolean> {
    const won = await insertUnlessDuplicate(this.takeovers, { _id: `${current._id}#${current.claimId}`, expiresAt: current.expiresAt });
    if (!won) return false;
    const { _id, ...replacement } = next;
    const result = await guarded(() => this.records.replaceOne({ _id, claimId: current.claimId }, replacement));
    return result.modifiedCount === 1;
  }

  /**
   * Now and then, without waiting, deletes records whose TTL has passed (they count as absent anyway)
   * and the takeovers that named them: FerretDB has no TTL indexes, so nothing else would.
   */
  private purgeExpired(now: number): void {
    if (now - this.purgedAt < PURGE_EVERY_MS) return;
    this.purgedAt = now;
    const expired = { expiresAt: { $lte: new Date(now) } };
    Promise.all([this.records.deleteMany(expired), this.takeovers.deleteMany(expired)]).catch((err: unknown) => {
      this.logger.warn('could not purge expired idempotency records', { errorName: err instanceof Error ? err.name : typeof err });
    });
  }

  private decode(document: unknown): IdempotencyDocument {
    return decodeDocument(idempotencyDocumentCodec, document, COLLECTIONS.idempotencyKeys, this.logger);
  }
}

const acquired = (record: Pick<IdempotencyDocument, 'claimId' | 'reservedId'>): ClaimOutcome => ({
  kind: 'acquired',
  claim: { claimId: record.claimId, reservedId: record.reservedId },
});
