import type {
  ClaimOutcome,
  ClaimRequest,
  IdempotencyScope,
  IdempotencyStore,
  StoredResponse,
} from '../../../application/ports/idempotency-store';
import { randomBase62 } from '../../system/base62';

interface IdempotencyRecord {
  readonly fingerprint: string;
  readonly claimId: string;
  readonly reservedId: string;
  readonly leaseExpiresAt: Date;
  readonly expiresAt: Date;
  readonly response?: StoredResponse;
}

const keyOf = (scope: IdempotencyScope): string => `${scope.dashboardId}\u0000${scope.key}`;

/**
 * Idempotency records in the process. Every method decides and writes without an `await` in between,
 * which makes each call atomic on the event loop. A record past its TTL counts as absent.
 */
export class InMemoryIdempotencyStore implements IdempotencyStore {
  private readonly records = new Map<string, IdempotencyRecord>();
  private sweptAt = 0;

  async claim(scope: IdempotencyScope, request: ClaimRequest): Promise<ClaimOutcome> {
    const now = request.now.getTime();
    this.sweep(now);
    const key = keyOf(scope);
    const existing = this.records.get(key);
    if (existing === undefined || existing.expiresAt.getTime() <= now) {
      const claimId = randomBase62(22);
      this.records.set(key, {
        fingerprint: request.fingerprint,
        claimId,
        reservedId: request.reservedId,
        leaseExpiresAt: new Date(now + request.leaseMs),
        expiresAt: new Date(now + request.ttlMs),
      });
      return { kind: 'acquired', claim: { claimId, reservedId: request.reservedId } };
    }
    if (existing.response !== undefined) {
      return { kind: 'completed', fingerprint: existing.fingerprint, response: structuredClone(existing.response) };
    }
    if (existing.leaseExpiresAt.getTime() <= now && existing.fingerprint === request.fingerprint) {
      const claimId = randomBase62(22);
      this.records.set(key, { ...existing, claimId, leaseExpiresAt: new Date(now + request.leaseMs) });
      return { kind: 'acquired', claim: { claimId, reservedId: existing.reservedId } };
    }
    return { kind: 'in-progress', fingerprint: existing.fingerprint, leaseExpiresAt: new Date(existing.leaseExpiresAt) };
  }

  async complete(scope: IdempotencyScope, claimId: string, response: StoredResponse): Promise<boolean> {
    const key = keyOf(scope);
    const existing = this.records.get(key);
    if (existing === undefined || existing.claimId !== claimId || existing.response !== undefined) return false;
    this.records.set(key, { ...existing, response: structuredClone(response) });
    return true;
  }

  async release(scope: IdempotencyScope, claimId: string): Promise<void> {
    const key = keyOf(scope);
    const existing = this.records.get(key);
    if (existing !== undefined && existing.claimId === claimId && existing.response === undefined) this.records.delete(key);
  }

  async abandon(scope: IdempotencyScope, claimId: string, now: Date): Promise<void> {
    const key = keyOf(scope);
    const existing = this.records.get(key);
    if (existing !== undefined && existing.claimId === claimId && existing.response === undefined) {
      this.records.set(key, { ...existing, leaseExpiresAt: new Date(now) });
    }
  }

  /** At most once a minute, forget the records whose TTL has passed. */
  private sweep(now: number): void {
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    for (const [key, record] of this.records) {
      if (record.expiresAt.getTime() <= now) this.records.delete(key);
    }
  }
}
