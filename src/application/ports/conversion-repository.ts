import type { ConversionDelivery, ConversionKind, ConversionStatus } from '../../domain/conversion';

export interface ConversionQuery {
  readonly status?: ConversionStatus;
  /** 1-based. */
  readonly page: number;
  readonly pageSize: number;
}

export interface ConversionPage {
  readonly conversions: readonly ConversionDelivery[];
  /** Every delivery of the account that matches the filter, whatever the page. */
  readonly total: number;
}

/** The right to make the due attempt of one conversion delivery, until the lease ends. */
export interface ConversionLease {
  readonly deliveryId: string;
  /** A new one with every claim: a claimant whose lease was taken over can no longer write. */
  readonly leaseId: string;
}

export interface ClaimedConversion {
  readonly delivery: ConversionDelivery;
  readonly lease: ConversionLease;
}

export interface ConversionClaim {
  readonly now: Date;
  /** How long the claim holds; past it, another claimant may take the delivery (its claimant died). */
  readonly leaseMs: number;
  /** The lease id to record. */
  readonly leaseId: string;
  /** Dashboards whose deliveries are not to be claimed now (they hold their share of this process's slots). */
  readonly skipDashboards: readonly string[];
}

/**
 * The deliveries of conversions to the ad platforms and their log. They are made by the relay, in the
 * write that empties the orders' outboxes (WebhookOutbox.relay); reads are scoped by dashboard and
 * account; the sender's methods go by lease. Implementations must agree on everything written here
 * (test/contract/conversion-repository.contract.ts).
 */
export interface ConversionRepository {
  /** One page of the account's deliveries, newest first: `createdAt` descending, then `id` descending. */
  list(dashboardId: string, adAccountId: string, query: ConversionQuery): Promise<ConversionPage>;

  /** The delivery of `kind` for this order to this account (the latest, if several), or undefined. */
  findOfOrder(adAccountId: string, orderId: string, kind: ConversionKind): Promise<ConversionDelivery | undefined>;

  /**
   * Claims the longest-due pending delivery (next attempt at or before `now`, nobody holding it),
   * none of `skipDashboards`, for `leaseMs`. Atomic: of racing claimants, in this process or others
   * on the same store, one gets a delivery; undefined when none is due.
   */
  claimDue(claim: ConversionClaim): Promise<ClaimedConversion | undefined>;

  /**
   * Stores the delivery as an attempt left it (status, attempts, next attempt) and ends the lease,
   * when `lease` still holds it; false, writing nothing, when it does not.
   */
  complete(lease: ConversionLease, delivery: ConversionDelivery): Promise<boolean>;

  /** Moves the end of a lease still held to `until`; false when it was lost. */
  renew(lease: ConversionLease, until: Date): Promise<boolean>;

  /** Ends the lease without an attempt, when it still holds: the delivery is due again as it was. */
  release(lease: ConversionLease): Promise<void>;

  /** Deletes the delivery when `lease` still holds it (its account is gone). */
  discard(lease: ConversionLease): Promise<void>;

  /** Makes the account's pending deliveries due later than `now` due at `now` (new credentials were entered); resolves how many. */
  makeDueOfAccount(dashboardId: string, adAccountId: string, now: Date): Promise<number>;

  /** Deletes every delivery of the account (it was disconnected). */
  deleteOfAccount(dashboardId: string, adAccountId: string): Promise<void>;

  /** Deletes the deliveries made CONVERSION_RETENTION_MS or longer before `now`; resolves how many. */
  purgeExpired(now: Date): Promise<number>;
}
