import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Claim, IdempotencyScope, IdempotencyStore, StoredResponse } from '../ports/idempotency-store';

export interface IdempotencySettings {
  /** How long a key is remembered after its first use (decision 0007: 24 h by default). */
  readonly ttlMs: number;
  /** How long a claim holds before a retry may take it over, as after a crash. */
  readonly leaseMs: number;
}

export type Admission =
  | { readonly kind: 'execute'; readonly claim: Claim }
  | { readonly kind: 'replay'; readonly response: StoredResponse }
  | { readonly kind: 'reused' }
  | { readonly kind: 'in-progress'; readonly retryAfterSeconds: number };

/**
 * Decides what a request with an Idempotency-Key does (decision 0007): execute it under a claim,
 * replay the stored response, or refuse it because the key belongs to another request or is still
 * being executed.
 */
export class IdempotencyGate {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly settings: IdempotencySettings,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async admit(scope: IdempotencyScope, fingerprint: string): Promise<Admission> {
    const now = this.clock.now();
    const outcome = await this.store.claim(scope, {
      fingerprint,
      reservedId: this.ids.next('ord'),
      now,
      leaseMs: this.settings.leaseMs,
      ttlMs: this.settings.ttlMs,
    });
    switch (outcome.kind) {
      case 'acquired':
        return { kind: 'execute', claim: outcome.claim };
      case 'completed':
        return outcome.fingerprint === fingerprint ? { kind: 'replay', response: outcome.response } : { kind: 'reused' };
      case 'in-progress':
        if (outcome.fingerprint !== fingerprint) return { kind: 'reused' };
        return {
          kind: 'in-progress',
          retryAfterSeconds: Math.max(1, Math.ceil((outcome.leaseExpiresAt.getTime() - now.getTime()) / 1000)),
        };
    }
  }

  /** Stores the response for replays. */
  complete(scope: IdempotencyScope, claim: Claim, response: StoredResponse): Promise<boolean> {
    return this.store.complete(scope, claim.claimId, response);
  }

  /** Gives the key back: nothing was done that a retry must not do again. */
  release(scope: IdempotencyScope, claim: Claim): Promise<void> {
    return this.store.release(scope, claim.claimId);
  }

  /** The request failed midway: the same request may retry at once and finish the work. */
  abandon(scope: IdempotencyScope, claim: Claim): Promise<void> {
    return this.store.abandon(scope, claim.claimId, this.clock.now());
  }
}
