import { randomUUID } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import { guarded, insertUnlessDuplicate } from './mongo-errors';
import { COLLECTIONS } from './mongo-indexes';

/**
 * How long a claim protects a write in flight. Past it, the claimant is taken for dead (it crashed
 * between claiming and writing) and another writer may take the version over. Longer than the
 * socket timeout, so a slow but live writer has failed before its claim can be taken.
 */
export const CLAIM_LEASE_MS = 30_000;

/** A claim whose time cannot be read is as good as abandoned. */
const isStale = (claimedAt: unknown, leaseMs: number): boolean =>
  !(claimedAt instanceof Date) || claimedAt.getTime() <= Date.now() - leaseMs;

interface ClaimDocument {
  /** Random per attempt, so that removing one claim can never remove another's. */
  readonly _id: string;
  readonly orderId: string;
  readonly version: number;
  readonly claimedAt: Date;
}

/**
 * The right to write version N of an order, held by at most one writer: a claim is a document under
 * a unique index on (orderId, version), and an insert under a unique index is atomic on every server
 * we run on. It guards the conditional replace because FerretDB 1.x (SQLite) evaluates an update's
 * filter before, not during, the write: two replaces from the same version can both match, and the
 * last one wins. On MongoDB the conditional replace alone would do; the claim costs one insert.
 */
export class VersionClaims {
  private readonly claims: Collection<ClaimDocument>;

  constructor(
    db: Db,
    private readonly leaseMs = CLAIM_LEASE_MS,
  ) {
    this.claims = db.collection<ClaimDocument>(COLLECTIONS.orderVersionClaims);
  }

  /**
   * Claims `version` of the order. Resolves the claim's id, or undefined when a live claim on that
   * version exists: another writer got there first. A claim older than the lease is removed by its
   * own id and claimed again, once.
   */
  async claim(orderId: string, version: number): Promise<string | undefined> {
    const first = await this.tryInsert(orderId, version);
    if (first !== undefined) return first;
    const existing = await guarded(() => this.claims.findOne({ orderId, version }));
    if (existing === null || !isStale(existing.claimedAt, this.leaseMs)) return undefined;
    await guarded(() => this.claims.deleteOne({ _id: existing._id }));
    return this.tryInsert(orderId, version);
  }

  /** Gives a claim back when its write did not happen, so the version stays open. */
  async release(claimId: string): Promise<void> {
    await guarded(() => this.claims.deleteOne({ _id: claimId }));
  }

  /**
   * Removes the claims on versions below `version` once it is written: they can no longer guard
   * anything, since a replace from a version below the stored one never matches.
   */
  async forgetBelow(orderId: string, version: number): Promise<void> {
    await guarded(() => this.claims.deleteMany({ orderId, version: { $lt: version } }));
  }

  private async tryInsert(orderId: string, version: number): Promise<string | undefined> {
    const claim: ClaimDocument = { _id: randomUUID(), orderId, version, claimedAt: new Date() };
    return (await insertUnlessDuplicate(this.claims, claim)) ? claim._id : undefined;
  }
}
