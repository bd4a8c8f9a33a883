/** Keys are scoped by dashboard: two dashboards may use the same key (decision 0007). */
export interface IdempotencyScope {
  readonly dashboardId: string;
  readonly key: string;
}

/** A response as replayed: status, the headers that matter, and the JSON body. */
export interface StoredResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** The right to execute a request under a key, until `leaseExpiresAt`. */
export interface Claim {
  /** Proves ownership to `complete` and `release`; a new one with every take-over. */
  readonly claimId: string;
  /**
   * An id fixed when the key is first used and kept across take-overs, so that a retry after a
   * crash can recognise the resource its earlier attempt created.
   */
  readonly reservedId: string;
}

export type ClaimOutcome =
  | { readonly kind: 'acquired'; readonly claim: Claim }
  | { readonly kind: 'in-progress'; readonly fingerprint: string; readonly leaseExpiresAt: Date }
  | { readonly kind: 'completed'; readonly fingerprint: string; readonly response: StoredResponse };

export interface ClaimRequest {
  readonly fingerprint: string;
  /** The id to reserve when the key is new (or its record expired). */
  readonly reservedId: string;
  readonly now: Date;
  readonly leaseMs: number;
  readonly ttlMs: number;
}

/**
 * Idempotency records, one per (dashboard, key). Implementations must agree on all of this
 * (test/contract/idempotency-store.contract.ts).
 */
export interface IdempotencyStore {
  /**
   * Atomically claims the key: of any number of racing calls on one key, exactly one gets
   * `acquired`. A record whose TTL has passed counts as absent (a fresh claim, a fresh reservedId).
   * An in-progress record whose lease has passed, with the same fingerprint, is taken over: a new
   * claimId, the same reservedId. Otherwise the record is returned as it is, whatever its
   * fingerprint; the caller compares.
   */
  claim(scope: IdempotencyScope, request: ClaimRequest): Promise<ClaimOutcome>;

  /**
   * Stores the response of the claimed request, when `claimId` still holds the key. Resolves false,
   * writing nothing, when another claim took the key over meanwhile. The record keeps its TTL.
   */
  complete(scope: IdempotencyScope, claimId: string, response: StoredResponse): Promise<boolean>;

  /**
   * Forgets an in-progress claim held by `claimId` (a no-op otherwise), so the key can be used again,
   * for any request: nothing was executed under it.
   */
  release(scope: IdempotencyScope, claimId: string): Promise<void>;

  /**
   * Ends the lease of an in-progress claim held by `claimId` at `now` (a no-op otherwise): the request
   * failed after it may have written something, so the same request may take the key over at once,
   * with the same reservedId, to finish the work.
   */
  abandon(scope: IdempotencyScope, claimId: string, now: Date): Promise<void>;
}
